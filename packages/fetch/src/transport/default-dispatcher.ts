import { Agent, Dispatcher, getGlobalDispatcher } from 'undici';

/** Made on first use when the global dispatcher cannot carry this package's interceptors. */
let sharedAgent: Agent | undefined;

/**
 * The dispatcher a policy uses when its options name none: undici's global dispatcher when it is
 * one of this undici's (so `setGlobalDispatcher(new ProxyAgent(…))` is honoured), else one Agent
 * shared by every such policy in the process. Not always the global one: once a program touches
 * the global `fetch`, Node 20 and 22 register their bundled undici 6 Agent there, which refuses
 * the undici 7 handler API the tap and the interceptor are written against ("invalid onError
 * method"). A dispatcher given in the options is used as given (it must be an undici 7 one).
 * @example
 * const dispatcher = defaultDispatcher(); // the global one, or the shared Agent
 */
export function defaultDispatcher(): Dispatcher {
  const global = getGlobalDispatcher();
  if (global instanceof Dispatcher) return global;
  sharedAgent ??= new Agent();
  return sharedAgent;
}
