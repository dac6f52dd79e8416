import { contract } from '../generated/contract.ts'
import { LoadQueue } from './load-queue.ts'
import { type Persist, PlantWrites, type RecordChange, recorded } from './plant-writes.ts'
import { randomId } from './random.ts'
import {
  type CheckedTenantSpec,
  checkWorld,
  type StoredPlant,
  type StoreSnapshot,
  type TenantSpec,
  tenantSpecSchema,
} from './schemas.ts'
import type { EncodedList, PlantQueries } from './tenant-plants.ts'
import {
  buildTenant,
  type PlantGenerator,
  type ProvisionedTenant,
  type ProvisionOptions,
  provisionedTenant,
  provisionedTenantSpec,
  snapshotOf,
  type Tenant,
  type TenantSnapshot,
  Tenants,
} from './tenants.ts'
import { ExpiredTokens, type Principal } from './tokens.ts'

export type {
  Persist,
  RecordChange,
  RecordedChange,
  StoreChange,
  TenantLifecycleChange,
} from './plant-writes.ts'
export {
  type PlantGenerator,
  type ProvisionedTenant,
  type ProvisionOptions,
  provisionedTenant,
  provisionedTenantSpec,
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

/**
 * A tenant as durable storage holds it: its checked spec, exactly its plants
 * (absent: its seeded ones) and whether it was provisioned.
 */
export interface SavedTenant {
  readonly spec: CheckedTenantSpec
  readonly plants?: Iterable<StoredPlant> | undefined
  readonly provisioned: boolean
}

/**
 * The Plant Store's data: tenants, their users' tokens (indexed by the exact
 * token) and each tenant's plants in a map of its own (queried with
 * `@msw/data`), so what a request costs grows with the caller's tenant, not
 * with the store. A facade over its parts, one job each: readiness and the
 * queue of loads, resets and restores (`load-queue.ts`), the tenants and
 * their lifecycle and snapshots (`tenants.ts`), tokens (`tokens.ts`), the
 * writes to plants (`plant-writes.ts`), each tenant's plants
 * (`tenant-plants.ts`) and the memory they may take (`plant-budget.ts`).
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
  readonly #generatePlants: PlantGenerator
  readonly #now: () => number
  readonly #writes: PlantWrites
  readonly #record: RecordChange | undefined
  readonly #plantBytes: PlantStoreOptions['plantBytes']
  readonly #clientShare: number | undefined
  /** When the plant budget is full: how long a provisioned tenant must be unused to be evicted, and who is told. */
  #idleEviction: { readonly idleMs: number; readonly onEvicted: (tenantIds: readonly string[]) => void } | undefined
  #tenants: Tenants
  /** What {@link reset} returns to: the world the store was set up with. */
  #world: readonly CheckedTenantSpec[] = []
  /** Loads, resets and restores, one after another (`load-queue.ts`). */
  readonly #loads = new LoadQueue()
  /** Why the initial world could not be loaded, until a later load succeeds. */
  #failure: { readonly error: unknown } | undefined
  /** Tokens of tenants removed once their time-to-live passed: they still answer "has expired". */
  readonly #expiredTokens = new ExpiredTokens()

  /** Throws at once when `world` is not a valid world; {@link ready} rejects if it cannot be loaded. */
  constructor(options: PlantStoreOptions) {
    this.#generatePlants = options.generatePlants
    this.#now = options.now ?? Date.now
    this.defaultQuota = options.quota ?? contract.defaultQuota
    if (options.persist !== undefined && typeof options.persist !== 'function') {
      // `setupPlantStoreWorker({ persist: true })` once reached here and answered every write with 500.
      throw new TypeError(
        'persist must be a function that writes a change through (or absent); to keep the browser mock across ' +
          'reloads, pass persist: true to setupPlantStoreWorker().',
      )
    }
    this.#record = options.record
    this.#plantBytes = options.plantBytes
    this.#clientShare = options.clientShare
    this.#tenants = this.#newTenants()
    this.#writes = new PlantWrites((tenantId) => this.#tenants.get(tenantId), options)
    if (options.world) {
      this.#world = checkWorld(options.world)
      // Reported through `ready` (and to every request); never an unhandled rejection. Not written through: the
      // world a store is set up with is not a change.
      this.#loadChecked(this.#world, false).catch((error: unknown) => {
        this.#failure = { error }
      })
    }
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
    return this.#failure
  }

  /** Whether no load, reset or restore is under way, so reads see a settled store. */
  get settled(): boolean {
    return this.#loads.settled
  }

  /** Replaces everything with these tenants; requests wait until it is done. {@link reset} still returns to the set-up world. */
  load(world: readonly TenantSpec[]): Promise<void> {
    return this.#loadChecked(checkWorld(world), true)
  }

  /** Puts the whole store back to the world it was set up with, whatever was loaded since. */
  reset(): Promise<void> {
    // Checked when the store was set up (or restored): not parsed again.
    return this.#loadChecked(this.#world, true)
  }

  /** Replaces everything with a world already checked by `worldSchema`, recorded when asked. */
  #loadChecked(world: readonly CheckedTenantSpec[], record: boolean): Promise<void> {
    return this.#loads.enqueue(async () => {
      const previous = this.#tenants
      const tenants = await this.#built(world.map((spec) => ({ spec })))
      this.#swap(tenants)
      if (!record) return
      await recorded(this.#record, { kind: 'world', tenants: world }, () => {
        if (this.#tenants === tenants) this.#tenants = previous
      })
    })
  }

  /**
   * Replaces everything with a {@link snapshot}: tenants, users, tokens and
   * plants exactly as saved. Tenants listed in `provisioned` come back as
   * provisioned (evictable); the others become the world {@link reset}
   * returns to.
   */
  restore(snapshot: StoreSnapshot, provisioned: readonly string[] = []): Promise<void> {
    const isProvisioned = new Set(provisioned)
    return this.restoreTenants(
      snapshot.tenants.map(({ seedPlants, plants, ...tenant }) => ({
        spec: tenantSpecSchema.parse({ ...tenant, plants: seedPlants }),
        plants,
        provisioned: isProvisioned.has(tenant.id),
      })),
    )
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
    return this.#loads.enqueue(async () => {
      this.#swap(await this.#built(tenants))
      this.#world = tenants.filter((tenant) => !tenant.provisioned).map(({ spec }) => spec)
    })
  }

  /**
   * Every tenant as durable storage would hold it, in creation order, read
   * one at a time (a world of any size is never copied whole): what the
   * sandbox's state file writes when it compacts.
   */
  *savedTenants(): Generator<SavedTenant> {
    for (const { id, name, seed, seedPlants, quota, users, plants } of this.#tenants.all()) {
      const spec: CheckedTenantSpec = { id, name, seed, plants: seedPlants, quota, users }
      yield { spec, plants: plants.all(), provisioned: this.#tenants.isProvisioned(id) }
    }
  }

  /** Adds a tenant with its users, tokens and seeded plants (for provider states and tests). */
  async addTenant(spec: TenantSpec): Promise<void> {
    const checked = tenantSpecSchema.parse(spec)
    const tenant = await this.#tenant(checked)
    await this.#loads.settle()
    this.#insert(tenant, false)
    await recorded(this.#record, { kind: 'tenant', tenantId: checked.id, spec: checked, provisioned: false }, () =>
      this.#tenants.remove(checked.id),
    )
  }

  /**
   * Removes a tenant with its users, tokens and plants: its tokens stop
   * working at once (written through just after, see {@link deleteTenant}).
   */
  removeTenant(tenantId: string): boolean {
    const removed = this.#tenants.remove(tenantId) !== undefined
    if (removed) this.#recordRemovals([tenantId])
    return removed
  }

  /**
   * Removes a tenant for good, like {@link removeTenant}, and settles once
   * that is recorded (what `DELETE /__sandbox/tenants/{id}` answers after);
   * when recording fails the tenant is put back. Answers whether there was one.
   *
   * @example
   * await store.deleteTenant('t_0123456789ab') // true
   */
  async deleteTenant(tenantId: string): Promise<boolean> {
    const provisioned = this.#tenants.isProvisioned(tenantId)
    const tenant = this.#tenants.remove(tenantId)
    if (!tenant) return false
    await recorded(this.#record, { kind: 'remove', tenantId }, () => this.#insert(tenant, provisioned))
    return true
  }

  /**
   * Resolves a presented token to its principal. Throws `invalid_token` for
   * an unknown or expired token. Call it on a {@link settled} store.
   */
  resolveToken(token: string): Principal {
    const principal = this.#tenants.resolve(token, this.#now())
    if (!principal) throw this.#expiredTokens.refusal(token)
    return principal
  }

  /** The store's clock (epoch ms): what tokens, time-to-lives and idleness are measured against. */
  now(): number {
    return this.#now()
  }

  /**
   * Whether a token is issued and not expired on the store's clock. Unlike
   * {@link resolveToken} it does not count as a use of the tenant (e.g. for a
   * live stream that checks its token as it goes).
   */
  isTokenValid(token: string): boolean {
    return this.#tenants.isTokenValid(token, this.#now())
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
  async provisionTenant(options: ProvisionOptions): Promise<ProvisionedTenant> {
    const id = `t_${randomId(12)}`
    const tokens = { read: `psm_${randomId(24)}`, write: `psm_${randomId(24)}` }
    const expiresAt = options.ttlMs === undefined ? undefined : this.#now() + options.ttlMs
    const answer = provisionedTenant(id, tokens, options, expiresAt)
    const spec = provisionedTenantSpec(id, tokens, { ...options, expiresAt: answer.expiresAt })
    const tenant = await this.#tenant(spec)
    await this.#loads.settle()
    const owner = options.owner ?? `tenant ${id}`
    this.#tenants.budget.admit(tenant.plants.bytes, owner, `a tenant of ${tenant.plants.count()} plants`)
    this.#insert(tenant, true, options.owner)
    await recorded(this.#record, { kind: 'tenant', tenantId: id, spec, provisioned: true }, () =>
      this.#tenants.remove(id),
    )
    return answer
  }

  /**
   * Removes the provisioned tenants whose time-to-live has passed (their
   * tokens already stopped working then). Returns the removed ids.
   *
   * @example
   * for (const tenantId of store.removeExpired()) journal.forget(tenantId)
   */
  removeExpired(): string[] {
    const expired = this.#tenants.removeExpired(this.#now())
    for (const { users } of expired) this.#expiredTokens.remember(users)
    return this.#recordRemovals(expired.map(({ id }) => id))
  }

  /** When the next provisioned tenant expires (epoch ms), or `undefined` when none has a time-to-live. */
  nextExpiry(): number | undefined {
    return this.#tenants.nextExpiry()
  }

  /** Whether a tenant was provisioned at run time (and so may be deleted through the sandbox). */
  isProvisioned(tenantId: string): boolean {
    return this.#tenants.isProvisioned(tenantId)
  }

  /** The provisioned tenants, least recently used first. */
  provisionedTenants(): string[] {
    return this.#tenants.provisionedIds()
  }

  /**
   * Makes room for one more provisioned tenant when `max` are held: evicts
   * the least recently used of those idle for at least `idleMs` (unused by
   * any token of theirs), never one used more recently. When every one is
   * in use, nothing is evicted and it throws `at_capacity` (503) with a
   * `Retry-After` of the seconds until the least recently used one turns
   * idle. With a `share`, its owner may hold at most `share.max`: past it
   * its own least recently used idle tenant is evicted, or it is refused
   * with `too_many_requests` (429). Returns the evicted ids.
   *
   * @example
   * const evicted = store.makeRoom(100, 600_000) // then provisionTenant
   */
  makeRoom(max: number, idleMs: number, share?: { readonly owner: string; readonly max: number }): string[] {
    return this.#recordRemovals(this.#tenants.makeRoom(max, idleMs, this.#now(), share))
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
    this.#idleEviction = { idleMs, onEvicted }
  }

  /**
   * Removes provisioned tenants, least recently used first, until at most
   * `max` remain, however recently they were used: for a cluster replica,
   * whose tenants live on in Redis or in their signed tokens (a single
   * sandbox uses {@link makeRoom}). The world's tenants are never evicted.
   * Returns the evicted ids.
   */
  evictIdle(max: number): string[] {
    return this.#recordRemovals(this.#tenants.evictIdle(max))
  }

  /** Whether a tenant exists. */
  hasTenant(tenantId: string): boolean {
    return this.#tenants.find(tenantId) !== undefined
  }

  /**
   * A tenant's plants to query with `@msw/data`'s API (`findMany`,
   * `findFirst`, `count`, `all`), oldest first. Read-only: change them through
   * the API (or {@link addPlant} and {@link deletePlant}), which keep the
   * tenant's rules (unique ids, quota).
   *
   * @example
   * store.plants('acme').findMany((q) => q.where({ tag: 'fern' }))
   */
  plants(tenantId: string): PlantQueries {
    return this.#tenants.get(tenantId).plants
  }

  /** The tenant's plants in creation order, at most `limit` of them. */
  listPlants(tenantId: string, limit?: number): StoredPlant[] {
    return this.#tenants.get(tenantId).plants.list(limit)
  }

  /**
   * The tenant's list as JSON bytes, kept up to date by its writes (made on
   * the first call): what `GET /plants` answers, as views of its pages.
   */
  encodedList(tenantId: string): Pick<EncodedList, 'count' | 'byteLength' | 'chunks'> {
    return this.#tenants.get(tenantId).plants.encoded()
  }

  /** Bytes every tenant's plants take in memory together (see {@link PlantStoreOptions.plantBytes}). */
  plantBytes(): { readonly used: number; readonly max: number } {
    const { used, max } = this.#tenants.budget
    return { used, max }
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
    return this.#tenants.get(tenantId).plants.get(id)
  }

  /** Number of plants the tenant holds. */
  countPlants(tenantId: string): number {
    return this.#tenants.get(tenantId).plants.count()
  }

  /**
   * Stores a validated plant in the tenant. Rejects with `conflict` when the
   * id is taken, `quota_exceeded` when the tenant is full and `sandbox_full`
   * when every tenant's plants together are at
   * {@link PlantStoreOptions.plantBytes}; nothing changes then. Written through {@link PlantStoreOptions.persist} first.
   */
  addPlant(tenantId: string, plant: StoredPlant): Promise<StoredPlant> {
    return this.#writes.add(tenantId, plant)
  }

  /**
   * Deletes the plant with this id from the tenant; answers it, or
   * `undefined` when the tenant has none. Written through
   * {@link PlantStoreOptions.persist} first; without it, memory has changed
   * by the time it returns.
   */
  deletePlant(tenantId: string, id: number): Promise<StoredPlant | undefined> {
    return this.#writes.delete(tenantId, id)
  }

  /** One tenant exactly as it is now (see {@link snapshot}); `undefined` when there is none. */
  tenantSnapshot(tenantId: string): TenantSnapshot | undefined {
    const tenant = this.#tenants.find(tenantId)
    return tenant && snapshotOf(tenant)
  }

  /**
   * Puts a tenant in place of the one with its id (if any): with exactly
   * `plants` (e.g. as durable storage last saw them), or else its seeded
   * plants; `provisioned` ones can be evicted.
   *
   * @example
   * const { seedPlants, plants, ...tenant } = saved // a TenantSnapshot
   * await store.putTenant({ ...tenant, plants: seedPlants }, { plants, provisioned: true })
   */
  async putTenant(spec: TenantSpec, options: { plants?: readonly StoredPlant[]; provisioned: boolean }): Promise<void> {
    const checked = tenantSpecSchema.parse(spec)
    const tenant = await this.#tenant(checked, options.plants)
    await this.#loads.settle()
    this.#tenants.remove(tenant.id)
    this.#insert(tenant, options.provisioned)
    const { plants, provisioned } = options
    // Not undone: the tenant it replaced is gone from the log's point of view either way.
    await this.#record?.({ kind: 'tenant', tenantId: tenant.id, spec: checked, plants, provisioned })
  }

  /** Puts one tenant's plants back to its seeded state. */
  resetTenant(tenantId: string): Promise<void> {
    return this.#writes.reset(
      tenantId,
      (tenant) => this.#tenant({ ...tenant, users: [...tenant.users], plants: tenant.seedPlants }),
      (tenant, reseeded) => {
        // Still the same tenant (not removed or replaced meanwhile): swap its plants in.
        if (this.#tenants.find(tenantId) === tenant) this.#tenants.replace(reseeded)
      },
    )
  }

  /** The whole store as JSON-ready data, tenants in creation order. */
  snapshot(): StoreSnapshot {
    return { tenants: [...this.#tenants.all()].map(snapshotOf) }
  }

  /** Builds a whole new state aside, waiting for any plants still being generated (a failure changes nothing), to {@link #swap} in. */
  async #built(
    tenants: ReadonlyArray<{
      spec: CheckedTenantSpec
      plants?: Iterable<StoredPlant> | undefined
      provisioned?: boolean
    }>,
  ): Promise<Tenants> {
    const made = tenants.map(({ spec, plants }) => this.#tenant(spec, plants))
    const ready = made.some((tenant) => tenant instanceof Promise) ? await Promise.all(made) : (made as Tenant[])
    const built = this.#newTenants()
    const now = this.#now()
    for (const [index, { provisioned = false }] of tenants.entries()) built.insert(ready[index]!, { provisioned, now })
    return built
  }

  /** An empty state with the store's plant budget, its share per client and its reclaiming of idle room. */
  #newTenants(): Tenants {
    return new Tenants(this.#plantBytes, { share: this.#clientShare, reclaim: (bytes) => this.#reclaimIdle(bytes) })
  }

  /** Evicts idle provisioned tenants (when the store does, see {@link evictIdleWhenFull}) until `bytes` more fit. */
  #reclaimIdle(bytes: number): void {
    if (!this.#idleEviction) return
    const { idleMs, onEvicted } = this.#idleEviction
    const evicted = this.#recordRemovals(this.#tenants.reclaimIdle(bytes, this.#now() - idleMs))
    if (evicted.length > 0) onEvicted(evicted)
  }

  /** Puts a state built by {@link #built} in place. */
  #swap(tenants: Tenants): void {
    this.#tenants = tenants
    this.#failure = undefined
  }

  /** Records removals the store has made on its own (nothing waits for them), in order; answers their ids. */
  #recordRemovals(tenantIds: string[]): string[] {
    // A write that fails surfaces in the writes after it (the state file refuses them): nothing to report here.
    for (const tenantId of tenantIds) this.#record?.({ kind: 'remove', tenantId }).catch(() => undefined)
    return tenantIds
  }

  /** Creates a tenant from its spec, with `plants` or else its seeded (or exact) plants; a promise while they are generated. */
  #tenant(spec: CheckedTenantSpec, plants?: Iterable<StoredPlant>): Tenant | Promise<Tenant> {
    return buildTenant(spec, { generatePlants: this.#generatePlants, defaultQuota: this.defaultQuota }, plants)
  }

  #insert(tenant: Tenant, provisioned: boolean, owner?: string): void {
    this.#tenants.insert(tenant, { provisioned, now: this.#now(), owner })
  }
}
