import { PRELUDE } from './prelude.js';

/**
 * Retry-After: no slot of the origin starts before `now + ms` (the longest pause wins).
 *
 * KEYS: pace. ARGV: ms, leaseTtl. Reply: paused until (Redis ms).
 */
export const PACE_PAUSE = `${PRELUDE}
local untilAt = now + tonumber(ARGV[1])
owned(KEYS[1], 'hash')
local current = num(redis.call('HGET', KEYS[1], 'pause')) or 0
if untilAt > current then
  redis.call('HSET', KEYS[1], 'pause', untilAt)
else
  untilAt = current
end
extend(KEYS[1], untilAt - now + tonumber(ARGV[2]))
return untilAt
`;
