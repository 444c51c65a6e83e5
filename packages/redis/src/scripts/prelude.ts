/**
 * Lua shared by the scripts: Redis's own clock (every process sees the same time, whatever
 * its host's clock says) and a TTL that only ever grows. Scripts read `TIME` before writing,
 * which Redis >= 5 replicates as effects.
 */
export const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function extend(key, ms)
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end
`;
