import { LogLevel, Logger } from '@crawlee/core';
import type { Log } from '@crawlee/core';
import type { BoundedKeys } from './bounded-keys.js';

/**
 * A Crawlee `Logger` in front of a crawler's own that drops Crawlee's ERROR line for a request
 * that failed for good (`Request failed and reached maximum retries. …`, with its `uniqueKey`
 * as data) when the adapter refused it (a disallowed redirect hop): it was logged as a skip
 * already. Every other line goes to the wrapped logger's `log` unchanged (Crawlee's `Log` calls
 * only `log`). The keys are bounded: Crawlee skips the logger when its level hides errors.
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
