import { PRELUDE } from './prelude.js';

/**
 * A request's outcome, fleet-wide: the back-off and latency spacing every process of the fleet
 * paces an origin by (the steps of `backoff.ts` in @polite-crawler/fetch, on Redis's clock).
 * Kept apart from the grant: the spacing reaches it as two pseudo-process settings in the pace
 * hash (`r:~backoff`, `r:~latency`: "no concurrency limit, this interval, until"), which the
 * grant already folds in as it folds in every process's (the longest interval wins).
 *
 * KEYS: pace, backoff. ARGV: kind (`success` | `distress` | `neutral`), latency ms (-1: none),
 * interval, maxBackoff, latencyFactor, leaseTtl, base, recovery successes, latency weight.
 * Reply `{change, distress, spacing}`: change 0 nothing to report, 1 backed off, 2 recovered.
 *
 * The back-off hash (distress in a row, spacing, successes since it grew, smoothed latency)
 * lives as long as the spacing plus ten lease TTLs after the last outcome: an origin idle
 * longer starts afresh.
 */
export const PACE_OUTCOME = `${PRELUDE}
local pace, bkey = KEYS[1], KEYS[2]
local kind, latency = ARGV[1], tonumber(ARGV[2])
local ival, maxb, factor = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local ttl, base, recovery, weight = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
-- Keys of the wrong shape are repaired (deleted), never a raw WRONGTYPE for the caller.
owned(pace, 'hash')
owned(bkey, 'hash')
local d = num(redis.call('HGET', bkey, 'd')) or 0
local sp = num(redis.call('HGET', bkey, 'sp')) or 0
local ok = num(redis.call('HGET', bkey, 'ok')) or 0
local lat = num(redis.call('HGET', bkey, 'lat'))
if latency >= 0 then
  if lat then lat = lat + weight * (latency - lat) else lat = latency end
  redis.call('HSET', bkey, 'lat', tostring(lat))
end
local change = 0
if maxb > 0 and kind ~= 'neutral' then
  local b = math.max(ival, base)
  if kind == 'distress' then
    d = d + 1
    sp = math.min(maxb, math.max(2 * b, 2 * sp))
    ok = 0
    change = 1
  elseif sp > 0 then
    local halved = math.floor(sp / 2)
    ok = ok + 1
    d = 0
    if halved <= b or ok >= recovery then
      sp, ok = 0, 0
      change = 2
    else
      sp = halved
    end
  else
    d = 0
  end
  redis.call('HSET', bkey, 'd', d, 'sp', sp, 'ok', ok)
end
local big = 1000000000
if sp > 0 then
  redis.call('HSET', pace, 'r:~backoff', big .. ' ' .. sp .. ' ' .. (now + sp + ttl))
else
  redis.call('HDEL', pace, 'r:~backoff')
end
if lat and factor > 0 then
  redis.call('HSET', pace, 'r:~latency', big .. ' ' .. math.ceil(factor * lat) .. ' ' .. (now + ttl))
end
if change == 1 then
  local nxt = num(redis.call('HGET', pace, 'next')) or 0
  if now + sp > nxt then redis.call('HSET', pace, 'next', now + sp) end
end
extend(pace, sp + ttl)
extend(bkey, sp + 10 * ttl)
return {change, d, sp}
`;
