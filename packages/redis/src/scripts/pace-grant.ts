import { PRELUDE } from './prelude.js';

/**
 * One pacing decision, atomic: may request `id` start on this origin?
 *
 * KEYS: pace, leases, queue, queue-expiry. ARGV: id, process id, concurrency, interval, leaseTtl,
 * queued (1 when this request already waited in the queue).
 * Reply `{1, delay, floor, start}`: granted; the request starts in `delay` ms (at most one
 * interval ahead, the spacing booked here) at `start` (Redis ms), and `floor` is the next
 * start it booked (kept by renewal).
 * Reply `{0, wait}`: not now; the request keeps its place in the queue and asks again in
 * `wait` ms, or on a wake-up when `wait` is -1 (requests ahead of it take the free slots).
 *
 * The origin's settings are the strictest of every process that asked within `leaseTtl`
 * (smallest concurrency, longest interval). Expired leases (a dead process's) and waiters
 * that stopped asking are dropped here. An id that already holds a lease is asking again
 * after a lost reply: its old booking is dropped and it is served as a new request.
 * A queued request that finds the origin's pace key gone (a queued request keeps it alive, so
 * Redis lost it: a restart without persistence, or an outage longer than `leaseTtl`) cannot know
 * when the last start was: it books its start one interval from now (fails closed), unless a
 * process that paced the origin recently has put the next start back first.
 * A key of the wrong type, or a field that is not a number, is repaired the same way: deleted
 * or reset, and the origin treated as lost (one interval from now), never a script error.
 */
export const PACE_GRANT = `${PRELUDE}
local pace, leases, queue, qexp = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, proc = ARGV[1], ARGV[2]
local conc, ival, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local intact = owned(pace, 'hash')
intact = owned(leases, 'zset') and intact
owned(queue, 'zset')
owned(qexp, 'zset')
local lost = not intact or (ARGV[6] == '1' and redis.call('EXISTS', pace) == 0)
redis.call('ZREM', leases, id)
redis.call('ZREMRANGEBYSCORE', leases, '-inf', now)
local gone = redis.call('ZRANGEBYSCORE', qexp, '-inf', now, 'LIMIT', 0, 100)
for _, w in ipairs(gone) do
  redis.call('ZREM', queue, w)
  redis.call('ZREM', qexp, w)
end
redis.call('HSET', pace, 'r:' .. proc, conc .. ' ' .. ival .. ' ' .. (now + ttl))
local fields = redis.call('HGETALL', pace)
local nxt, pause = 0, 0
for i = 1, #fields, 2 do
  local k, v = fields[i], fields[i + 1]
  if k == 'next' then
    nxt = num(v)
    if not nxt then
      nxt, lost = 0, true
    end
  elseif k == 'pause' then
    pause = num(v)
    if not pause then
      pause, lost = 0, true
    end
  elseif string.sub(k, 1, 2) == 'r:' then
    local c, iv, exp = string.match(v, '^(%d+) (%d+) (%d+)$')
    if c and tonumber(exp) > now then
      conc = math.min(conc, tonumber(c))
      ival = math.max(ival, tonumber(iv))
    else
      redis.call('HDEL', pace, k)
    end
  end
end
if lost then
  nxt = math.max(nxt, now + ival)
end
local free = conc - redis.call('ZCARD', leases)
local rank = redis.call('ZRANK', queue, id)
local ahead = rank or redis.call('ZCARD', queue)
local start = math.max(now, nxt)
local wait = nil
if pause > now then
  wait = pause - now
elseif free <= 0 then
  local first = redis.call('ZRANGE', leases, 0, 0, 'WITHSCORES')
  wait = math.max(1, (num(first[2]) or (now + ttl)) - now + 1)
elseif ahead >= free then
  wait = -1
elseif start - now > ival then
  wait = start - now - ival
end
if wait == nil then
  if rank then
    redis.call('ZREM', queue, id)
    redis.call('ZREM', qexp, id)
  end
  redis.call('ZADD', leases, now + ttl, id)
  redis.call('HSET', pace, 'next', start + ival)
  extend(leases, ttl)
  extend(pace, start + ival - now + ttl)
  return {1, start - now, start + ival, start}
end
if not rank then
  if not num(redis.call('HGET', pace, 'seq')) then redis.call('HSET', pace, 'seq', 0) end
  redis.call('ZADD', queue, redis.call('HINCRBY', pace, 'seq', 1), id)
end
redis.call('ZADD', qexp, now + ttl, id)
extend(queue, ttl)
extend(qexp, ttl)
extend(pace, ttl)
return {0, wait}
`;
