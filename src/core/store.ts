import { Collection } from '@msw/data'
import { contract } from '../generated/contract.ts'
import { fingerprint, timingSafeEqual } from './digest.ts'
import { challenge, PlantStoreError } from './errors.ts'
import { Garden } from './garden.ts'
import {
  type Scope,
  type StoredPlant,
  type Tenant,
  type Token,
  tenantSchema,
  tokenSchema,
  type User,
  userSchema,
} from './schemas.ts'

/** Generates the seeded plants of a tenant: the same seed and count always give the same plants. */
export type PlantGenerator = (seed: number, count: number) => StoredPlant[]

/** A token as a world description gives it. */
export interface TokenSpec {
  token: string
  scopes: readonly Scope[]
  expiresAt: string | null
}

/** A user as a world description gives it. */
export interface UserSpec {
  id: string
  name: string
  tokens: TokenSpec[]
}

/** A tenant as a world description gives it: its users, and the recipe of its plants. */
export interface TenantSpec {
  id: string
  name: string
  seed: number
  plants: number
  quota?: number
  users: UserSpec[]
}

/** The JSON form of a whole store, in a stable order. */
export interface StoreSnapshot {
  tenants: Array<Tenant & { users: Array<User & { tokens: Array<Omit<Token, 'userId'>> }>; plants: StoredPlant[] }>
}

/** A tenant provisioned at run time (e.g. one per CI job), with its fresh tokens. */
export interface ProvisionedTenant {
  readonly tenant: string
  readonly tokens: { readonly read: string; readonly write: string }
  readonly plants: number
  readonly seed: number
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
  /** The tenants to start with; {@link PlantStore.reset} returns to them. */
  world?: readonly TenantSpec[]
  /** Plants a tenant may hold unless its spec says otherwise (default from the contract: 10,000). */
  quota?: number
  /** The clock tokens expire against (default `Date.now`). */
  now?: () => number
}

type TokenRecord = ReturnType<Collection<typeof tokenSchema>['all']>[number]

/** A tenant and its plants. */
interface Plot {
  readonly tenant: Tenant
  readonly garden: Garden
}

/**
 * The Plant Store's data: tenants, users and tokens in `@msw/data`
 * collections, and each tenant's plants in a collection of its own, so the
 * cost of listing or deleting grows with the caller's tenant, not with the
 * whole store. Knows nothing of HTTP.
 *
 * @example
 * const store = new PlantStore({ generatePlants })
 * await store.addTenant({ id: 't1', name: 'Acme', seed: 1, plants: 5, users: [] })
 * store.listPlants('t1', 10)
 */
export class PlantStore {
  readonly tenants = new Collection({ schema: tenantSchema })
  readonly users = new Collection({ schema: userSchema })
  readonly tokens = new Collection({ schema: tokenSchema })

  readonly #plots = new Map<string, Plot>()
  readonly #tokensByFingerprint = new Map<number, TokenRecord>()
  readonly #tenantOfUser = new Map<string, string>()
  readonly #generatePlants: PlantGenerator
  readonly #now: () => number
  readonly defaultQuota: number
  #world: readonly TenantSpec[] = []
  /** Provisioned tenants, least recently used first, with when each was last used. */
  readonly #idle = new Map<string, number>()
  #loading: Promise<void> = Promise.resolve()
  #pendingLoads = 0

  constructor(options: PlantStoreOptions) {
    this.#generatePlants = options.generatePlants
    this.#now = options.now ?? Date.now
    this.defaultQuota = options.quota ?? contract.defaultQuota
    if (options.world) {
      this.load(options.world).catch((error: unknown) => {
        console.error('[plant-store-mock] the initial world failed to load:', error)
      })
    }
  }

  /** Settles once the latest {@link load} (or the initial world) is in place. */
  get ready(): Promise<void> {
    return this.#loading
  }

  /**
   * Replaces everything with these tenants and makes them the state that
   * {@link reset} returns to. Requests wait until it is done.
   */
  load(world: readonly TenantSpec[]): Promise<void> {
    this.#pendingLoads++
    const loading = this.#loading.then(async () => {
      for (const tenantId of [...this.#plots.keys()]) await this.removeTenant(tenantId)
      this.#world = world
      for (const spec of world) await this.addTenant(spec)
    })
    // A failed load must not wedge every later request: keep the error for this caller only.
    this.#loading = loading
      .catch(() => undefined)
      .finally(() => {
        this.#pendingLoads--
      })
    return loading
  }

