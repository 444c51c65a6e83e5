import { PRELUDE } from './prelude.js';

/**
 * Renews the leases of requests still running (pushing their expiry `leaseTtl` ahead). A lease
 * that is gone — Redis restarted and lost every key — is created again, and the next start it
 * booked is put back, so concurrency and spacing hold across the loss.
 *
 * KEYS: leases1, pace1, leases2, pace2, … ARGV: leaseTtl, id1, floor1, id2, floor2, …
 */
export const PACE_RENEW = `${PRELUDE}
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS, 2 do
  local id, floor = ARGV[i + 1], tonumber(ARGV[i + 2])
  owned(KEYS[i], 'zset')
  owned(KEYS[i + 1], 'hash')
  redis.call('ZADD', KEYS[i], now + ttl, id)
  extend(KEYS[i], ttl)
  local nxt = num(redis.call('HGET', KEYS[i + 1], 'next')) or 0
  if floor > nxt then
    redis.call('HSET', KEYS[i + 1], 'next', floor)
  end
  extend(KEYS[i + 1], math.max(floor - now, 0) + ttl)
end
return #KEYS / 2
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
