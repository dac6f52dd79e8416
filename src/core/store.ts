import { contract } from '../generated/contract.ts'
import { type Persist, PlantWrites } from './plant-writes.ts'
import { randomId } from './random.ts'
import {
  type CheckedTenantSpec,
  type StoredPlant,
  type StoreSnapshot,
  type TenantSpec,
  tenantSpecSchema,
  worldSchema,
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

export type { StoreChange } from './plant-writes.ts'
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
   * it is below it again).
   */
  plantBytes?: number
  /**
   * Writes a change through to durable storage (e.g. Redis) before the store
   * applies it: awaited after the change is validated, with the tenant's other
   * writes waiting; when it rejects, nothing changes and the rejection is the
   * answer. Without it, writes only change memory (as they always have).
   */
  persist?: Persist
}

/**
 * The Plant Store's data: tenants, their users' tokens (indexed by the exact
 * token) and each tenant's plants in a map of its own (queried with
 * `@msw/data`), so what a request costs grows with the caller's tenant, not
 * with the store. A facade over its parts: the tenants and their lifecycle
 * (`tenants.ts`, with the token index of `tokens.ts`) and the writes to
 * their plants (`plant-writes.ts`).
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
  readonly #plantBytes: number | undefined
  #tenants: Tenants
  /** What {@link reset} returns to: the world the store was set up with. */
  #world: readonly CheckedTenantSpec[] = []
  /** Loads, resets and restores, one after another; settles with the latest. */
  #queue: Promise<void> = Promise.resolve()
  #pending = 0
  /** Why the initial world could not be loaded, until a later load succeeds. */
  #failure: { readonly error: unknown } | undefined
  /** Tokens of tenants removed once their time-to-live passed: they still answer "has expired". */
  readonly #expiredTokens = new ExpiredTokens()

  /** Throws at once when `world` is not a valid world; {@link ready} rejects if it cannot be loaded. */
  constructor(options: PlantStoreOptions) {
    this.#generatePlants = options.generatePlants
    this.#now = options.now ?? Date.now
    this.defaultQuota = options.quota ?? contract.defaultQuota
    this.#plantBytes = options.plantBytes
    this.#tenants = new Tenants(this.#plantBytes)
    this.#writes = new PlantWrites((tenantId) => this.#tenants.get(tenantId), options.persist)
    if (options.world) {
      this.#world = worldSchema.parse(options.world)
      // Reported through `ready` (and to every request); never an unhandled rejection.
      this.#loadChecked(this.#world).catch((error: unknown) => {
        this.#failure = { error }
      })
    }
  }

  /** Settles once the latest load, reset or restore is in place; rejects if it failed. */
  get ready(): Promise<void> {
    return this.#queue
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
    return this.#pending === 0
  }

  /** Replaces everything with these tenants; requests wait until it is done. {@link reset} still returns to the set-up world. */
  load(world: readonly TenantSpec[]): Promise<void> {
    return this.#loadChecked(worldSchema.parse(world))
  }

  /** Puts the whole store back to the world it was set up with, whatever was loaded since. */
  reset(): Promise<void> {
    // Checked when the store was set up (or restored): not parsed again.
    return this.#loadChecked(this.#world)
  }

  /** Replaces everything with a world already checked by {@link worldSchema}. */
  #loadChecked(world: readonly CheckedTenantSpec[]): Promise<void> {
    return this.#enqueue(() => this.#build(world.map((spec) => ({ spec }))))
  }

  /**
   * Replaces everything with a {@link snapshot}: tenants, users, tokens and
   * plants exactly as saved. Tenants listed in `provisioned` come back as
   * provisioned (evictable); the others become the world {@link reset}
   * returns to.
   */
  restore(snapshot: StoreSnapshot, provisioned: readonly string[] = []): Promise<void> {
    const isProvisioned = new Set(provisioned)
    const tenants = snapshot.tenants.map(({ seedPlants, plants, ...tenant }) => ({
      spec: tenantSpecSchema.parse({ ...tenant, plants: seedPlants }),
      plants,
      provisioned: isProvisioned.has(tenant.id),
    }))
    return this.#enqueue(async () => {
      await this.#build(tenants)
      this.#world = tenants.filter((tenant) => !tenant.provisioned).map(({ spec }) => spec)
    })
  }

  /** Adds a tenant with its users, tokens and seeded plants (for provider states and tests). */
  async addTenant(spec: TenantSpec): Promise<void> {
    await this.#settle()
    this.#insert(this.#tenant(tenantSpecSchema.parse(spec)), false)
  }

  /** Removes a tenant with its users, tokens and plants: its tokens stop working at once. */
  removeTenant(tenantId: string): boolean {
    return this.#tenants.remove(tenantId) !== undefined
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
    await this.#settle()
    const tenant = this.#tenant(provisionedTenantSpec(id, tokens, { ...options, expiresAt: answer.expiresAt }))
    const { budget } = this.#tenants
    if (!budget.fits(tenant.plants.bytes)) throw budget.refusal(`a tenant of ${tenant.plants.count()} plants`)
    this.#insert(tenant, true)
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
    return expired.map(({ id }) => id)
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
   * idle. Returns the evicted ids.
   *
   * @example
   * const evicted = store.makeRoom(100, 600_000) // then provisionTenant
   */
  makeRoom(max: number, idleMs: number): string[] {
    return this.#tenants.makeRoom(max, idleMs, this.#now())
  }

  /**
   * Removes provisioned tenants, least recently used first, until at most
   * `max` remain, however recently they were used: for a cluster replica,
   * whose tenants live on in Redis or in their signed tokens (a single
   * sandbox uses {@link makeRoom}). The world's tenants are never evicted.
   * Returns the evicted ids.
   */
  evictIdle(max: number): string[] {
    return this.#tenants.evictIdle(max)
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
    const tenant = this.#tenant(tenantSpecSchema.parse(spec), options.plants)
    await this.#settle()
    this.removeTenant(tenant.id)
    this.#insert(tenant, options.provisioned)
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

  /** Runs a load, reset or restore after the ones before it; requests wait while any is under way. */
  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#pending++
    const run = this.#queue
      .catch(() => undefined)
      .then(task)
      .finally(() => {
        this.#pending--
      })
    this.#queue = run
    return run
  }

  /** Waits for loads under way, without failing when the last one failed. */
  #settle(): Promise<void> {
    return this.#queue.catch(() => undefined)
  }

  /** Builds a whole new state aside, then swaps it in. */
  async #build(
    tenants: ReadonlyArray<{ spec: CheckedTenantSpec; plants?: readonly StoredPlant[]; provisioned?: boolean }>,
  ): Promise<void> {
    const previous = this.#tenants
    this.#tenants = new Tenants(this.#plantBytes)
    try {
      for (const { spec, plants, provisioned = false } of tenants) {
        this.#insert(this.#tenant(spec, plants), provisioned)
      }
      this.#failure = undefined
    } catch (error) {
      this.#tenants = previous
      throw error
    }
  }

  /** Creates a tenant from its spec, with `plants` or else its seeded (or exact) plants. */
  #tenant(spec: CheckedTenantSpec, plants?: readonly StoredPlant[]): Tenant {
    return buildTenant(spec, { generatePlants: this.#generatePlants, defaultQuota: this.defaultQuota }, plants)
  }

  #insert(tenant: Tenant, provisioned: boolean): void {
    this.#tenants.insert(tenant, { provisioned, now: this.#now() })
  }
}
