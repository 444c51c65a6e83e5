import { FLEET_LOSS } from './fleet-loss.js';
import { PRELUDE } from './prelude.js';

/**
 * One pacing decision, atomic: may request `id` start on this origin?
 *
 * KEYS: pace, queue, queue-expiry, fleet. ARGV: id, process id, concurrency, interval, leaseTtl,
 * queued (1 when this request already waited in the queue), grace (after a key loss), channel,
 * fresh (1: a missing loss marker may be one never created, see FLEET_LOSS).
 * Reply `{1, delay, floor, start}`: granted; the request starts in `delay` ms (at most one
 * interval ahead, the spacing booked here) at `start` (Redis ms), and `floor` is the next
 * start it booked (kept by renewal).
 * Reply `{0, wait}`: not now; the request keeps its place in the queue and asks again in
 * `wait` ms, or on a wake-up when `wait` is -1 (requests ahead of it take the free slots).
 *
 * The pace hash holds everything politeness depends on, so that it is lost whole or not at
 * all: `next` (the next start), `pause` (Retry-After), `l:<id>` (each lease's expiry),
 * `r:<process>` (each process's settings), `b` (when the hash was created), `seq` (queue
 * tickets). The queue only orders waiters: losing it costs fairness, never politeness.
 *
 * The origin's settings are the strictest of every process that asked within `leaseTtl`
 * (smallest concurrency, longest interval). Expired leases (a dead process's) and waiters
 * that stopped asking are dropped here. An id that already holds a lease is asking again
 * after a lost reply: its old booking is dropped and it is served as a new request.
 * Key loss (see FLEET_LOSS): an origin whose state was created since the fleet's latest loss
 * grants nothing until that loss's grace ends and books its next start at least one interval
 * after the loss. A queued request that finds the pace key gone, a key of the wrong type, or a
 * field that is not a number is treated the same way at its own level: the state is repaired
 * and the next start booked one interval from now (fails closed), never a script error.
 */
export const PACE_GRANT = `${PRELUDE}${FLEET_LOSS}
local pace, queue, qexp, fleet = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, proc = ARGV[1], ARGV[2]
local conc, ival, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local grace, channel, fresh = tonumber(ARGV[7]), ARGV[8], ARGV[9] == '1'
local lost = not owned(pace, 'hash')
owned(queue, 'zset')
owned(qexp, 'zset')
lost = lost or (ARGV[6] == '1' and redis.call('EXISTS', pace) == 0)
local born = num(redis.call('HGET', pace, 'b'))
local lostAt, graceUntil, seen = fleetLoss(fleet, born == nil, grace, fresh)
-- Every holder puts its lease back at once (it would at its next renewal anyway).
if seen then redis.call('PUBLISH', channel, 'l *') end
if born == nil then
  born = now
  redis.call('HSET', pace, 'b', now)
end
local young = lostAt > 0 and born >= lostAt
redis.call('HDEL', pace, 'l:' .. id)
local gone = redis.call('ZRANGEBYSCORE', qexp, '-inf', now, 'LIMIT', 0, 100)
for _, w in ipairs(gone) do
  redis.call('ZREM', queue, w)
  redis.call('ZREM', qexp, w)
end
redis.call('HSET', pace, 'r:' .. proc, conc .. ' ' .. ival .. ' ' .. (now + ttl))
local fields = redis.call('HGETALL', pace)
local nxt, pause, held, earliest = 0, 0, 0, nil
for i = 1, #fields, 2 do
  local k, v = fields[i], fields[i + 1]
  local kind = string.sub(k, 1, 2)
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
  elseif kind == 'l:' then
    local exp = num(v)
    if exp and exp > now then
      held = held + 1
      if not earliest or exp < earliest then earliest = exp end
    else
      redis.call('HDEL', pace, k)
      if not exp then lost = true end
    end
  elseif kind == 'r:' then
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
if young then
  nxt = math.max(nxt, lostAt + ival)
end
local free = conc - held
local rank = redis.call('ZRANK', queue, id)
local ahead = rank or redis.call('ZCARD', queue)
local start = math.max(now, nxt)
local wait = nil
if pause > now then
  wait = pause - now
elseif young and graceUntil > now then
  wait = graceUntil - now
elseif free <= 0 then
  wait = math.max(1, earliest - now + 1)
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
  redis.call('HSET', pace, 'l:' .. id, now + ttl, 'next', start + ival)
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
