import type { z } from 'zod'
import { contract } from '../generated/contract.ts'
import { challenge, PlantStoreError } from './errors.ts'
import { keyedQueue } from './keyed-queue.ts'
import { randomId } from './random.ts'
import {
  type Scope,
  type StoredPlant,
  type StoreSnapshot,
  scopes,
  type TenantSpec,
  tenantSpecSchema,
  toPlant,
  type UserSpec,
  worldSchema,
} from './schemas.ts'
import { type PlantQueries, TenantPlants } from './tenant-plants.ts'

/** Generates the seeded plants of a tenant: the same seed and count always give the same plants. */
export type PlantGenerator = (seed: number, count: number) => StoredPlant[]

/** A tenant provisioned at run time (e.g. one per CI job), with its fresh tokens. */
export interface ProvisionedTenant {
  readonly tenant: string
  readonly tokens: { readonly read: string; readonly write: string }
  /** How many plants it starts with. */
  readonly plants: number
  /** The seed its plants were generated from; absent when it was given exact plants. */
  readonly seed?: number
  /** The plants it may hold, when the request asked for a quota of its own. */
  readonly quota?: number
  /** ISO 8601 instant its tokens stop working and it is removed; absent when it has no time-to-live. */
  readonly expiresAt?: string
}

/** What a provisioned tenant starts with. */
export interface ProvisionOptions {
  /** A count of plants generated from `seed`, or the exact plants. */
  plants: number | readonly StoredPlant[]
  /** The faker seed of a count of plants. */
  seed: number
  /** Plants it may hold (default: the store's quota). */
  quota?: number
  /** Milliseconds until its tokens stop working and {@link PlantStore.removeExpired} removes it. */
  ttlMs?: number
}

/** Who is calling: resolved from a token. */
export interface Principal {
  readonly tenantId: string
  readonly userId: string
  readonly scopes: readonly Scope[]
}

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
   * Writes a change through to durable storage (e.g. Redis) before the store
   * applies it: awaited after the change is validated, with the tenant's other
   * writes waiting; when it rejects, nothing changes and the rejection is the
   * answer. Without it, writes only change memory (as they always have).
   */
  persist?: (change: StoreChange) => Promise<void>
}

/** A tenant exactly as a snapshot holds it: recipe, users, tokens and plants. */
export type TenantSnapshot = StoreSnapshot['tenants'][number]

/** A write to a tenant's plants, as {@link PlantStoreOptions.persist} receives it. */
export type StoreChange =
  | { readonly kind: 'create'; readonly tenantId: string; readonly plant: StoredPlant }
  | { readonly kind: 'delete'; readonly tenantId: string; readonly id: number }
  | { readonly kind: 'reset'; readonly tenantId: string; readonly plants: readonly StoredPlant[] }

/** A tenant as the store holds it. */
interface Tenant {
  readonly id: string
  readonly name: string
  readonly seed: number
  /** What a reset returns to: a count of plants generated from the seed, or exact plants. */
  readonly seedPlants: TenantPlantsSpec
  readonly quota: number
  readonly users: readonly UserSpec[]
  readonly plants: TenantPlants
}

type TenantPlantsSpec = z.output<typeof tenantSpecSchema>['plants']

/** A token as the store indexes it: by its exact string. */
interface IssuedToken {
  readonly principal: Principal
  /** Epoch ms after which it is refused; `Infinity` never. */
  readonly expiresAt: number
}

/** Everything a store holds, replaced as a whole by a load. */
interface State {
  readonly tenants: Map<string, Tenant>
  readonly tokens: Map<string, IssuedToken>
  /** Provisioned tenants, least recently used first: when each was last used (epoch ms on the store's clock). */
  readonly provisioned: Map<string, number>
  /** Provisioned tenants with a time-to-live: when each expires (epoch ms). */
  readonly expiring: Map<string, number>
}

const emptyState = (): State => ({ tenants: new Map(), tokens: new Map(), provisioned: new Map(), expiring: new Map() })

