import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import { afterEach } from 'vitest';
import { createPoliteFetch, createRobotsPolicy } from '@polite-crawler/fetch';
import type {
  PoliteFetch,
  PoliteFetchOptions,
  RobotsPolicy,
  RobotsPolicyOptions,
} from '@polite-crawler/fetch';
import { FakeClock } from './fake-clock.js';
import { startServer } from '../../helpers/recording-server.js';
import type { Handler, RecordingServer } from '../../helpers/recording-server.js';

export const USER_AGENT = 'ExampleBot/1.0 (+https://example.com/bot)';

/**
 * Name resolution answered on the machine: `*.localhost` is 127.0.0.1 and `*.invalid` fails
 * with ENOTFOUND as every resolver must answer for it (RFC 6761), so no test sends a DNS
 * query anywhere.
 */
export const localLookup: LookupFunction = (hostname, options, callback) => {
  if (hostname.endsWith('.invalid')) {
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
      code: 'ENOTFOUND',
      hostname,
    });
    callback(error, '', 4);
    return;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all === true) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
      ]);
    } else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback);
};

/** A fresh undici Agent that resolves names locally (closed by the test). */
export function localAgent(options: Agent.Options = {}): Agent {
  return new Agent({
    ...options,
    connect: { lookup: localLookup, ...(options.connect as object) },
  });
}

export interface Rig {
  readonly clock: FakeClock;
  readonly dispatcher: Dispatcher;
  readonly fetch: PoliteFetch;
  readonly policy: RobotsPolicy;
  close(): Promise<void>;
}

/**
 * A polite fetch on a fake clock and its own local Agent. Tests' defaults: no spacing, a
 * few requests per origin at once; everything else as shipped.
 */
export type RigOptions = Partial<RobotsPolicyOptions> &
  Omit<PoliteFetchOptions, 'userAgent' | 'policy'>;

export function rig(options: RigOptions = {}): Rig {
  const clock = (options.clock as FakeClock | undefined) ?? new FakeClock();
  const agent = localAgent();
  const fetch = createPoliteFetch({
    userAgent: USER_AGENT,
    minInterval: 0,
    concurrency: 4,
    dispatcher: agent,
    clock,
    ...options,
  });
  return {
    clock,
    dispatcher: agent,
    fetch,
    policy: fetch.policy,
    close: async () => {
      await fetch.close();
      await agent.close();
    },
  };
}

/** A bare policy on a fake clock. */
export function policyRig(options: Partial<RobotsPolicyOptions> = {}): {
  clock: FakeClock;
  policy: RobotsPolicy;
  agent: Agent;
} {
  const clock = (options.clock as FakeClock | undefined) ?? new FakeClock();
  const agent = localAgent();
  const policy = createRobotsPolicy({
    userAgent: USER_AGENT,
    minInterval: 0,
    dispatcher: agent,
    clock,
    ...options,
  });
  return { clock, policy, agent };
}

/** What {@link useRigs} gives a test file: servers and polite fetches closed after each test. */
export interface Rigs {
  /** A recording server ({@link startServer}; arrival times on `clock` when given). */
  server(handler: Handler, clock?: FakeClock): Promise<RecordingServer>;
  /** A polite fetch on a fake clock ({@link rig}). */
  polite(options?: RigOptions): Rig;
  /** Runs `steps` after the test; steps run last-registered first. */
  defer(...steps: (() => unknown)[]): void;
}

/**
 * Registers an `afterEach` that closes, in reverse order, every server, rig and deferred step
 * the test created. Call once at the top of a test file.
 */
export function useRigs(): Rigs {
  let cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step();
    cleanup = [];
  });
  return {
    server: async (handler, clock) => {
      const s = await startServer(handler, clock === undefined ? {} : { now: () => clock.now() });
      cleanup.push(() => s.close());
      return s;
    },
    polite: (options = {}) => {
      const r = rig(options);
      cleanup.push(() => r.close());
      return r;
    },
    defer: (...steps) => {
      cleanup.push(...steps);
    },
  };
}
