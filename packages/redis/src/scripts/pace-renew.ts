import { PRELUDE } from './prelude.js';

/**
 * Renews the leases of requests still running (pushing their expiry `leaseTtl` ahead). A lease
 * that is gone — Redis lost the origin's keys (flush, eviction, restart) — is created again,
 * and the next start it booked is put back, so concurrency and spacing hold across the loss
 * (a grant waits out the loss's grace for this to happen, see FLEET_LOSS).
 *
 * KEYS: pace1, pace2, … ARGV: leaseTtl, id1, floor1, id2, floor2, …
 */
export const PACE_RENEW = `${PRELUDE}
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  local id, floor = ARGV[2 * i], tonumber(ARGV[2 * i + 1])
  owned(KEYS[i], 'hash')
  redis.call('HSET', KEYS[i], 'l:' .. id, now + ttl)
  local nxt = num(redis.call('HGET', KEYS[i], 'next')) or 0
  if floor > nxt then
    redis.call('HSET', KEYS[i], 'next', floor)
  end
  extend(KEYS[i], math.max(floor - now, 0) + ttl)
end
return #KEYS
`;

/**
 * After an outage: puts back the next start of origins this process paced recently, in case
 * Redis lost them (a restart without persistence), before any waiter asks again.
 *
 * KEYS: pace1, pace2, … ARGV: leaseTtl, floor1, floor2, …
 */
export const PACE_RESTORE = `${PRELUDE}
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  local floor = tonumber(ARGV[i + 1])
  if floor > now then
    owned(KEYS[i], 'hash')
    local nxt = num(redis.call('HGET', KEYS[i], 'next')) or 0
    if floor > nxt then
      redis.call('HSET', KEYS[i], 'next', floor)
    end
    extend(KEYS[i], floor - now + ttl)
  end
end
return #KEYS
`;
