import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { RobotsFetchClaim, RobotsStore, StoredRobots } from '@polite-crawler/fetch';
import { FLEET_BRAND } from './fleet-brand.js';
import type { FleetConnection } from './fleet-connection.js';
import type { FleetKeys } from './keys.js';
import type { LeaseBook } from './lease-book.js';
import { bodyLimit, decodeEntry, encodeEntry, ROBOTS_METADATA_MAX_BYTES } from './robots-entry.js';
import { ROBOTS_CLAIM, ROBOTS_CLAIM_RELEASE, ROBOTS_SET } from './scripts/robots-claim.js';
import { ROBOTS_GET } from './scripts/robots-get.js';
import { luaScript } from './scripts/script.js';
import type { LuaScript } from './scripts/script.js';
import type { ReplyStrings, ScriptArgument } from './fleet-connection.js';
import { entryWithoutCredentials } from './strip-credentials.js';
import { WakeUps } from './wake-ups.js';

const CLAIM = luaScript(ROBOTS_CLAIM);
const CLAIM_RELEASE = luaScript(ROBOTS_CLAIM_RELEASE);
const SET = luaScript(ROBOTS_SET);
const GET = luaScript(ROBOTS_GET);

/** Generations remembered (origin → the one last read), least recently used dropped first. */
const MAX_REMEMBERED = 10_000;

/** Shortest wait between two claim attempts, ms. */
const MIN_CLAIM_WAIT = 10;

type ClaimReply = [1] | [2] | [0, number];
/** See ROBOTS_GET: generation, then the entry's parts when there is one to read. */
type GetReply = [] | [Buffer] | [Buffer, Buffer, Buffer];

const FETCH_HERE: RobotsFetchClaim = { fetch: true, release: () => Promise.resolve() };

export interface RedisRobotsStoreSettings {
  readonly commandTimeout: number;
  /** Longest wait for a claim's answer from a connected but slow Redis. */
  readonly claimTimeout: number;
  readonly robotsRetention: number;
  /** Bodies over this (plus the byte read past it) are neither written nor read. */
  readonly robotsMaxBytes: number;
  readonly leaseTtl: number;
  readonly wakeFallback: number;
  readonly fleetId: string;
}

/**
 * The fleet's {@link RobotsStore}: one hash per origin — the entry's metadata as JSON (`m`), its
 * body's raw bytes (`b`, see robots-entry.ts) and its generation (`g`) — kept `robotsRetention`
 * after each write, plus `claimFetch`, the single flight of robots.txt fetches across
 * processes. Each store call waits at most `commandTimeout`; a failed call is a store failure,
 * which the policy treats as an empty store (it then fetches itself).
 */
export class RedisRobotsStore implements RobotsStore {
  readonly [FLEET_BRAND]: string;
  readonly #connection: FleetConnection;
  readonly #keys: FleetKeys;
  readonly #leases: LeaseBook;
  readonly #settings: RedisRobotsStoreSettings;
  /** The generation of each origin's entry this process last read or wrote. */
  readonly #seen = new LRUCache<string, string>({ max: MAX_REMEMBERED });
  readonly #wakeUps = new WakeUps();

  constructor(
    connection: FleetConnection,
    keys: FleetKeys,
    leases: LeaseBook,
    settings: RedisRobotsStoreSettings,
  ) {
    this.#connection = connection;
    this.#keys = keys;
    this.#leases = leases;
    this.#settings = settings;
    this[FLEET_BRAND] = settings.fleetId;
    connection.onMessage((kind, origin) => {
      if (kind === 's' || kind === 'r') this.#wakeUps.wake(origin);
    });
    connection.onRecover(() => this.#wakeUps.wakeAll());
  }

  async get(origin: string): Promise<StoredRobots | undefined> {
    const { robotsMaxBytes } = this.#settings;
    const [generation, metadata, body] = await this.#run<GetReply>(
      GET,
      [this.#keys.robots(origin)],
      [ROBOTS_METADATA_MAX_BYTES, bodyLimit(robotsMaxBytes)],
      this.#settings.commandTimeout,
      'buffers',
    );
    this.#remember(origin, generation?.toString() ?? '0');
    // An oversized or foreign value arrives as no parts: missing, so this process fetches and
    // the write of its outcome replaces it.
    return decodeEntry(origin, metadata ?? null, body ?? null);
  }

  async set(origin: string, entry: StoredRobots): Promise<void> {
    // Refused here (a typed error, nothing sent) when over a limit.
    const { metadata, body } = encodeEntry(
      origin,
      entryWithoutCredentials(entry),
      this.#settings.robotsMaxBytes,
    );
    const generation = await this.#run<number>(
      SET,
      [this.#keys.robots(origin)],
      [metadata, body, this.#settings.robotsRetention, this.#keys.channel, origin],
    );
    this.#remember(origin, String(generation));
  }

  async delete(origin: string): Promise<void> {
    await this.#connection.command(
      ['DEL', this.#keys.robots(origin)],
      this.#settings.commandTimeout,
    );
    this.#seen.delete(origin);
  }

  async claimFetch(origin: string, signal?: AbortSignal): Promise<RobotsFetchClaim> {
    const keys = this.#keys;
    const claimKey = keys.claim(origin);
    const id = randomBytes(8).toString('hex');
    const seen = this.#seen.get(origin) ?? '';
    for (;;) {
      signal?.throwIfAborted();
      let reply: ClaimReply;
      try {
        // Waits for a slow Redis as long as a page request would (unavailableTimeout): a slow
        // answer is not a missing one, and giving up early would fetch robots.txt twice.
        // A claim also waits through a reconnection (a restart lost the claim of the process
        // fetching now): giving up at once would fetch robots.txt once per waiting process.
        reply = await this.#connection.run<ClaimReply>(
          CLAIM,
          [claimKey, keys.robots(origin)],
          [id, this.#settings.leaseTtl, seen],
          this.#settings.claimTimeout,
          signal,
        );
      } catch {
        // Redis unreachable: this process fetches and caches robots.txt itself.
        signal?.throwIfAborted();
        return FETCH_HERE;
      }
      if (reply[0] === 1) {
        this.#leases.holdClaim(claimKey, id);
        let released = false;
        return {
          fetch: true,
          release: async () => {
            if (released) return;
            released = true;
            this.#leases.dropClaim(claimKey);
            await this.#run(CLAIM_RELEASE, [claimKey], [id, keys.channel, origin]).catch(
              () => undefined,
            );
          },
        };
      }
      if (reply[0] === 2) return { fetch: false };
      // Another process fetches: wait for its `s`/`r` message, or until its claim would expire.
      // At least MIN_CLAIM_WAIT: the script gives every claim a TTL, and this floor keeps a
      // claim that is about to expire from turning the loop into a spin.
      const left = Math.max(MIN_CLAIM_WAIT, reply[1] + 1);
      await this.#wakeUps.wait(origin, Math.min(left, this.#settings.wakeFallback), signal);
    }
  }

  #run<T>(
    script: LuaScript,
    keys: string[],
    args: ScriptArgument[],
    limit = this.#settings.commandTimeout,
    replies: ReplyStrings = 'strings',
  ): Promise<T> {
    if (!this.#connection.client.isReady)
      return Promise.reject(new Error('Redis is not connected'));
    return this.#connection.run<T>(script, keys, args, limit, undefined, undefined, false, replies);
  }

  #remember(origin: string, generation: string): void {
    this.#seen.set(origin, generation);
  }
}