  /** Puts the whole store back to the world it was last loaded with. */
  reset(): Promise<void> {
    return this.load(this.#world)
  }

  /** Adds a tenant with its users, tokens and seeded plants. */
  async addTenant(spec: TenantSpec): Promise<Tenant> {
    if (this.#plots.has(spec.id)) throw new Error(`Tenant "${spec.id}" already exists`)
    const tenant = await this.tenants.create({
      id: spec.id,
      name: spec.name,
      seed: spec.seed,
      seedPlants: spec.plants,
      quota: spec.quota ?? this.defaultQuota,
    })
    this.#plots.set(spec.id, { tenant, garden: new Garden() })
    for (const user of spec.users) {
      await this.users.create({ id: user.id, tenantId: spec.id, name: user.name })
      this.#tenantOfUser.set(user.id, spec.id)
      for (const token of user.tokens) await this.addToken({ ...token, scopes: [...token.scopes], userId: user.id })
    }
    await this.#seed(spec.id)
    return tenant
  }

  /** Issues a token for an existing user. */
  async addToken(token: Token): Promise<void> {
    if (!this.#tenantOfUser.has(token.userId)) throw new Error(`User "${token.userId}" does not exist`)
    const record = await this.tokens.create(token)
    this.#tokensByFingerprint.set(fingerprint(token.token), record)
  }

  /** Removes a tenant with its users, tokens and plants. */
  async removeTenant(tenantId: string): Promise<boolean> {
    if (!this.#plots.delete(tenantId)) return false
    this.#idle.delete(tenantId)
    this.tenants.delete((q) => q.where({ id: tenantId }))
    const users = this.users.deleteMany((q) => q.where({ tenantId }))
    for (const user of users) {
      this.#tenantOfUser.delete(user.id)
      const tokens = this.tokens.deleteMany((q) => q.where({ userId: user.id }))
      for (const token of tokens) this.#tokensByFingerprint.delete(fingerprint(token.token))
    }
    return true
  }

  /**
   * Resolves a presented token to its principal. Throws `invalid_token` for
   * an unknown or expired token.
   */
  async authenticate(token: string): Promise<Principal> {
    await this.#loading
    return this.resolveToken(token)
  }

  /** Whether no {@link load} is under way, so reads see a settled store. */
  get settled(): boolean {
    return this.#pendingLoads === 0
  }

  /**
   * {@link authenticate} without waiting for a load under way: for callers
   * that checked {@link settled} (the request path stays synchronous then).
   */
  resolveToken(token: string): Principal {
    const record = this.#tokensByFingerprint.get(fingerprint(token))
    const tenantId = record && timingSafeEqual(record.token, token) ? this.#tenantOfUser.get(record.userId) : undefined
    if (!record || !tenantId) throw invalidToken('The access token is not recognised.')
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= this.#now()) {
      throw invalidToken('The access token has expired.')
    }
    if (this.#idle.has(tenantId)) {
      // Move to the end: the map stays ordered from least to most recently used.
      this.#idle.delete(tenantId)
      this.#idle.set(tenantId, this.#now())
    }
    return { tenantId, userId: record.userId, scopes: record.scopes }
  }

  /**
   * Creates a fresh, isolated tenant with a random id and random read and
   * write tokens, seeded with `plants` plants from `seed`. Unlike the world's
   * tenants it can be evicted by {@link evictIdle}, and a whole-store
   * {@link reset} removes it.
   */
  async provisionTenant(options: { plants: number; seed: number; quota?: number }): Promise<ProvisionedTenant> {
    await this.#loading
    const id = `t_${randomToken(12)}`
    const tokens = { read: `psm_${randomToken(24)}`, write: `psm_${randomToken(24)}` }
    await this.addTenant({
      id,
      name: `Provisioned tenant ${id}`,
      seed: options.seed,
      plants: options.plants,
      ...(options.quota === undefined ? {} : { quota: options.quota }),
      users: [
        {
          id: `${id}.write`,
          name: 'CI gardener',
          tokens: [{ token: tokens.write, scopes: ['plants:read', 'plants:write'], expiresAt: null }],
        },
        {
          id: `${id}.read`,
          name: 'CI visitor',
          tokens: [{ token: tokens.read, scopes: ['plants:read'], expiresAt: null }],
        },
      ],
    })
    this.#idle.set(id, this.#now())
    return { tenant: id, tokens, plants: options.plants, seed: options.seed }
  }

  /** The provisioned tenants, least recently used first. */
  provisionedTenants(): string[] {
    return [...this.#idle.keys()]
  }

  /** When a provisioned tenant was created or last authenticated (epoch ms); `undefined` for others. */
  lastUsed(tenantId: string): number | undefined {
    return this.#idle.get(tenantId)
  }

  /**
   * Removes provisioned tenants, least recently used first, until at most
   * `max` remain. The world's tenants are never evicted. Returns the evicted ids.
   */
  async evictIdle(max: number): Promise<string[]> {
    const evicted: string[] = []
    for (const tenantId of this.#idle.keys()) {
      if (this.#idle.size <= max) break
      await this.removeTenant(tenantId)
      evicted.push(tenantId)
    }
    return evicted
  }

  /**
   * Replaces everything with a {@link snapshot}: tenants, users, tokens and
   * plants exactly as saved. Tenants listed in `provisioned` come back as
   * provisioned (evictable); the others become the world {@link reset}
   * returns to. Requests wait until it is done.
   */
  restore(snapshot: StoreSnapshot, provisioned: readonly string[] = []): Promise<void> {
    const isProvisioned = new Set(provisioned)
    const specs = snapshot.tenants.map(
      (tenant): TenantSpec => ({
        id: tenant.id,
        name: tenant.name,
        seed: tenant.seed,
        plants: tenant.seedPlants,
        quota: tenant.quota,
        users: tenant.users.map((user) => ({ id: user.id, name: user.name, tokens: user.tokens })),
      }),
    )
    this.#pendingLoads++
    const restoring = this.#loading.then(async () => {
      for (const tenantId of [...this.#plots.keys()]) await this.removeTenant(tenantId)
      this.#world = specs.filter((spec) => !isProvisioned.has(spec.id))
      for (const [index, spec] of specs.entries()) {
        await this.addTenant(spec)
        const garden = this.#plot(spec.id).garden
        garden.clear()
        for (const plant of snapshot.tenants[index]?.plants ?? []) await garden.add(plant)
        if (isProvisioned.has(spec.id)) this.#idle.set(spec.id, this.#now())
      }
    })
    this.#loading = restoring
      .catch(() => undefined)
      .finally(() => {
        this.#pendingLoads--
      })
    return restoring
  }

  /** The tenant's plants in creation order, at most `limit` of them. */
  listPlants(tenantId: string, limit?: number): StoredPlant[] {
    return this.#plot(tenantId).garden.list(limit)
  }

  /** Number of plants the tenant holds. */
  countPlants(tenantId: string): number {
    return this.#plot(tenantId).garden.size
  }

  /**
   * Stores a validated plant in the tenant. Throws `conflict` when the id is
   * taken and `quota_exceeded` when the tenant is full; nothing changes then.
   */
  async addPlant(tenantId: string, plant: StoredPlant): Promise<StoredPlant> {
    const { tenant, garden } = this.#plot(tenantId)
    if (garden.has(plant.id)) {
      throw new PlantStoreError('conflict', `A plant with id ${plant.id} already exists.`)
    }
    const quota = tenant.quota
    if (garden.size >= quota) {
      throw new PlantStoreError(
        'quota_exceeded',
        `The tenant already holds its quota of ${quota} plants; delete some before adding more.`,
      )
    }
    return garden.add(plant)
  }

  /** Deletes the plant with this id from the tenant; `false` when it has none. */
  deletePlant(tenantId: string, id: number): boolean {
    return this.#plot(tenantId).garden.delete(id)
  }

  /** Puts one tenant's plants back to its seeded state. */
  async resetTenant(tenantId: string): Promise<void> {
    await this.#seed(tenantId)
  }

  /** Whether a tenant exists. */
  hasTenant(tenantId: string): boolean {
    return this.#plots.has(tenantId)
  }

  /** The whole store as JSON-ready data, tenants in creation order. */
  snapshot(): StoreSnapshot {
    return {
      tenants: this.tenants.all().map((tenant) => ({
        ...tenant,
        users: this.users
          .findMany((q) => q.where({ tenantId: tenant.id }))
          .map((user) => ({
            ...user,
            tokens: this.tokens
              .findMany((q) => q.where({ userId: user.id }))
              .map(({ token, scopes, expiresAt }) => ({ token, scopes: [...scopes], expiresAt })),
          })),
        plants: this.listPlants(tenant.id).map(({ id, name, tag }) =>
          tag === undefined ? { id, name } : { id, name, tag },
        ),
      })),
    }
  }

  async #seed(tenantId: string): Promise<void> {
    const { tenant, garden } = this.#plot(tenantId)
    garden.clear()
    for (const plant of this.#generatePlants(tenant.seed, tenant.seedPlants)) await garden.add(plant)
  }

  #plot(tenantId: string): Plot {
    const plot = this.#plots.get(tenantId)
    if (!plot) throw new Error(`Tenant "${tenantId}" does not exist`)
    return plot
  }
}

/** `bytes` random bytes as base64url: valid RFC 6750 token characters. */
function randomToken(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes))
  let binary = ''
  for (const byte of buffer) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')
}

function invalidToken(message: string): PlantStoreError {
  return new PlantStoreError('invalid_token', message, { 'www-authenticate': challenge('invalid_token') })
}
