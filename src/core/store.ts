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
  #loading: Promise<void> = Promise.resolve()

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
    const loading = this.#loading.then(async () => {
      for (const tenantId of [...this.#plots.keys()]) await this.removeTenant(tenantId)
      this.#world = world
      for (const spec of world) await this.addTenant(spec)
    })
    // A failed load must not wedge every later request: keep the error for this caller only.
    this.#loading = loading.catch(() => undefined)
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
    const record = this.#tokensByFingerprint.get(fingerprint(token))
    const tenantId = record && timingSafeEqual(record.token, token) ? this.#tenantOfUser.get(record.userId) : undefined
    if (!record || !tenantId) throw invalidToken('The access token is not recognised.')
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= this.#now()) {
      throw invalidToken('The access token has expired.')
    }
    return { tenantId, userId: record.userId, scopes: record.scopes }
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

function invalidToken(message: string): PlantStoreError {
  return new PlantStoreError('invalid_token', message, { 'www-authenticate': challenge('invalid_token') })
}