/**
 * The Plant Store's data: tenants, their users' tokens (indexed by the exact
 * token) and each tenant's plants in a map of its own (queried with
 * `@msw/data`), so what a request costs grows with the caller's tenant, not
 * with the store.
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
  readonly #persist: PlantStoreOptions['persist']
  /** A tenant's persisted writes run one after another. */
  readonly #writes = keyedQueue()
  #state: State = emptyState()
  /** What {@link reset} returns to: the world the store was set up with. */
  #world: readonly TenantSpec[] = []
  /** Loads, resets and restores, one after another; settles with the latest. */
  #queue: Promise<void> = Promise.resolve()
  #pending = 0
  /** Why the initial world could not be loaded, until a later load succeeds. */
  #failure: { readonly error: unknown } | undefined
  /** Tokens of tenants removed once their time-to-live passed, oldest first: they still answer "has expired". */
  readonly #expiredTokens = new Set<string>()

  /** Throws at once when `world` is not a valid world; {@link ready} rejects if it cannot be loaded. */
  constructor(options: PlantStoreOptions) {
    this.#generatePlants = options.generatePlants
    this.#now = options.now ?? Date.now
    this.#persist = options.persist
    this.defaultQuota = options.quota ?? contract.defaultQuota
    if (options.world) {
      this.#world = worldSchema.parse(options.world)
      // Reported through `ready` (and to every request); never an unhandled rejection.
      this.#enqueue(() => this.#build(this.#world.map((spec) => ({ spec })))).catch((error: unknown) => {
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
    const specs = worldSchema.parse(world)
    return this.#enqueue(() => this.#build(specs.map((spec) => ({ spec }))))
  }

  /** Puts the whole store back to the world it was set up with, whatever was loaded since. */
  reset(): Promise<void> {
    return this.load(this.#world)
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
    const tenant = this.#state.tenants.get(tenantId)
    if (!tenant) return false
    this.#state.tenants.delete(tenantId)
    this.#state.provisioned.delete(tenantId)
    this.#state.expiring.delete(tenantId)
    for (const user of tenant.users) for (const { token } of user.tokens) this.#state.tokens.delete(token)
    return true
  }

  /**
   * Resolves a presented token to its principal. Throws `invalid_token` for
   * an unknown or expired token. Call it on a {@link settled} store.
   */
  resolveToken(token: string): Principal {
    const issued = this.#state.tokens.get(token)
    if (!issued) {
      throw invalidToken(
        this.#expiredTokens.has(token) ? 'The access token has expired.' : 'The access token is not recognised.',
      )
    }
    const now = this.#now()
    if (issued.expiresAt <= now) throw invalidToken('The access token has expired.')
    const { provisioned } = this.#state
    const { tenantId } = issued.principal
    // To the end, with the time of use: the least recently used stays first.
    if (provisioned.delete(tenantId)) provisioned.set(tenantId, now)
    return issued.principal
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
    const issued = this.#state.tokens.get(token)
    return issued !== undefined && issued.expiresAt > this.#now()
  }

  /**
   * Creates a fresh, isolated tenant with a random id and random read and
   * write tokens, with `plants` plants generated from `seed` or the exact
   * plants given. Unlike the world's tenants it can be evicted by
   * {@link evictIdle}, and a whole-store {@link reset} removes it. With a
   * `ttlMs` its tokens stop working once it has passed.
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
    this.#insert(this.#tenant(provisionedTenantSpec(id, tokens, { ...options, expiresAt: answer.expiresAt })), true)
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
    const now = this.#now()
    const expired = [...this.#state.expiring].filter(([, expiresAt]) => expiresAt <= now).map(([id]) => id)
    for (const tenantId of expired) {
      for (const user of this.#state.tenants.get(tenantId)?.users ?? []) {
        for (const { token } of user.tokens) this.#expiredTokens.add(token)
      }
      this.removeTenant(tenantId)
    }
    // Bounded: the oldest are forgotten first (and then answer "not recognised").
    for (const token of this.#expiredTokens) {
      if (this.#expiredTokens.size <= maxExpiredTokens) break
      this.#expiredTokens.delete(token)
    }
    return expired
  }

  /** When the next provisioned tenant expires (epoch ms), or `undefined` when none has a time-to-live. */
  nextExpiry(): number | undefined {
    return this.#state.expiring.size === 0 ? undefined : Math.min(...this.#state.expiring.values())
  }

  /** Whether a tenant was provisioned at run time (and so may be deleted through the sandbox). */
  isProvisioned(tenantId: string): boolean {
    return this.#state.provisioned.has(tenantId)
  }

  /** The provisioned tenants, least recently used first. */
  provisionedTenants(): string[] {
    return [...this.#state.provisioned.keys()]
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
    const { provisioned } = this.#state
    const idleSince = this.#now() - idleMs
    const evicted: string[] = []
    for (const [tenantId, lastUsed] of provisioned) {
      if (provisioned.size < max || lastUsed > idleSince) break
      this.removeTenant(tenantId)
      evicted.push(tenantId)
    }
    if (provisioned.size < max) return evicted
    const [leastRecent = idleSince] = provisioned.values()
    const retryAfter = Math.max(1, Math.ceil((leastRecent - idleSince) / 1000))
    throw new PlantStoreError(
      'at_capacity',
      `The sandbox holds its maximum of ${max} provisioned tenants, all used in the last ${formatDuration(idleMs)}; ` +
        'none is evicted while in use. Delete tenants you no longer need, or try again later.',
      { 'retry-after': String(retryAfter) },
    )
  }

  /**
   * Removes provisioned tenants, least recently used first, until at most
   * `max` remain, however recently they were used: for a cluster replica,
   * whose tenants live on in Redis or in their signed tokens (a single
   * sandbox uses {@link makeRoom}). The world's tenants are never evicted.
   * Returns the evicted ids.
   */
  evictIdle(max: number): string[] {
    const evicted: string[] = []
    for (const tenantId of this.#state.provisioned.keys()) {
      if (this.#state.provisioned.size <= max) break
      this.removeTenant(tenantId)
      evicted.push(tenantId)
    }
    return evicted
  }

  /** Whether a tenant exists. */
  hasTenant(tenantId: string): boolean {
    return this.#state.tenants.has(tenantId)
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
    return this.#get(tenantId).plants
  }

  /** The tenant's plants in creation order, at most `limit` of them. */
  listPlants(tenantId: string, limit?: number): StoredPlant[] {
    return this.#get(tenantId).plants.list(limit)
  }

  /**
   * A value derived from the tenant's plants, kept until the tenant's next
   * write: e.g. the serialized list, so repeated reads skip the work.
   */
  derive<T>(tenantId: string, key: string, compute: (plants: PlantQueries & Pick<TenantPlants, 'list'>) => T): T {
    const { plants } = this.#get(tenantId)
    return plants.derive(key, () => compute(plants))
  }

  /** Number of plants the tenant holds. */
  countPlants(tenantId: string): number {
    return this.#get(tenantId).plants.count()
  }

  /**
   * Stores a validated plant in the tenant. Throws `conflict` when the id is
   * taken and `quota_exceeded` when the tenant is full; nothing changes then.
   */
  addPlant(tenantId: string, plant: StoredPlant): Promise<StoredPlant> {
    return this.#serially(tenantId, async () => {
      const { quota, plants } = this.#get(tenantId)
      if (plants.has(plant.id)) throw new PlantStoreError('conflict', `A plant with id ${plant.id} already exists.`)
      if (plants.count() >= quota) {
        throw new PlantStoreError(
          'quota_exceeded',
          `The tenant already holds its quota of ${quota} plants; delete some before adding more.`,
        )
      }
      // Only awaited when there is a hook: without one the checks and the write stay in one turn.
      if (this.#persist) await this.#persist({ kind: 'create', tenantId, plant })
      return plants.add(plant)
    })
  }

  /**
   * Deletes the plant with this id from the tenant; answers it, or
   * `undefined` when the tenant has none. At once in memory; a promise when
   * the delete is written through {@link PlantStoreOptions.persist} first.
   */
  deletePlant(tenantId: string, id: number): StoredPlant | undefined | Promise<StoredPlant | undefined> {
    if (!this.#persist) return this.#get(tenantId).plants.delete(id)
    return this.#serially(tenantId, async () => {
      const { plants } = this.#get(tenantId)
      if (!plants.has(id)) return undefined
      await this.#persist?.({ kind: 'delete', tenantId, id })
      return plants.delete(id)
    })
  }

  /** One tenant exactly as it is now (see {@link snapshot}); `undefined` when there is none. */
  tenantSnapshot(tenantId: string): TenantSnapshot | undefined {
    const tenant = this.#state.tenants.get(tenantId)
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

  /**
   * Runs a tenant's persisted writes one after another, so each validates
   * against the one before; without a persist hook, at once.
   */
  #serially<T>(tenantId: string, task: () => Promise<T>): Promise<T> {
    return this.#persist ? this.#writes(tenantId, task) : task()
  }

  /** Puts one tenant's plants back to its seeded state. */
  resetTenant(tenantId: string): Promise<void> {
    return this.#serially(tenantId, async () => {
      const tenant = this.#get(tenantId)
      const reseeded = this.#tenant({ ...tenant, users: [...tenant.users], plants: tenant.seedPlants })
      if (this.#persist) await this.#persist({ kind: 'reset', tenantId, plants: reseeded.plants.list() })
      // Still the same tenant (not removed or replaced meanwhile): swap its plants in.
      if (this.#state.tenants.get(tenantId) === tenant) this.#state.tenants.set(tenantId, reseeded)
    })
  }

  /** The whole store as JSON-ready data, tenants in creation order. */
  snapshot(): StoreSnapshot {
    return { tenants: [...this.#state.tenants.values()].map(snapshotOf) }
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
    tenants: ReadonlyArray<{ spec: TenantSpec; plants?: readonly StoredPlant[]; provisioned?: boolean }>,
  ): Promise<void> {
    const previous = this.#state
    this.#state = emptyState()
    try {
      for (const { spec, plants, provisioned = false } of tenants) {
        this.#insert(this.#tenant(spec, plants), provisioned)
      }
      this.#failure = undefined
    } catch (error) {
      this.#state = previous
      throw error
    }
  }

  /** Creates a tenant from its spec, with `plants` or else its seeded (or exact) plants. */
  #tenant(spec: TenantSpec, plants?: readonly StoredPlant[]): Tenant {
    const { id, name, seed, plants: seedPlants, quota = this.defaultQuota, users } = tenantSpecSchema.parse(spec)
    const tenant: Tenant = { id, name, seed, seedPlants, quota, users, plants: new TenantPlants() }
    const initial = typeof seedPlants === 'number' ? this.#generatePlants(seed, seedPlants) : seedPlants
    for (const plant of plants ?? initial) tenant.plants.add(plant)
    return tenant
  }

  #insert(tenant: Tenant, provisioned: boolean): void {
    const { tenants, tokens } = this.#state
    if (tenants.has(tenant.id)) throw new Error(`Tenant "${tenant.id}" already exists`)
    for (const user of tenant.users) {
      for (const { token } of user.tokens) {
        if (tokens.has(token)) throw new Error(`Token of user "${user.id}" is already issued`)
      }
    }
    tenants.set(tenant.id, tenant)
    let lastExpiry = Number.NEGATIVE_INFINITY
    for (const user of tenant.users) {
      for (const { token, scopes, expiresAt } of user.tokens) {
        const issued = {
          principal: { tenantId: tenant.id, userId: user.id, scopes },
          expiresAt: expiresAt ? Date.parse(expiresAt) : Number.POSITIVE_INFINITY,
        }
        tokens.set(token, issued)
        lastExpiry = Math.max(lastExpiry, issued.expiresAt)
      }
    }
    if (!provisioned) return
    this.#state.provisioned.set(tenant.id, this.#now())
    // A provisioned tenant whose every token expires is removed by `removeExpired` once the last one has.
    if (Number.isFinite(lastExpiry)) this.#state.expiring.set(tenant.id, lastExpiry)
  }

  #get(tenantId: string): Tenant {
    const tenant = this.#state.tenants.get(tenantId)
    if (!tenant) throw new Error(`Tenant "${tenantId}" does not exist`)
    return tenant
  }
}

