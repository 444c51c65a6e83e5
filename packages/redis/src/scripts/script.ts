import { createHash } from 'node:crypto';

/**
 * A Lua script and its SHA1, run with EVALSHA; the body is sent (EVAL) only when Redis does
 * not know it (first use, or a restart emptied its script cache).
 * @example
 * const grant = luaScript(PACE_GRANT);
 */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}
