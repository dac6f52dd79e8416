import { contract } from '../generated/contract.ts'
import type { Persist, RecordChange } from './plant-writes.ts'
import { checkWorld, type StoredPlant, type StoreSnapshot, type TenantSpec } from './schemas.ts'
import { type SavedTenant, StoreLoads } from './store-loads.ts'
import { StorePlants } from './store-plants.ts'
import { StoreSnapshots } from './store-snapshots.ts'
import { StoreState } from './store-state.ts'
import { StoreTokens } from './store-tokens.ts'
import type { TenantMemory } from './tenant-memory.ts'
import type { EncodedList, PlantQueries } from './tenant-plants.ts'
import { TenantProvisioning } from './tenant-provisioning.ts'
import type { PlantGenerator, ProvisionedTenant, ProvisionOptions, TenantSnapshot } from './tenants.ts'
import type { Principal } from './tokens.ts'

export type {
  Persist,
  RecordChange,
  RecordedChange,
  StoreChange,
  TenantLifecycleChange,
} from './plant-writes.ts'
export { applyPlantChange, memoryAfter, unreachable } from './plant-writes.ts'
export { emptyMemory, type TenantMemory, tenantMemorySchema } from './tenant-memory.ts'
export {
  fromSnapshot,
  type PlantGenerator,
  type ProvisionedTenant,
  type ProvisionOptions,
  type TenantSnapshot,
} from './tenants.ts'
export type { Principal } from './tokens.ts'

export interface PlantStoreOptions {
  /** Generates a tenant's seeded plants (see `fixtures/`). */
  generatePlants: PlantGenerator
  /** The tenants to start with, and what {@link PlantStore.reset} returns to. */
  world?: readonly TenantSpec[]
  /** Plants a tenant may hold unless its spec says otherwise (default from the contract: 10,000). */
  quota?: number
  /** The clock tokens expire against (default `Date.now`). */
  now?: () => number
  /**
   * Tokens an unknown token's 401 may suggest ("did you mean …?") while the
   * store accepts them: public by design (the fixture tokens, printed in the
   * banner and the guides). Never a provisioned tenant's token. None by default.
   */
  publicTokens?: readonly string[]
  /**
   * Bytes every tenant's plants may take in memory together, as `plantCost`
   * counts them (default: no budget). A create or a provisioning that would
   * pass it is refused with `sandbox_full` (507); deletes, removals and
   * resets give bytes back. Loads, restores and resets of the whole store
   * are never refused (a world larger than the budget refuses creates until
   * it is below it again). A function answers it when first needed (a
   * create or provisioning, or {@link PlantStore.plantBytes}): the sandbox's
   * default reads V8's heap limit, whose module costs a start 2 ms.
   */
  plantBytes?: number | (() => number)
  /**
   * The share (above 0, at most 1) of {@link plantBytes} that one client's
   * tenants may take together (default 1: no share). A client is the owner a
   * tenant was provisioned for ({@link ProvisionOptions.owner}, the sandbox
   * gives the client's address); the world's tenants are one client
   * together, any other provisioned tenant a client on its own.
   * A create or a provisioning past it is refused with `sandbox_full` (507).
   */
  clientShare?: number
  /**
   * Writes a change through to durable storage (e.g. Redis) before the store
   * applies it: awaited after the change is validated, with the tenant's other
   * writes waiting; when it rejects, nothing changes and the rejection is the
   * answer. Without it, writes only change memory (as they always have).
   */
  persist?: Persist
  /**
   * Appends every change to an ordered log (the sandbox's state file) as it
   * is made, see {@link RecordChange}: writes to plants, provisioning,
   * {@link PlantStore.deleteTenant}, {@link PlantStore.load} and
   * {@link PlantStore.reset} answer once it resolves, and are undone when it
   * rejects; the removals the store makes on its own (expiry, eviction,
   * {@link PlantStore.removeTenant}) are recorded with nothing to wait for.
   * The world the store is set up with and {@link PlantStore.restoreTenants}
   * are not recorded: they are where the store starts, or come from the log.
   */
  record?: RecordChange
}

