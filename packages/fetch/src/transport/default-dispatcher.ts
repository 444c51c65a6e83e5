import { getGlobalDispatcher } from 'undici';
import type { Dispatcher } from 'undici';

/**
 * The dispatcher a policy uses when its options name none: undici's global dispatcher, so that
 * `setGlobalDispatcher(new ProxyAgent(…))` is honoured. undici 8 keeps it under a key of its own
 * handler API: what it holds is undici 8's Agent, or the Agent Node 24 (undici 7) or Node 26
 * (undici 8) registered there for the built-in `fetch` — all take the handlers this package
 * sends. Node 22's bundled undici 6 registers its Agent under the older key only, which undici 8
 * never hands out.
 * @example
 * const dispatcher = defaultDispatcher(); // the global one
 */
export function defaultDispatcher(): Dispatcher {
  return getGlobalDispatcher();
}
