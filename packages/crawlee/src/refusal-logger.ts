import { LogLevel, Logger } from '@crawlee/core';
import type { Log } from '@crawlee/core';
import type { BoundedKeys } from './bounded-keys.js';

/**
 * A Crawlee `Logger` in front of a crawler's own. Crawlee logs a request that failed for good
 * at ERROR (`Request failed and reached maximum retries. …`, with the request's `id`, `url`,
 * `method` and `uniqueKey` as data); for a request the adapter refused (a redirect hop that
 * robots.txt disallows) that line is dropped, because the adapter has logged it as a skip
 * already. Every other line goes to the wrapped logger's `log` unchanged (its `line` events
 * included): Crawlee's `Log` calls only `log`, which this one overrides whole.
 * The keys are bounded: Crawlee does not call the logger at all when its level hides errors.
 * @example
 * crawler.log.setOptions({ logger: new RefusalLogger(crawler.log.getOptions().logger, refusals) });
 */
export class RefusalLogger extends Logger {
  readonly #inner: Logger;
  readonly #refusals: BoundedKeys;

  constructor(inner: Logger, refusals: BoundedKeys) {
    super({});
    this.#inner = inner;
    this.#refusals = refusals;
  }

  /** Whether this logger drops the failure lines of `refusals`. */
  serves(refusals: BoundedKeys): boolean {
    return this.#refusals === refusals;
  }

  override log(level: LogLevel, message: string, ...args: unknown[]): void {
    // Dropped once per refusal: the key is consumed.
    const key = (args[0] as { readonly uniqueKey?: unknown } | undefined)?.uniqueKey;
    if (level === LogLevel.ERROR && typeof key === 'string' && this.#refusals.delete(key)) return;
    this.#inner.log(level, message, ...args);
  }
}

/**
 * Puts a {@link RefusalLogger} in front of the logger of `log` (a crawler's own `crawler.log`,
 * public in Crawlee 3), once.
 * @example
 * quietRefusals(context.crawler.log, refusals);
 */
export function quietRefusals(log: Log, refusals: BoundedKeys): void {
  const { logger } = log.getOptions();
  if (logger instanceof RefusalLogger && logger.serves(refusals)) return;
  log.setOptions({ logger: new RefusalLogger(logger, refusals) });
}