export type { SavedTenant } from './store-loads.ts'

/**
 * The Plant Store's data: tenants, their users' tokens (indexed by the exact
 * token) and each tenant's plants in a map of its own (queried with
 * `@msw/data`), so what a request costs grows with the caller's tenant, not
 * with the store. A facade that only delegates to its parts, one job each,
 * over the state they share (`store-state.ts`): readiness and the queue of
 * loads, resets and restores (`store-loads.ts`), the tenants' lifecycle:
 * provisioning, expiry and eviction (`tenant-provisioning.ts`), tokens
 * (`store-tokens.ts`), plants and their writes (`store-plants.ts`) and
 * snapshots (`store-snapshots.ts`); beneath them, the tenants
 * (`tenants.ts`), each tenant's plants (`tenant-plants.ts`) and the memory
 * they may take (`plant-budget.ts`).
 * Knows nothing of HTTP. Loads, resets and restores run one after another;
 * each builds the new state aside and swaps it in whole, so requests never
 * see a half-loaded store and a failed load changes nothing.
 *
 * @example
 * const store = new PlantStore({ generatePlants, world: buildWorld() })
 * await store.ready
 * store.plants('acme').findMany((q) => q.where({ tag: 'fern' }))
 */
export class PlantStore {
  /** Plants a tenant may hold unless its spec says otherwise. */
  readonly defaultQuota: number
  /** The tenants in place now, the clock and the change log, which the parts below share. */
  readonly #state: StoreState
  /** Readiness and the queue of loads, resets and restores. */
  readonly #loads: StoreLoads
  readonly #tokens: StoreTokens
  /** Adding, provisioning, expiry, eviction and removal of tenants. */
  readonly #lifecycle: TenantProvisioning
  readonly #plants: StorePlants
  readonly #snapshots: StoreSnapshots