/** A tenant as a snapshot holds it. */
function snapshotOf({ id, name, seed, seedPlants, quota, users, plants }: Tenant): TenantSnapshot {
  return {
    id,
    name,
    seed,
    seedPlants: typeof seedPlants === 'number' ? seedPlants : seedPlants.map((plant) => ({ ...plant })),
    quota,
    users: users.map((user) => ({
      id: user.id,
      name: user.name,
      tokens: user.tokens.map(({ token, scopes, expiresAt = null }) => ({ token, scopes: [...scopes], expiresAt })),
    })),
    plants: plants.list().map((plant) => ({ id: plant.id, ...toPlant(plant) })),
  }
}

/**
 * What provisioning a tenant answers: its id and tokens, its plants (a count
 * and seed, or how many exact ones) and when it expires (`expiresAt`, epoch
 * ms), if it does.
 *
 * @example
 * provisionedTenant('t_1', { read: 'psm_r', write: 'psm_w' }, { plants: 5, seed: 7 }, undefined)
 * // { tenant: 't_1', tokens: { read: 'psm_r', write: 'psm_w' }, plants: 5, seed: 7 }
 */
export function provisionedTenant(
  tenant: string,
  tokens: ProvisionedTenant['tokens'],
  { plants, seed, quota }: Pick<ProvisionOptions, 'plants' | 'seed' | 'quota'>,
  expiresAt: number | undefined,
): ProvisionedTenant {
  return {
    tenant,
    tokens,
    ...(typeof plants === 'number' ? { plants, seed } : { plants: plants.length }),
    ...(quota === undefined ? {} : { quota }),
    ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
  }
}

