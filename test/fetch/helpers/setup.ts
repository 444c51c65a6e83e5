import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { undici } from './undici.js';
import type { Undici } from './undici.js';
import { createPoliteFetch, createRobotsPolicy } from '@polite-crawler/fetch';
import type {
  PoliteFetch,
  PoliteFetchOptions,
  RobotsPolicy,
  RobotsPolicyOptions,
} from '@polite-crawler/fetch';
import { FakeClock } from './fake-clock.js';

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
export function localAgent(options: Undici.Agent.Options = {}): Undici.Agent {
  return new undici.Agent({
    ...options,
    connect: { lookup: localLookup, ...(options.connect as object) },
  });
}

export interface Rig {
  readonly clock: FakeClock;
  readonly dispatcher: Undici.Dispatcher;
  readonly fetch: PoliteFetch;
  readonly policy: RobotsPolicy;
  close(): Promise<void>;
}

/**
 * A polite fetch on a fake clock and its own local Agent. Tests' defaults: no spacing, a
 * few requests per origin at once; everything else as shipped.
 */
export function rig(
  options: Partial<RobotsPolicyOptions> & Omit<PoliteFetchOptions, 'userAgent' | 'policy'> = {},
): Rig {
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
  agent: Undici.Agent;
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
