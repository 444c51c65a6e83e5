import type * as NodeRedis from '@redis/client';
import { FleetRedisError } from './errors.js';
import type { FleetEvent, FleetState } from './events.js';
import { isClusterClient } from './fleet-client.js';
import type { FleetClient } from './fleet-client.js';
import { keySlot } from './key-slot.js';
import { allScripts } from './scripts/script.js';
import type { LuaScript } from './scripts/script.js';

/** A script argument: a Buffer is sent as its bytes (a robots.txt body), unchanged. */
export type ScriptArgument = string | number | Buffer;

/** How a reply's strings come back: decoded as UTF-8, or as Buffers with their bytes. */
export type ReplyStrings = 'strings' | 'buffers';

/** node-redis, as `import('@redis/client')` gives it. */
export type NodeRedisModule = typeof NodeRedis;

/** The command options that return a reply's strings as Buffers. */
interface BufferReplies {
  readonly typeMapping: { readonly [type: number]: BufferConstructor };
}

/**
 * node-redis, loaded when a fleet is made rather than when this package is imported: it is some
 * 480 modules (`polite --help` started in 0.50 s with them, 0.43 s without), which a program
 * that imports the package without joining a fleet (the CLI's `check`, `crawl` without
 * `--redis`) need not load.
 */
export function loadNodeRedis(): Promise<NodeRedisModule> {
  return import('@redis/client');
}

/** Redis did not answer anything for the request's whole `unavailableTimeout`. */
export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted';
  /** How long Redis had been silent, ms. */
  readonly silent: number;

  constructor(silent: number, cause?: unknown) {
    super('no answer from Redis in time', cause === undefined ? undefined : { cause });
    this.silent = silent;
  }
}

const TIMED_OUT = Symbol('timed out');

/** Reconnection delays of a client the fleet creates: quick first tries, then once a second. */
const reconnectDelay = (retries: number): number => Math.min(50 * 2 ** retries, 1_000);

/**
 * The fleet's two Redis connections: commands (the caller's client or one created for `url`)
 * and pub/sub (a duplicate of it). Tracks whether Redis answers, reports changes as events,
 * and runs scripts under a silence budget: a call made while Redis has answered nothing for
 * the caller's limit rejects with {@link BudgetExhausted}, and a reply that arrives after that is handed to `onLate`
 * (a late grant is given back at once).
 *
 * The client may be a Redis Cluster client: each command then goes to the node of its first
 * key's slot (every script's keys share one slot), scripts are loaded on every master, and
 * silence is counted per node (a master that stopped answering is not hidden by the others).
 */
