import { LogLevel, Logger } from '@crawlee/core';
import type { Log } from '@crawlee/core';
import { BoundedKeys } from './reported-skips.js';

/**
 * The requests whose failure the adapter has already logged as a skip (a redirect hop refused
 * by robots.txt), by unique key. Bounded: Crawlee does not call the logger at all when its
 * level hides errors, so a key may never be consumed.
 * @example
 * const refusals = new Refusals(10_000);
 * refusals.add(request.uniqueKey); // when the adapter logs the skip
 * refusals.consume(data.uniqueKey); // true once: Crawlee's failure line for it is dropped
 */
export class Refusals extends BoundedKeys {
  /** Adds `uniqueKey` as the newest (again, if it was there). */
  override add(uniqueKey: string): this {
    this.delete(uniqueKey);
    return super.add(uniqueKey);
  }

  /** `true` (once) when `uniqueKey` was added: the caller drops the line it is about. */
  consume(uniqueKey: unknown): boolean {
    return typeof uniqueKey === 'string' && this.delete(uniqueKey);
  }
}

/**
 * A Crawlee `Logger` in front of a crawler's own. Crawlee logs a request that failed for good
 * at ERROR (`Request failed and reached maximum retries. …`, with the request's `id`, `url`,
 * `method` and `uniqueKey` as data); for a request the adapter refused (a redirect hop that
 * robots.txt disallows) that line is dropped, because the adapter has logged it as a skip
 * already. Every other line goes to the wrapped logger unchanged (its `line` events included).
 * @example
 * crawler.log.setOptions({ logger: new RefusalLogger(crawler.log.getOptions().logger, refusals) });
 */
export class RefusalLogger extends Logger {
  readonly #inner: Logger;
  readonly #refusals: Refusals;

  constructor(inner: Logger, refusals: Refusals) {
    super({});
    this.#inner = inner;
    this.#refusals = refusals;
  }

  /** Whether this logger drops the failure lines of `refusals`. */
  serves(refusals: Refusals): boolean {
    return this.#refusals === refusals;
  }

  override log(level: LogLevel, message: string, ...args: unknown[]): void {
    const data = args[0] as { readonly uniqueKey?: unknown } | undefined;
    if (level === LogLevel.ERROR && this.#refusals.consume(data?.uniqueKey)) return;
    this.#inner.log(level, message, ...args);
  }

  override _log(
    level: LogLevel,
    message: string,
    data?: unknown,
    exception?: unknown,
    opts?: Record<string, unknown>,
  ): void {
    this.#inner._log(level, message, data, exception, opts);
  }
}

/**
 * Puts a {@link RefusalLogger} in front of the logger of `log` (a crawler's own `crawler.log`,
 * public in Crawlee 3), once.
 * @example
 * quietRefusals(context.crawler.log, refusals);
 */
export function quietRefusals(log: Log, refusals: Refusals): void {
  const { logger } = log.getOptions();
  if (logger instanceof RefusalLogger && logger.serves(refusals)) return;
  log.setOptions({ logger: new RefusalLogger(logger, refusals) });
}
