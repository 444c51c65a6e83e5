import type { FleetConnection } from './fleet-connection.js';
import type { FleetClusterClient } from './fleet-client.js';
import { SLOT_COUNT, keySlot } from './key-slot.js';
import type { FleetKeys } from './keys.js';
import { NODE_CHECK } from './scripts/fleet-loss.js';
import { luaScript } from './scripts/script.js';

const CHECK = luaScript(NODE_CHECK);

/** A master as this process knows it: whether it saw its witness, until when a loss counts. */
interface NodeState {
  seen: boolean;
  lossUntil: number;
}

/**
 * What this process knows of key losses on a Redis Cluster, where a script reaches one slot
 * and each slot has a loss marker of its own, created by the slot's first grant. A missing
 * marker is a loss in a slot this process has used (it saw the marker); in a slot new to it,
 * the master's witness decides: checked before the first grant there, and on every master when
 * this process starts and when a master comes back. A master found to have lost its keys makes
 * every missing marker of its slots a loss for `lossGrace` (time for every holder to put its
 * leases back); after that, a holder's renewal has restored what pacing needs.
 */
export class ClusterLossWatch {
  readonly #connection: FleetConnection;
  readonly #client: FleetClusterClient;
  readonly #keys: FleetKeys;
  readonly #lossGrace: number;
  readonly #limit: number;
  /** Slots whose marker this process has seen (a grant there answered): 2 KiB for all. */
  readonly #knownSlots = new Uint8Array(SLOT_COUNT / 8);
  /** By master address. */
  readonly #nodes = new Map<string, NodeState>();
  /** The first slot each master serves (its witness's slot), by address. */
  readonly #firstSlots = new Map<string, number>();

  constructor(
    connection: FleetConnection,
    keys: FleetKeys,
    settings: { lossGrace: number; unavailableTimeout: number },
  ) {
    this.#connection = connection;
    this.#client = connection.client as FleetClusterClient;
    this.#keys = keys;
    this.#lossGrace = settings.lossGrace;
    this.#limit = settings.unavailableTimeout;
  }

  /** Checks every master's witness (at start: seen from now on; later: a loss if gone). */
  checkAll(): void {
    for (const master of this.#client.masters) {
      const slot = this.#firstSlot(master.address);
      if (slot !== undefined) void this.#check(master.address, slot, undefined).catch(() => 0);
    }
  }

  /**
   * The grant's `fresh` flag for `origin` (1: a missing marker may be one never created): asks
   * the master's witness first when the slot is new to this process.
   */
  async fresh(origin: string, signal: AbortSignal): Promise<0 | 1> {
    const slot = keySlot(this.#keys.pace(origin));
    if ((this.#knownSlots[slot >> 3]! & (1 << (slot & 7))) !== 0) return 0;
    const address = this.#connection.route(this.#keys.pace(origin));
    const first = this.#firstSlot(address) ?? slot;
    const reply = await this.#check(address, first, signal);
    const state = this.#nodes.get(address);
    return reply === 0 || (state !== undefined && state.lossUntil > performance.now()) ? 0 : 1;
  }

  /** A grant of `origin` answered: its slot's marker exists now. */
  know(origin: string): void {
    const slot = keySlot(this.#keys.pace(origin));
    this.#knownSlots[slot >> 3]! |= 1 << (slot & 7);
  }

  async #check(address: string, slot: number, signal: AbortSignal | undefined): Promise<number> {
    let state = this.#nodes.get(address);
    if (state === undefined) this.#nodes.set(address, (state = { seen: false, lossUntil: 0 }));
    const reply = await this.#connection.run<number>(
      CHECK,
      [this.#keys.witness(slot)],
      [state.seen ? 1 : 0, this.#keys.channel],
      this.#limit,
      signal,
    );
    state.seen = true;
    if (reply === 0) {
      state.lossUntil = performance.now() + this.#lossGrace;
      // The master's slots this process used: their markers went with the loss.
      this.#forgetSlotsOf(address);
    }
    return reply;
  }

  /** The slots of `address` count as new again: their first grant asks the witness. */
  #forgetSlotsOf(address: string): void {
    const slots = this.#client.slots;
    for (let slot = 0; slot < SLOT_COUNT; slot += 1)
      if (slots[slot]?.master.address === address)
        this.#knownSlots[slot >> 3]! &= ~(1 << (slot & 7));
  }

  /** The first slot `address` serves now (undefined when the topology does not list it). */
  #firstSlot(address: string): number | undefined {
    const slots = this.#client.slots;
    const cached = this.#firstSlots.get(address);
    if (cached !== undefined && slots[cached]?.master.address === address) return cached;
    for (let slot = 0; slot < SLOT_COUNT; slot += 1) {
      if (slots[slot]?.master.address === address) {
        this.#firstSlots.set(address, slot);
        return slot;
      }
    }
    return undefined;
  }
}
