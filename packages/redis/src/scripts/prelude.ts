/**
 * Lua shared by the scripts: Redis's own clock (every process sees the same time, whatever
 * its host's clock says), a TTL that only ever grows, and the repair of keys of the wrong
 * shape. Scripts read `TIME` before writing,
 * which Redis >= 5 replicates as effects.
 */
export const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function extend(key, ms)
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end
-- A key of the wrong type (a stray SET, a foreign tool) is deleted: the fleet owns its keys, and
-- a raw WRONGTYPE would reach the caller. Returns false when it had to (the state is lost).
local function owned(key, kind)
  local t = redis.call('TYPE', key)['ok']
  if t == 'none' or t == kind then return true end
  redis.call('DEL', key)
  return false
end
-- A number field, or nil when missing or not a number (a foreign value).
local function num(v)
  if v == nil or v == false then return nil end
  return tonumber(v)
end
`;
