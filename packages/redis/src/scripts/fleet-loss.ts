import { PRELUDE } from './prelude.js';

/**
 * Lua shared by the scripts that must notice a key loss (after PRELUDE). Keys can vanish while
 * the connection stays up (FLUSHALL, eviction, a failover to a replica that had not caught
 * up) or with it (a restart without persistence); an origin whose state is gone looks new, and
 * a request would start beside one still in flight. So the fleet keeps one key of its own,
 * `{prefix}fleet` (hash, no TTL, never evicted under a volatile-* policy): `lost` (Redis ms of
 * the latest loss seen), `until` (the end of the grace that followed it), `ev` (Redis's
 * evicted_keys counter when last looked at). A loss is seen when that key is gone (a flush, a
 * restart) or when the counter grew since (an eviction). After a loss, an origin whose state
 * was created since (`b`, its birth, not before `lost`) grants nothing until `until`: long
 * enough for every live holder to have renewed (and so put back) its lease and the next start
 * it booked; and its next start is at least one interval after the loss.
 *
 * On a Redis Cluster a script may only touch one slot, so each slot has a marker of its own
 * (`FleetKeys.marker`), created by the first grant in that slot. A missing marker is a loss
 * when the asking process has seen that slot's marker before (`fresh` false); otherwise the
 * slot may simply never have been used, and the marker is created without a loss (the
 * eviction counter still finds an eviction).
 */
export const FLEET_LOSS = `
local function evictedKeys()
  return tonumber(string.match(redis.call('INFO', 'stats'), 'evicted_keys:(%d+)')) or 0
end
-- lost, until: the fleet's latest key loss (0, 0: none); and whether this call found it.
-- check: also look at the eviction counter (an origin's state was just created or repaired).
-- fresh: a missing marker may be one never created (a cluster slot new to the asking process).
local function fleetLoss(fleet, check, grace, fresh)
  local existed = redis.call('EXISTS', fleet) == 1
  local sound = owned(fleet, 'hash')
  local f = redis.call('HMGET', fleet, 'lost', 'until', 'ev')
  local lostAt, untilAt, ev = num(f[1]), num(f[2]), num(f[3])
  if fresh and not existed then
    redis.call('HSET', fleet, 'lost', 0, 'until', 0, 'ev', evictedKeys())
    return 0, 0, false
  end
  if not sound or not lostAt or not untilAt or not ev then
    redis.call('HSET', fleet, 'lost', now, 'until', now + grace, 'ev', evictedKeys())
    return now, now + grace, true
  end
  if check then
    local e = evictedKeys()
    if e > ev then
      redis.call('HSET', fleet, 'lost', now, 'until', now + grace, 'ev', e)
      return now, now + grace, true
    elseif e < ev then
      -- The counters were reset (CONFIG RESETSTAT): start counting again.
      redis.call('HSET', fleet, 'ev', e)
    end
  end
  return lostAt, untilAt, false
end
`;

/**
 * A process joins the fleet (each time its connection becomes ready): creates the fleet's key
 * when it is missing. A process that joined before (a reconnection) knows the fleet existed:
 * a missing key is a loss (a restart), with its grace. A new process cannot tell a new fleet
 * from a flushed one; it creates the key without a loss (the next grant of an origin whose
 * state was lost while this process was away still finds it by the eviction counter only).
 *
 * KEYS: fleet. ARGV: grace, joined before ('1' / '0'), channel. Reply: 1 if a loss was seen.
 */
export const FLEET_JOIN = `${PRELUDE}${FLEET_LOSS}
if redis.call('EXISTS', KEYS[1]) == 1 and owned(KEYS[1], 'hash') and num(redis.call('HGET', KEYS[1], 'until')) then
  return 0
end
if ARGV[2] == '1' then
  local _, _, seen = fleetLoss(KEYS[1], false, tonumber(ARGV[1]), false)
  if seen then redis.call('PUBLISH', ARGV[3], 'l *') end
  return 1
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'lost', 0, 'until', 0, 'ev', evictedKeys())
return 0
`;

/**
 * Redis Cluster: whether a master lost its keys, asked before this process's first grant in a
 * slot it has not used (whose marker may never have been created) and when a master comes back.
 * KEYS[1] is the master's witness (`FleetKeys.witness`, no TTL, in a slot it serves).
 *
 * KEYS: witness. ARGV: seen before ('1' / '0'), channel. Reply: 1 the witness is there; 0 it
 * was gone though this process had seen it (the master lost its keys: recreated, every holder
 * told to put its leases back); 2 it was not there and this process had not seen it (created).
 */
export const NODE_CHECK = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 1 and owned(KEYS[1], 'hash') then return 1 end
redis.call('HSET', KEYS[1], 'b', now)
if ARGV[1] == '1' then
  redis.call('PUBLISH', ARGV[2], 'l *')
  return 0
end
return 2
`;
