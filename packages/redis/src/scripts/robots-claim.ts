/**
 * Single flight of a robots.txt fetch across the fleet.
 *
 * KEYS: claim, robots. ARGV: claim id, ttl, generation this process last read ('' unknown:
 * then any stored entry counts as new).
 * Reply `{1}`: this process fetches. `{2}`: another process stored a new entry since this one
 * read (read it). `{0, ttl left}`: another process is fetching now.
 * A claim key that is not a claim (wrong type, foreign value) is deleted; a claim without a TTL
 * gets one (`leaseTtl`): a wait for a claim always ends.
 */
export const ROBOTS_CLAIM = `
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'none' and (kind ~= 'string' or not string.match(redis.call('GET', KEYS[1]), '^%x+$')) then
  -- Not a claim of this fleet's (a stray or foreign value): nobody is fetching under it.
  redis.call('DEL', KEYS[1])
end
if redis.call('TYPE', KEYS[2])['ok'] ~= 'none' and redis.call('TYPE', KEYS[2])['ok'] ~= 'hash' then
  redis.call('DEL', KEYS[2])
end
local g = redis.call('HGET', KEYS[2], 'g')
if ARGV[3] ~= '' then
  if (g or '0') ~= ARGV[3] then return {2} end
elseif g then
  -- This process could not read the entry (its read timed out): read it again, do not refetch.
  return {2}
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1} end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  -- A claim without a TTL (a stray SET, a PERSIST) would be waited on forever: give it one.
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  left = tonumber(ARGV[2])
end
return {0, left}
`;

/**
 * Ends a claim (only the holder's own), and wakes the processes waiting for it.
 *
 * KEYS: claim. ARGV: claim id, channel, origin.
 */
export const ROBOTS_CLAIM_RELEASE = `
if redis.call('TYPE', KEYS[1])['ok'] == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], 'r ' .. ARGV[3])
  return 1
end
return 0
`;

/**
 * Keeps claims of fetches still running (a slow robots.txt) from expiring.
 *
 * KEYS: claim1, claim2, … ARGV: ttl, id1, id2, …
 */
export const ROBOTS_CLAIM_RENEW = `
local renewed = 0
for i = 1, #KEYS do
  if redis.call('TYPE', KEYS[i])['ok'] == 'string' and redis.call('GET', KEYS[i]) == ARGV[i + 1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
    renewed = renewed + 1
  end
end
return renewed
`;

/**
 * Stores an entry (see robots-entry.ts: metadata JSON in `m`, the body's raw bytes in `b`),
 * counts a new generation, and wakes the processes waiting for it.
 *
 * KEYS: robots. ARGV: metadata, body, retention ms, channel, origin. Reply: the new generation.
 */
export const ROBOTS_SET = `
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'none' and (kind ~= 'hash' or not tonumber(redis.call('HGET', KEYS[1], 'g') or '0')) then
  redis.call('DEL', KEYS[1])
end
-- 'e': the entry as base64 inside JSON, as versions before raw bodies wrote it.
redis.call('HDEL', KEYS[1], 'e')
redis.call('HSET', KEYS[1], 'm', ARGV[1], 'b', ARGV[2])
local g = redis.call('HINCRBY', KEYS[1], 'g', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[4], 's ' .. ARGV[5])
return g
`;