export class FleetConnection {
  readonly client: FleetClient;
  /** Whether `client` is a Redis Cluster client. */
  readonly cluster: boolean;
  readonly #subscriber: FleetClient;
  readonly #ownsClient: boolean;
  readonly #onEvent: ((event: FleetEvent) => void) | undefined;
  readonly #commandTimeout: number;
  /** node-redis's error for an error reply (a reply: Redis answered). */
  readonly #errorReply: NodeRedisModule['ErrorReply'];
  readonly #bufferReplies: BufferReplies;
  readonly #readyWaiters = new Set<() => void>();
  readonly #messageListeners = new Set<(kind: string, origin: string) => void>();
  readonly #recoverListeners = new Set<() => void>();
  readonly #readyListeners = new Set<() => void>();
  #state: FleetState = 'connecting';
  /**
   * When Redis last answered a command of this connection (performance.now()), by route: one
   * route on a single Redis, one per master node on a Redis Cluster (see {@link FleetConnection.route}).
   */
  readonly #lastAnswer = new Map<string, number>();
  #closed = false;
  #replacing = false;
  readonly #onClientError = (error: Error): void => this.#markUnavailable(error);
  readonly #onClientReady = (): void => {
    this.#loadScripts();
    for (const listener of this.#readyListeners) listener();
    this.#answered();
    for (const wake of [...this.#readyWaiters]) wake();
  };
  readonly #onSubscriberReady = (): void => {
    // Re-subscribed after a reconnect: notifications may have been lost meanwhile.
    for (const listener of this.#recoverListeners) listener();
  };

  constructor(
    redis: NodeRedisModule,
    url: string,
    client: FleetClient | undefined,
    channel: string,
    onEvent: ((event: FleetEvent) => void) | undefined,
    commandTimeout: number,
  ) {
    this.#onEvent = onEvent;
    this.#commandTimeout = commandTimeout;
    this.#errorReply = redis.ErrorReply;
    this.#bufferReplies = { typeMapping: { [redis.RESP_TYPES.BLOB_STRING]: Buffer } };
    this.#ownsClient = client === undefined;
    // node-redis's own command timeout is off: every wait here has its own budget, and a
    // command that outlives it (a grant Redis runs late) must still deliver its reply.
    this.client =
      client ??
      redis.createClient({
        url,
        socket: { reconnectStrategy: reconnectDelay },
        commandOptions: { timeout: 0 },
      });
    this.cluster = isClusterClient(this.client);
    this.client.on('error', this.#onClientError);
    // A cluster client is ready once (`connect`); each of its nodes then reports `node-ready`
    // when it comes back (a restart that may have lost that node's keys).
    this.client.on(this.cluster ? 'node-ready' : 'ready', this.#onClientReady);
    // The same kind of client as the caller's (a cluster duplicates as a cluster).
    this.#subscriber = this.client.duplicate() as FleetClient;
    // The subscriber's errors are the command connection's too; only its recovery matters.
    this.#subscriber.on('error', () => undefined);
    this.#subscriber.on(this.cluster ? 'node-ready' : 'ready', this.#onSubscriberReady);
    if (this.#ownsClient)
      this.client.connect().catch((error: unknown) => this.#markUnavailable(error));
    else if (this.client.isReady) {
      this.#loadScripts();
      this.#answered();
    }
    this.#subscriber.connect().catch(() => undefined);
    this.#subscriber
      .subscribe(channel, (message) => {
        const space = message.indexOf(' ');
        if (space < 0) return;
        const kind = message.slice(0, space);
        const origin = message.slice(space + 1);
        for (const listener of this.#messageListeners) listener(kind, origin);
      })
      .catch(() => undefined);
  }

  get state(): FleetState {
    return this.#state;
  }

  /** Resolves once Redis answered or refused for the first time, or after `ms`. */
  settled(ms: number): Promise<void> {
    if (this.#state !== 'connecting') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const onError = (): void => done();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.client.once(this.cluster ? 'connect' : 'ready', done);
      this.client.once('error', onError);
    });
  }

  /** `listener(kind, origin)` for each fleet message (see `FleetKeys.channel`). */
  onMessage(listener: (kind: string, origin: string) => void): () => void {
    this.#messageListeners.add(listener);
    return () => this.#messageListeners.delete(listener);
  }

  /**
   * `listener()` each time the command connection becomes ready (first, then after each
   * reconnection), before any waiter is woken; at once when it is ready now.
   */
  onReady(listener: () => void): void {
    this.#readyListeners.add(listener);
    if (this.client.isReady) listener();
  }

  /** `listener()` when notifications may have been lost (pub/sub reconnected, Redis back). */
  onRecover(listener: () => void): () => void {
    this.#recoverListeners.add(listener);
    return () => this.#recoverListeners.delete(listener);
  }

  /**
   * How long Redis has been silent as far as a wait that began at `since` is concerned: the
   * time since the later of `since` and Redis's last answer to any command of this connection
   * on `route` (see {@link FleetConnection.route}). A slow Redis that keeps answering is never
   * silent for long, however long the queue.
   */
  silentFor(since: number, route = ''): number {
    return performance.now() - Math.max(this.#lastAnswer.get(route) ?? -Infinity, since);
  }

  /**
   * Where a command on `key` goes, for counting silence: `''` on a single Redis; on a Redis
   * Cluster the address of the master serving the key's slot (the slot itself until the client
   * knows the topology).
   */
  route(key: string | undefined): string {
    if (!this.cluster || key === undefined) return '';
    const slot = keySlot(key);
    const shard = (this.client as Extract<FleetClient, { slots: unknown }>).slots[slot];
    return shard?.master.address ?? `slot ${slot}`;
  }

  /**
   * Runs `script` and returns its reply, waiting for Redis (reconnections included) until it
   * has been silent for `limit` ms (see {@link FleetConnection.silentFor}); then rejects with
   * {@link BudgetExhausted}, or with `signal.reason` when `signal` aborts first. A reply Redis
   * sends after that is handed to `onLate` (a late grant is given back at once). An error
   * reply from Redis rejects with {@link FleetRedisError} (its code only, never its text).
   */
  async run<T>(
    script: LuaScript,
    keys: readonly string[],
    args: readonly ScriptArgument[],
    limit: number,
    signal: AbortSignal | undefined,
    onLate?: (reply: T) => void,
    /** `false`: a lost or missing connection fails the call at once (robots.txt store calls). */
    waitForRedis = true,
    /** `'buffers'`: the reply's strings as Buffers, bytes unchanged (a robots.txt body). */
    replies: ReplyStrings = 'strings',
  ): Promise<T> {
    const since = performance.now();
    const route = this.route(keys[0]);
    let lastError: unknown;
    for (;;) {
      signal?.throwIfAborted();
      const silent = this.silentFor(since, route);
      if (silent >= limit) throw new BudgetExhausted(Math.round(silent), lastError);
      try {
        if (!this.client.isReady) {
          this.#markUnavailable(undefined);
          // A closed fleet (its caller's client closed after it) waits for nothing.
          if (!waitForRedis || this.#closed) throw new BudgetExhausted(Math.round(silent));
          await this.#waitReady(limit, since, signal);
          continue;
        }
        const reply = this.#send<T>(script, keys, args, replies);
        const outcome = await this.#within(reply, limit, since, signal, route);
        if (outcome === TIMED_OUT) {
          const silence = Math.round(this.silentFor(since, route));
          this.#markUnavailable(new Error(`Redis did not answer for ${silence} ms`));
          this.#replaceSilent();
          reply.then(
            (late) => onLate?.(late),
            () => undefined,
          );
          throw new BudgetExhausted(silence);
        }
        return outcome;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof BudgetExhausted || error instanceof FleetRedisError) throw error;
        lastError = error;
        // Connection lost under the command (its reply is gone): wait for Redis, then retry.
        if (!this.client.isReady && waitForRedis) continue;
        throw FleetRedisError.from(error);
      }
    }
  }

  /**
   * Runs `script` once, for a caller who does not need the answer (errors are dropped). The
   * promise settles on the answer or after `commandTimeout`, whichever is first; a command
   * sent while Redis is away stays queued in the client and runs when it is back.
   */
  fire(
    script: LuaScript,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<void> {
    if (this.#closed && !this.client.isOpen) return Promise.resolve();
    const sent = this.#send(script, keys, args).then(
      () => undefined,
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    const given = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#commandTimeout);
      timer.unref();
    });
    return Promise.race([sent, given]).finally(() => clearTimeout(timer));
  }

  /**
   * Sends a plain command (robots.txt store calls); rejects when Redis has been silent for `ms`,
   * or with {@link FleetRedisError} on an error reply.
   */
  async command<T>(args: readonly string[], ms: number): Promise<T> {
    if (!this.client.isReady) throw new BudgetExhausted(0);
    const since = performance.now();
    // A store command's key is its first argument (HMGET, DEL).
    const route = this.route(args[1]);
    const answer = this.#sendCommand<T>(args[1], args);
    this.#noteAnswers(answer, route);
    let outcome: T | typeof TIMED_OUT;
    try {
      outcome = await this.#within(answer, ms, since, undefined, route);
    } catch (error) {
      throw FleetRedisError.from(error);
    }
    if (outcome === TIMED_OUT) {
      const silence = Math.round(this.silentFor(since, route));
      this.#markUnavailable(new Error(`Redis did not answer for ${silence} ms`));
      this.#replaceSilent();
      throw new BudgetExhausted(silence);
    }
    return outcome;
  }

  /**
   * Closes the pub/sub connection, and the command connection when the fleet created it: the
   * commands already sent (slot releases) are given up to `grace` ms to finish.
   */
  async close(grace: number): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const wake of [...this.#readyWaiters]) wake();
    this.client.off(this.cluster ? 'node-ready' : 'ready', this.#onClientReady);
    this.#subscriber.destroy();
    if (this.#ownsClient) {
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, grace);
      });
      let closed = false;
      const closing = this.client.close().then(
        () => {
          closed = true;
        },
        () => undefined,
      );
      await Promise.race([closing, graceOver]);
      clearTimeout(timer);
      // Redis did not answer the QUIT in time (stalled): drop the socket.
      if (!closed) this.client.destroy();
    }
    this.client.off('error', this.#onClientError);
  }

  #send<T>(
    script: LuaScript,
    keys: readonly string[],
    args: readonly ScriptArgument[],
    replies: ReplyStrings = 'strings',
  ): Promise<T> {
    const tail = [
      String(keys.length),
      ...keys,
      ...args.map((arg) => (typeof arg === 'number' ? String(arg) : arg)),
    ];
    const options = replies === 'buffers' ? this.#bufferReplies : undefined;
    const key = keys[0];
    const sent = this.#sendCommand<T>(key, ['EVALSHA', script.sha, ...tail], options).catch(
      (error: unknown) => {
        if (!(error instanceof this.#errorReply) || !error.message.startsWith('NOSCRIPT')) {
          throw error;
        }
        return this.#sendCommand<T>(key, ['EVAL', script.source, ...tail], options);
      },
    );
    this.#noteAnswers(sent, this.route(key));
    return sent;
  }

  /** Sends `args`; on a Redis Cluster to the master of `key`'s slot (a random one without a key). */
  #sendCommand<T>(
    key: string | undefined,
    args: readonly (string | Buffer)[],
    options?: BufferReplies,
  ): Promise<T> {
    if (this.cluster) {
      return (this.client as Extract<FleetClient, { masters: unknown }>).sendCommand<T>(
        key,
        false,
        [...args],
        options,
      );
    }
    return (this.client as Exclude<FleetClient, { masters: unknown }>).sendCommand<T>(
      [...args],
      options,
    );
  }

  /** A reply or an error reply is an answer: Redis is not silent. A lost connection is not. */
  #noteAnswers(reply: Promise<unknown>, route: string): void {
    reply.then(
      () => this.#answered(route),
      (error: unknown) => {
        if (error instanceof this.#errorReply) this.#answered(route);
      },
    );
  }

  #answered(route = ''): void {
    this.#lastAnswer.set(route, performance.now());
    this.#markAvailable();
  }

  /**
   * `answer`, or {@link TIMED_OUT} once Redis has been silent for `limit` ms since `since`
   * (re-armed while other calls keep being answered), or `signal`'s reason.
   */
  #within<T>(
    answer: Promise<T>,
    limit: number,
    since: number,
    signal: AbortSignal | undefined,
    route: string,
  ): Promise<T | typeof TIMED_OUT> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = (): void => {
        const left = limit - this.silentFor(since, route);
        if (left <= 0) settle(() => resolve(TIMED_OUT));
        else timer = setTimeout(arm, Math.ceil(left));
      };
      const onAbort = (): void => settle(() => reject(signal?.reason as Error));
      signal?.addEventListener('abort', onAbort, { once: true });
      function settle(finish: () => void): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        finish();
      }
      answer.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) =>
          settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
      arm();
    });
  }

  /** Waits for the connection to be ready, until Redis has been silent for `limit` since `since`. */
  #waitReady(limit: number, since: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(done, Math.max(0, Math.ceil(limit - this.silentFor(since))));
      const onAbort = (): void => {
        cleanup();
        reject(signal?.reason as Error);
      };
      const waiters = this.#readyWaiters;
      function cleanup(): void {
        clearTimeout(timer);
        waiters.delete(done);
        signal?.removeEventListener('abort', onAbort);
      }
      function done(): void {
        cleanup();
        resolve();
      }
      waiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * The command connection looks up but Redis has been silent for a caller's whole limit: a
   * dead peer or a NAT that dropped the connection without a reset, which the kernel may take
   * minutes to notice. Its replies may never come, and a later one would be matched with the
   * wrong command, so a connection the fleet owns is dropped and opened again (the commands it
   * carried fail and their callers wait for the new one). A caller's own client is left alone.
   */
  #replaceSilent(): void {
    if (!this.#ownsClient || this.#closed || this.#replacing || !this.client.isOpen) return;
    this.#replacing = true;
    this.client.destroy();
    this.client
      .connect()
      .catch((error: unknown) => this.#markUnavailable(error))
      .finally(() => {
        this.#replacing = false;
      });
  }

  #loadScripts(): void {
    const client = this.client;
    if (!isClusterClient(client)) {
      for (const script of allScripts()) {
        client
          .sendCommand(['SCRIPT', 'LOAD', script.source], { asap: true })
          .catch(() => undefined);
      }
      return;
    }
    // A cluster keeps a script cache per node: load them on every master. A master that misses
    // one (it joined later, it restarted) gets it from the EVAL fallback.
    for (const master of client.masters) {
      client
        .nodeClient(master)
        .then((node) =>
          Promise.all(
            allScripts().map((script) =>
              node.sendCommand(['SCRIPT', 'LOAD', script.source], { asap: true }),
            ),
          ),
        )
        .catch(() => undefined);
    }
  }

  #markUnavailable(error: unknown): void {
    if (this.#state === 'unavailable' || this.#closed) return;
    this.#state = 'unavailable';
    this.#onEvent?.({
      type: 'fleet-unavailable',
      error: error instanceof Error ? error : undefined,
    });
  }

  #markAvailable(): void {
    if (this.#state === 'available' || this.#closed) return;
    const wasDown = this.#state === 'unavailable';
    this.#state = 'available';
    this.#onEvent?.({ type: 'fleet-available' });
    if (wasDown) for (const listener of this.#recoverListeners) listener();
  }
}
