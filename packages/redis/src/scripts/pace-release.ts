import { PRELUDE } from './prelude.js';

/**
 * Gives a lease back; wakes the fleet's waiters of the origin when any are queued (one
 * PUBLISH, only then, so an idle origin's release costs nothing more).
 *
 * KEYS: pace, queue. ARGV: id, channel, origin. Reply: 1 if the lease was held.
 */
export const PACE_RELEASE = `${PRELUDE}
owned(KEYS[1], 'hash')
owned(KEYS[2], 'zset')
local removed = redis.call('HDEL', KEYS[1], 'l:' .. ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('PUBLISH', ARGV[2], 'p ' .. ARGV[3])
end
return removed
`;

/**
 * A waiter gives up (aborted, closed, Redis timed out): leaves the queue at once instead of
 * holding its place until it expires, and wakes the others when it was queued.
 *
 * KEYS: queue, queue-expiry. ARGV: id, channel, origin.
 */
export const PACE_LEAVE = `${PRELUDE}
owned(KEYS[1], 'zset')
owned(KEYS[2], 'zset')
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if removed == 1 then
  redis.call('PUBLISH', ARGV[2], 'p ' .. ARGV[3])
end
return removed
`;
