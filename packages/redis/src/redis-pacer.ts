import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PaceChange, PaceOutcome, Pacer, PaceRules, PacerSlot } from '@polite-crawler/fetch';
import { BACKOFF_BASE, LATENCY_WEIGHT, RECOVERY_SUCCESSES } from '@polite-crawler/fetch/internal';
import { FleetUnavailableError } from './errors.js';
import { FLEET_BRAND } from './fleet-brand.js';
import { BudgetExhausted } from './fleet-connection.js';
import type { FleetConnection } from './fleet-connection.js';
import { ClusterLossWatch } from './cluster-loss-watch.js';
import type { FleetKeys } from './keys.js';
import type { HeldLease, LeaseBook } from './lease-book.js';
import { FLEET_JOIN } from './scripts/fleet-loss.js';
import { PACE_GRANT } from './scripts/pace-grant.js';
import { PACE_PAUSE } from './scripts/pace-pause.js';
import { PACE_OUTCOME } from './scripts/pace-outcome.js';
import { PACE_LEAVE, PACE_RELEASE } from './scripts/pace-release.js';
import { luaScript } from './scripts/script.js';
import { WakeUps } from './wake-ups.js';

const GRANT = luaScript(PACE_GRANT);
const JOIN = luaScript(FLEET_JOIN);
const RELEASE = luaScript(PACE_RELEASE);
const LEAVE = luaScript(PACE_LEAVE);
const PAUSE = luaScript(PACE_PAUSE);
const OUTCOME = luaScript(PACE_OUTCOME);

type OutcomeReply = [change: 0 | 1 | 2, distress: number, spacing: number];

type GrantReply = [1, number, number, number] | [0, number];

/**
 * A slot of the fleet pacer; `startedAt` is its start as Redis booked it (Redis clock, ms).
 * @example
 * const slot = (await pacer.acquire(origin, rules)) as FleetSlot;
 */
export interface FleetSlot extends PacerSlot {
  readonly startedAt: number;
}

/**
 * The fleet's pacer as its own type: a slot always comes through a promise (a Redis round
 * trip), and says when Redis booked its start.
 * @example
 * const slot = await fleet.policyOptions.pacer.acquire(origin, { concurrency: 1, interval: 1_000 });
 */
export interface FleetPacer extends Pacer {
  acquire(origin: string, rules: PaceRules, signal?: AbortSignal): Promise<FleetSlot>;
}

/**
 * What every pacer of one fleet shares: the connection, this process's id, the lease book and
 * the local waiters each origin's pub/sub wake-ups go to.
 */
export class PacerCore {
  readonly connection: FleetConnection;
  readonly keys: FleetKeys;
  readonly leases: LeaseBook;
  readonly fleetId: string;
  /** This process's id in Redis (its pacing settings, its lease and waiter ids). */
  readonly processId = randomBytes(8).toString('hex');
  readonly leaseTtl: number;
  readonly unavailableTimeout: number;
  readonly wakeFallback: number;
  /**
   * After a key loss, how long a grant on an origin whose state was lost waits (ms): more than
   * the renewal period (`leaseTtl / 3`), so that every live holder has put its lease back.
   */
  readonly lossGrace: number;
  readonly #wakeUps = new WakeUps();
  /** Redis Cluster only: which slots' and masters' key losses this process can tell. */
  readonly clusterLoss: ClusterLossWatch | undefined;
  #sequence = 0;
  #joined = false;

