import { InvalidArgumentError } from 'commander';
import { createRedisFleet } from '@polite-crawler/redis';
import type { RedisFleet } from '@polite-crawler/redis';

/**
 * A commander argument parser for `--redis <url>`: a `redis://` or `rediss://` URL that parses,
 * else a usage error. The URL itself is not repeated in the message: it may hold a password.
 *
 * @example
 * ```ts
 * command.option('--redis <url>', 'share politeness through this Redis', redisUrlOption);
 * ```
 */
export function redisUrlOption(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (url === undefined || !/^rediss?:$/.test(url.protocol) || url.hostname === '') {
    throw new InvalidArgumentError('expected a redis:// or rediss:// URL with a host');
  }
  return value.trim();
}

/** How the crawl reports the fleet's state changes (one line each, on stderr). */
export interface FleetNotices {
  write(line: string): void;
}

/**
 * Joins the crawl to its fleet: the crawls sharing the Redis at `url` share one robots.txt
 * fetch and one pacing budget per origin. Resolves even when Redis is down (requests then
 * wait for it up to `timeoutMs`, and fail unsent after that: politeness fails closed).
 *
 * @example
 * ```ts
 * const fleet = await openCrawlFleet('redis://127.0.0.1:6379', 30_000, { write: (l) => process.stderr.write(l) });
 * try { await crawlSite({ ...options, fleet: fleet.policyOptions }); } finally { await fleet.close(); }
 * ```
 */
export function openCrawlFleet(
  url: string,
  timeoutMs: number,
  notices: FleetNotices,
): Promise<RedisFleet> {
  let unavailable = false;
  return createRedisFleet({
    url,
    unavailableTimeout: timeoutMs,
    onEvent: (event) => {
      if (event.type === 'fleet-unavailable' && !unavailable) {
        unavailable = true;
        notices.write(
          `polite: fleet: Redis does not answer; requests wait for it up to ${timeoutMs} ms, then fail unsent\n`,
        );
      } else if (event.type === 'fleet-available' && unavailable) {
        unavailable = false;
        notices.write('polite: fleet: Redis answers again\n');
      }
    },
  });
}
