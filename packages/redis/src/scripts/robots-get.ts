/**
 * Reads an origin's robots.txt entry, refusing to send one over the size limits: a foreign or
 * tampered value of any size stays in Redis (its size is read with HSTRLEN, not its bytes).
 *
 * KEYS: robots. ARGV: most metadata bytes, most body bytes.
 * Reply `{generation, metadata, body}`; `{generation}` (or `{}` when there is no generation)
 * when there is no entry to read: no key, a key that is not a hash, an entry over a limit, or
 * one in the format of an older version (field `e`, which the next write replaces).
 */
export const ROBOTS_GET = `
if redis.call('TYPE', KEYS[1])['ok'] ~= 'hash' then return {} end
local g = redis.call('HGET', KEYS[1], 'g')
if not g then return {} end
if redis.call('HEXISTS', KEYS[1], 'e') == 1
  or redis.call('HSTRLEN', KEYS[1], 'm') > tonumber(ARGV[1])
  or redis.call('HSTRLEN', KEYS[1], 'b') > tonumber(ARGV[2]) then
  return {g}
end
local m = redis.call('HGET', KEYS[1], 'm')
if not m then return {g} end
return {g, m, redis.call('HGET', KEYS[1], 'b') or ''}
`;
