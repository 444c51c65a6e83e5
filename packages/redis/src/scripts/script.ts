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

const ALL = new Set<LuaScript>();

export function luaScript(source: string): LuaScript {
  const script = { source, sha: createHash('sha1').update(source).digest('hex') };
  ALL.add(script);
  return script;
}

/**
 * Every script of the package, loaded into Redis (`SCRIPT LOAD`) ahead of any other command
 * each time a connection becomes ready: an EVALSHA that fell back to EVAL would run after the
 * commands sent behind it (a Retry-After pause after the release that must follow it).
 */
export function allScripts(): readonly LuaScript[] {
  return [...ALL];
}