  constructor(
    connection: FleetConnection,
    keys: FleetKeys,
    leases: LeaseBook,
    settings: { leaseTtl: number; unavailableTimeout: number; wakeFallback: number },
  ) {
    this.connection = connection;
    this.keys = keys;
    this.leases = leases;
    this.fleetId = this.processId;
    this.leaseTtl = settings.leaseTtl;
    this.unavailableTimeout = settings.unavailableTimeout;
    this.wakeFallback = settings.wakeFallback;
    this.lossGrace = Math.ceil(settings.leaseTtl / 2);
    this.clusterLoss = keys.cluster
      ? new ClusterLossWatch(connection, keys, {
          lossGrace: this.lossGrace,
          unavailableTimeout: settings.unavailableTimeout,
        })
      : undefined;
    connection.onMessage((kind, origin) => {
      if (kind === 'p') this.#wakeUps.wakeFirst(origin);
      // Keys were lost: leases and booked starts go back now rather than at the next renewal.
      else if (kind === 'l') void this.leases.recover();
    });
    connection.onReady(() => {
      // On a Redis Cluster the slots' markers are created by their first grants; the masters'
      // witnesses are checked instead (at start: seen; after a master came back: lost?).
      if (this.clusterLoss !== undefined) {
        this.clusterLoss.checkAll();
        return;
      }
      // Sent before any waiter woken by this connection asks again (same tick, same socket).
      void connection.fire(
        JOIN,
        [keys.fleet],
        [this.lossGrace, this.#joined ? 1 : 0, keys.channel],
      );
      this.#joined = true;
    });
    connection.onRecover(() => {
      // Leases first (a restart lost them), then every waiter asks again.
      void this.leases.recover().then(() => this.#wakeUps.wakeAll());
    });
  }

  /** A new request's id in Redis, and its rank among this process's requests. */
  nextId(): { id: string; rank: number } {
    this.#sequence += 1;
    return { id: `${this.processId}:${this.#sequence}`, rank: this.#sequence };
  }

  /** Waits for a wake-up of `origin` (a slot freed), at most `ms`. */
  waitWake(origin: string, ms: number, signal: AbortSignal, rank: number): Promise<void> {
    return this.#wakeUps.wait(origin, ms, signal, rank);
  }
}

/**
 * The fleet's {@link Pacer}: every pacing decision is one atomic Lua script in Redis, so
 * per-origin concurrency, spacing and Retry-After pauses hold for every process together.
 * One per policy (each `fleet.policyOptions` gives a new one): its `close()` gives back its
 * own slots and rejects its own waiters, not the fleet's.
 *
 * Round trips per request: 1 to be granted when the origin is free now (+1 per wait: a wake-up
 * or the booked spacing), 1 to release; renewal adds 1 call per `leaseTtl / 3` for all held
 * leases together.
 */
export class RedisPacer implements FleetPacer {
  readonly [FLEET_BRAND]: string;
  readonly #core: PacerCore;
  readonly #closing = new AbortController();
  readonly #held = new Set<HeldLease>();

  constructor(core: PacerCore) {
    this.#core = core;
    // Every waiting request listens to it (through its own linked signal): no fixed bound.
    setMaxListeners(0, this.#closing.signal);
    this[FLEET_BRAND] = core.fleetId;
  }

  acquire(origin: string, rules: PaceRules, signal?: AbortSignal): Promise<FleetSlot> {
    const closing = this.#closing.signal;
    if (closing.aborted) return Promise.reject(closing.reason as Error);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const linked = signal === undefined ? closing : AbortSignal.any([closing, signal]);
    return this.#acquire(origin, rules, linked);
  }

  pause(origin: string, ms: number): void {
    if (!(ms > 0) || this.#closing.signal.aborted) return;
    const { connection, keys, leaseTtl } = this.#core;
    void connection.fire(PAUSE, [keys.pace(origin)], [Math.ceil(ms), leaseTtl]);
  }

  async close(reason: Error): Promise<void> {
    if (!this.#closing.signal.aborted) this.#closing.abort(reason);
    await Promise.all([...this.#held].map((lease) => this.#release(lease)));
  }

  async #acquire(origin: string, rules: PaceRules, signal: AbortSignal): Promise<FleetSlot> {
    const core = this.#core;
    const { connection, keys } = core;
    const { id, rank } = core.nextId();
    const concurrency = Math.max(1, Math.floor(rules.concurrency));
    const interval = Math.max(0, Math.ceil(rules.interval));
    const scriptKeys = [
      keys.pace(origin),
      keys.queue(origin),
      keys.queueExpiry(origin),
      keys.marker(origin),
    ];
    const args = [id, core.processId, concurrency, interval, core.leaseTtl];
    const tail = [core.lossGrace, keys.channel];
    const giveBackLate = (reply: GrantReply): void => {
      if (reply[0] === 1) void this.#sendRelease(origin, id);
    };
    let queued = false;
    try {
      for (;;) {
        let reply: GrantReply;
        try {
          const loss = core.clusterLoss;
          // 1: a missing loss marker may be one never created (a cluster slot new here).
          const fresh = loss === undefined ? 0 : await loss.fresh(origin, signal);
          reply = await connection.run<GrantReply>(
            GRANT,
            scriptKeys,
            [...args, queued ? 1 : 0, ...tail, fresh],
            core.unavailableTimeout,
            signal,
            giveBackLate,
          );
          loss?.know(origin);
        } catch (error) {
          if (error instanceof BudgetExhausted) {
            // Redis may still run the grant it was sent. Its late reply gives the lease back
            // (giveBackLate), but a connection replaced for its silence never delivers that
            // reply: give back `id` now as well (a release of an id without a lease is a no-op;
            // it goes out on the new connection once Redis answers).
            void this.#sendRelease(origin, id);
            throw new FleetUnavailableError(origin, error.silent, error.cause);
          }
          throw error;
        }
        if (reply[0] === 1) {
          queued = false;
          return await this.#start(origin, id, reply, signal, rules);
        }
        queued = true;
        const wait = reply[1] < 0 ? core.wakeFallback : Math.min(reply[1], core.wakeFallback);
        await core.waitWake(origin, wait, signal, rank);
      }
    } catch (error) {
      if (queued)
        void connection.fire(
          LEAVE,
          [keys.queue(origin), keys.queueExpiry(origin)],
          [id, keys.channel, origin],
        );
      throw error;
    }
  }

  /** Granted: holds the lease, waits out the spacing the grant booked, then the request starts. */
  async #start(
    origin: string,
    id: string,
    [, delay, floor, startedAt]: [1, number, number, number],
    signal: AbortSignal,
    rules: PaceRules,
  ): Promise<FleetSlot> {
    const lease: HeldLease = { id, origin, floor };
    this.#held.add(lease);
    this.#core.leases.hold(lease, startedAt);
    if (delay > 0) {
      try {
        // +1: a timer may fire up to a millisecond early; the booked start must have passed.
        await sleep(delay + 1, undefined, { signal });
      } catch (error) {
        void this.#release(lease);
        throw signal.aborted ? (signal.reason as Error) : error;
      }
    }
    let released = false;
    return {
      startedAt,
      release: (outcome?: PaceOutcome) => {
        if (released) return undefined;
        released = true;
        // Sent before the release on the same connection: the next grant sees the outcome.
        const change =
          outcome === undefined ? undefined : this.#noteOutcome(origin, rules, outcome);
        void this.#release(lease);
        return change;
      },
    };
  }

  /**
   * Takes a request's outcome into the fleet's back-off and latency spacing of `origin`
   * (`PACE_OUTCOME`); resolves with what it changed, `undefined` when Redis did not answer.
   */
  #noteOutcome(
    origin: string,
    rules: PaceRules,
    outcome: PaceOutcome,
  ): Promise<PaceChange | undefined> {
    const { connection, keys, leaseTtl, unavailableTimeout } = this.#core;
    const latency = outcome.latency;
    const args = [
      outcome.kind,
      latency === undefined || !Number.isFinite(latency) ? -1 : Math.max(0, Math.round(latency)),
      Math.max(0, Math.ceil(rules.interval)),
      Math.max(0, Math.floor(rules.maxBackoff ?? 0)),
      Math.max(0, rules.latencyFactor ?? 0),
      leaseTtl,
      BACKOFF_BASE,
      RECOVERY_SUCCESSES,
      LATENCY_WEIGHT,
    ];
    return connection
      .run<OutcomeReply>(
        OUTCOME,
        [keys.pace(origin), keys.backoff(origin)],
        args,
        unavailableTimeout,
        undefined,
      )
      .then(
        ([change, distress, spacing]): PaceChange | undefined =>
          change === 1
            ? { kind: 'backoff', distress, delay: spacing }
            : change === 2
              ? { kind: 'recovered' }
              : undefined,
        () => undefined,
      );
  }

  #release(lease: HeldLease): Promise<void> {
    if (!this.#held.delete(lease)) return Promise.resolve();
    this.#core.leases.drop(lease.id);
    return this.#sendRelease(lease.origin, lease.id);
  }

  #sendRelease(origin: string, id: string): Promise<void> {
    const { connection, keys } = this.#core;
    return connection.fire(
      RELEASE,
      [keys.pace(origin), keys.queue(origin)],
      [id, keys.channel, origin],
    );
  }
}