  /** Throws at once when `world` is not a valid world; {@link ready} rejects if it cannot be loaded. */
  constructor(options: PlantStoreOptions) {
    this.defaultQuota = options.quota ?? contract.defaultQuota
    if (options.persist !== undefined && typeof options.persist !== 'function') {
      // `setupPlantStoreWorker({ persist: true })` once reached here and answered every write with 500.
      throw new TypeError(
        'persist must be a function that writes a change through (or absent); to keep the browser mock across ' +
          'reloads, pass persist: true to setupPlantStoreWorker().',
      )
    }
    this.#state = new StoreState({
      generatePlants: options.generatePlants,
      defaultQuota: this.defaultQuota,
      now: options.now ?? Date.now,
      record: options.record,
      plantBytes: options.plantBytes,
      clientShare: options.clientShare,
      reclaim: (bytes) => this.#lifecycle.reclaimIdle(bytes),
    })
    this.#plants = new StorePlants(this.#state, options)
    this.#loads = new StoreLoads(this.#state, options.world && checkWorld(options.world))
    this.#tokens = new StoreTokens(this.#state, options.publicTokens)
    this.#lifecycle = new TenantProvisioning(this.#state, this.#loads, this.#tokens)
    this.#snapshots = new StoreSnapshots(this.#state, this.#loads)
  }

  /** Settles once the latest load, reset or restore is in place; rejects if it failed. */
  get ready(): Promise<void> {
    return this.#loads.ready
  }

  /**
   * Why the store cannot serve: its initial world failed to load (and no
   * load since succeeded). Requests answer 500 then, never an empty store.
   */
  get failure(): { readonly error: unknown } | undefined {
    return this.#loads.failure
  }

  /** Whether no load, reset or restore is under way, so reads see a settled store. */
  get settled(): boolean {
    return this.#loads.settled
  }

  /** Replaces everything with these tenants; requests wait until it is done. {@link reset} still returns to the set-up world. */
  load(world: readonly TenantSpec[]): Promise<void> {
    return this.#loads.load(checkWorld(world))
  }

  /** Puts the whole store back to the world it was set up with, whatever was loaded since. */
  reset(): Promise<void> {
    return this.#loads.reset()
  }

  /**
   * Replaces everything with a {@link snapshot}: tenants, users, tokens and
   * plants exactly as saved. Tenants listed in `provisioned` come back as
   * provisioned (evictable); the others become the world {@link reset}
   * returns to.
   */
  restore(snapshot: StoreSnapshot, provisioned: readonly string[] = []): Promise<void> {
    return this.#snapshots.restore(snapshot, provisioned)
  }

  /**
   * Replaces everything with tenants as durable storage holds them (e.g. the
   * sandbox's state file), in order; not written through, since that is
   * where they come from. The ones not provisioned become the world
   * {@link reset} returns to.
   *
   * @example
   * await store.restoreTenants([{ spec, plants: [{ id: 1, name: 'Fern' }], provisioned: false }])
   */
  restoreTenants(tenants: readonly SavedTenant[]): Promise<void> {
    return this.#loads.restoreTenants(tenants)
  }

  /**
   * Every tenant as durable storage would hold it, in creation order, read
   * one at a time (a world of any size is never copied whole): what the
   * sandbox's state file writes when it compacts.
   */
  *savedTenants(): Generator<SavedTenant> {
    yield* this.#snapshots.savedTenants()
  }

  /** Adds a tenant with its users, tokens and seeded plants (for provider states and tests). */
  addTenant(spec: TenantSpec): Promise<void> {
    return this.#lifecycle.add(spec)
  }

  /**
   * Removes a tenant with its users, tokens and plants: its tokens stop
   * working at once (written through just after, see {@link deleteTenant}).
   */
  removeTenant(tenantId: string): boolean {
    return this.#lifecycle.remove(tenantId)
  }

  /**
   * Removes a tenant for good, like {@link removeTenant}, and settles once
   * that is recorded (what `DELETE /__sandbox/tenants/{id}` answers after);
   * when recording fails the tenant is put back. Answers whether there was one.
   *
   * @example
   * await store.deleteTenant('t_0123456789ab') // true
   */
  deleteTenant(tenantId: string): Promise<boolean> {
    return this.#lifecycle.delete(tenantId)
  }

  /**
   * Resolves a presented token to its principal. Throws `invalid_token` for
   * an unknown or expired token. Call it on a {@link settled} store.
   */
  resolveToken(token: string): Principal {
    return this.#tokens.resolve(token)
  }

  /** The store's clock (epoch ms): what tokens, time-to-lives and idleness are measured against. */
  now(): number {
    return this.#state.now()
  }

  /**
   * Whether a token is issued and not expired on the store's clock. Unlike
   * {@link resolveToken} it does not count as a use of the tenant (e.g. for a
   * live stream that checks its token as it goes).
   */
  isTokenValid(token: string): boolean {
    return this.#tokens.isValid(token)
  }

  /**
   * Creates a fresh, isolated tenant with a random id and random read and
   * write tokens, with `plants` plants generated from `seed` or the exact
   * plants given. Unlike the world's tenants it can be evicted by
   * {@link evictIdle}, and a whole-store {@link reset} removes it. With a
   * `ttlMs` its tokens stop working once it has passed. Rejects with
   * `sandbox_full` (507) when its plants do not fit the store's
   * {@link PlantStoreOptions.plantBytes}.
   *
   * @example
   * const { tenant, tokens } = await store.provisionTenant({ plants: [{ id: 1, name: 'Fern' }], seed: 0, ttlMs: 60_000 })
   */
  provisionTenant(options: ProvisionOptions): Promise<ProvisionedTenant> {
    return this.#lifecycle.provision(options)
  }

  /**
   * Removes the provisioned tenants whose time-to-live has passed (their
   * tokens already stopped working then). Returns the removed ids.
   *
   * @example
   * for (const tenantId of store.removeExpired()) journal.forget(tenantId)
   */
  removeExpired(): string[] {
    return this.#lifecycle.removeExpired()
  }

  /** When the next provisioned tenant expires (epoch ms), or `undefined` when none has a time-to-live. */
  nextExpiry(): number | undefined {
    return this.#lifecycle.nextExpiry()
  }

  /** Whether a tenant was provisioned at run time (and so may be deleted through the sandbox). */
  isProvisioned(tenantId: string): boolean {
    return this.#lifecycle.isProvisioned(tenantId)
  }

  /** The provisioned tenants, least recently used first. */
  provisionedTenants(): string[] {
    return this.#lifecycle.provisionedIds()
  }

  /**
   * Makes room for one more provisioned tenant when `max` are held: evicts
   * the least recently used of those idle for at least `idleMs` (unused by
   * any token of theirs), never one used more recently. When every one is
   * in use, nothing is evicted and it throws `at_capacity` (503) with a
   * `Retry-After` of the seconds until the least recently used one turns
   * idle. With a `share`, its owner may hold at most `share.max`: past it
   * its own least recently used idle tenant is evicted, or it is refused
   * with `too_many_requests` (429). Returns the evicted ids. Sandbox-only: in a
   * page (the browser entry) its code comes with the mock's parts, and until
   * `mock.ready()` has settled it throws `unavailable`, as {@link load} does.
   *
   * @example
   * const evicted = store.makeRoom(100, 600_000) // then provisionTenant
   */
  makeRoom(max: number, idleMs: number, share?: { readonly owner: string; readonly max: number }): string[] {
    return this.#lifecycle.makeRoom(max, idleMs, share)
  }

  /**
   * From now on, when a create or a provisioning does not fit the plant
   * budget ({@link PlantStoreOptions.plantBytes}), first evicts provisioned
   * tenants unused for `idleMs`, least recently used first, until it fits,
   * and tells `onEvicted` which (issue 35, F6: a full budget stayed full of
   * idle tenants, since eviction only ran at the maximum of tenants). The
   * world's tenants are never evicted.
   *
   * @example
   * store.evictIdleWhenFull(600_000, (ids) => { for (const id of ids) journal.forget(id) })
   */
  evictIdleWhenFull(idleMs: number, onEvicted: (tenantIds: readonly string[]) => void): void {
    this.#lifecycle.evictIdleWhenFull(idleMs, onEvicted)
  }

  /**
   * Removes provisioned tenants, least recently used first, until at most
   * `max` remain, however recently they were used: for a cluster replica,
   * whose tenants live on in Redis or in their signed tokens (a single
   * sandbox uses {@link makeRoom}). The world's tenants are never evicted.
   * Returns the evicted ids.
   */
  evictIdle(max: number): string[] {
    return this.#lifecycle.evictIdle(max)
  }

  /** Whether a tenant exists. */
  hasTenant(tenantId: string): boolean {
    return this.#lifecycle.has(tenantId)
  }

  /**
   * A tenant's plants to query with `@msw/data`'s API (`findMany`,
   * `findFirst`, `count`, `all`), oldest first. Read-only: change them through
   * the API (or {@link addPlant}, {@link updatePlant} and {@link deletePlant}), which keep the
   * tenant's rules (unique ids, quota).
   *
   * @example
   * store.plants('acme').findMany((q) => q.where({ tag: 'fern' }))
   */
  plants(tenantId: string): PlantQueries {
    return this.#plants.queries(tenantId)
  }

  /** The tenant's plants in creation order, at most `limit` of them. */
  listPlants(tenantId: string, limit?: number): StoredPlant[] {
    return this.#plants.list(tenantId, limit)
  }

  /**
   * The tenant's list as JSON bytes, kept up to date by its writes (made on
   * the first call): what `GET /plants` answers, as views of its pages.
   */
  encodedList(tenantId: string): Pick<EncodedList, 'count' | 'byteLength' | 'chunks'> {
    return this.#plants.encoded(tenantId)
  }

  /** Bytes every tenant's plants take in memory together (see {@link PlantStoreOptions.plantBytes}). */
  plantBytes(): { readonly used: number; readonly max: number } {
    return this.#plants.bytes()
  }

  /**
   * The tenant's plant with this id, or `undefined` when the tenant has
   * none (whether or not another tenant has it): what an operation that
   * reads one plant asks.
   *
   * @example
   * store.getPlant('acme', 1) // { id: 1, name: 'Fern', tag: 'fern' }
   */
  getPlant(tenantId: string, id: number): StoredPlant | undefined {
    return this.#plants.get(tenantId, id)
  }

  /** Number of plants the tenant holds. */
  countPlants(tenantId: string): number {
    return this.#plants.count(tenantId)
  }

  /**
   * Stores a validated plant in the tenant. Rejects with `conflict` when the
   * id is taken, `quota_exceeded` when the tenant is full and `sandbox_full`
   * when every tenant's plants together are at
   * {@link PlantStoreOptions.plantBytes}; nothing changes then. Written through {@link PlantStoreOptions.persist} first.
   */
  addPlant(tenantId: string, plant: StoredPlant): Promise<StoredPlant> {
    return this.#plants.add(tenantId, plant)
  }

  /**
   * Puts `change(plant)` in place of the tenant's plant with this id,
   * keeping its place in the list and its id: what an operation that
   * updates a plant (a partial update, a replace) writes through, with no
   * change to the store or to any persistence layer (they apply the
   * generic change). Answers the plant after it, or `undefined` when the
   * tenant has none (nothing changes). Rejects with `sandbox_full` when the
   * plant grows past {@link PlantStoreOptions.plantBytes}. Written through
   * {@link PlantStoreOptions.persist} first.
   *
   * @example
   * const plant = await store.updatePlant('acme', 1, (held) => ({ ...held, name: 'Boston fern' }))
   * if (!plant) throw new PlantStoreError('not_found', 'No plant with id 1 exists.')
   */
  updatePlant(
    tenantId: string,
    id: number,
    change: (plant: StoredPlant) => StoredPlant,
  ): Promise<StoredPlant | undefined> {
    return this.#plants.update(tenantId, id, change)
  }

  /**
   * Deletes the plant with this id from the tenant; answers it, or
   * `undefined` when the tenant has none. Written through
   * {@link PlantStoreOptions.persist} first; without it, memory has changed
   * by the time it returns.
   */
  deletePlant(tenantId: string, id: number): Promise<StoredPlant | undefined> {
    return this.#plants.delete(tenantId, id)
  }

  /** One tenant exactly as it is now (see {@link snapshot}); `undefined` when there is none. */
  tenantSnapshot(tenantId: string): TenantSnapshot | undefined {
    return this.#snapshots.tenantSnapshot(tenantId)
  }

  /**
   * What a tenant remembers now, besides its plants (see `tenant-memory.ts`):
   * part of its state, kept by snapshots, {@link putTenant} and every
   * persistence layer; a reset returns it to its spec's `memory`.
   *
   * @example
   * store.tenantMemory('acme') // {}
   */
  tenantMemory(tenantId: string): TenantMemory {
    return this.#plants.memory(tenantId)
  }

  /**
   * Puts a tenant in place of the one with its id (if any): with exactly
   * `plants` (e.g. as durable storage last saw them), or else its seeded
   * plants, and exactly `memory`, or else its spec's; `provisioned` ones can
   * be evicted. Rejects (a zod error) when `memory` is not a tenant's memory.
   *
   * @example
   * const { spec, plants, memory } = fromSnapshot(saved) // a TenantSnapshot
   * await store.putTenant(spec, { plants, memory, provisioned: true })
   */
  putTenant(
    spec: TenantSpec,
    options: {
      plants?: readonly StoredPlant[]
      memory?: TenantMemory | undefined
      provisioned: boolean
      owner?: string | undefined
    },
  ): Promise<void> {
    return this.#snapshots.putTenant(spec, options)
  }

  /** Puts one tenant's plants back to its seeded state. */
  resetTenant(tenantId: string): Promise<void> {
    return this.#plants.reset(tenantId)
  }

  /** The whole store as JSON-ready data, tenants in creation order. */
  snapshot(): StoreSnapshot {
    return this.#snapshots.snapshot()
  }
}