/**
 * The spec of a provisioned tenant: a read-write and a read-only user with
 * these tokens, and `plants` plants seeded from `seed`.
 *
 * @example
 * provisionedTenantSpec('t_1', { read: 'psm_r', write: 'psm_w' }, { plants: 5, seed: 7 })
 */
export function provisionedTenantSpec(
  id: string,
  tokens: { readonly read: string; readonly write: string },
  recipe: {
    plants: number | readonly StoredPlant[]
    seed: number
    quota?: number | undefined
    /** ISO 8601 instant its tokens stop working; `null` or absent: never. */
    expiresAt?: string | null
  },
): TenantSpec {
  const expiresAt = recipe.expiresAt ?? null
  return tenantSpecSchema.parse({
    id,
    name: `Provisioned tenant ${id}`,
    seed: recipe.seed,
    plants: recipe.plants,
    quota: recipe.quota,
    users: [
      { id: `${id}.write`, name: 'CI gardener', tokens: [{ token: tokens.write, scopes: [...scopes], expiresAt }] },
      { id: `${id}.read`, name: 'CI visitor', tokens: [{ token: tokens.read, scopes: ['plants:read'], expiresAt }] },
    ],
  })
}

/** Tokens of expired tenants remembered to answer "has expired" (two per provisioned tenant). */
const maxExpiredTokens = 1024

/** `600000` → `10 minutes`, `90000` → `90 seconds`. */
function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds % 60 === 0 && seconds >= 60) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`
  return seconds === 1 ? '1 second' : `${seconds} seconds`
}

function invalidToken(message: string): PlantStoreError {
  return new PlantStoreError('invalid_token', message, { 'www-authenticate': challenge('invalid_token') })
}
