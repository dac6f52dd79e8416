import { PlantBudget, type PlantBudgetOptions } from './plant-budget.ts'
import { type CheckedTenantSpec, type StoredPlant, type StoreSnapshot, type TenantSpec, toPlant } from './schemas.ts'
import { emptyMemory, type TenantMemory } from './tenant-memory.ts'
import { TenantPlants } from './tenant-plants.ts'
import { type Principal, TokenIndex } from './tokens.ts'

/**
 * Generates the seeded plants of a tenant: the same seed and count always
 * give the same plants. It may answer a promise (e.g. while faker loads);
 * the store then waits for it before the tenant appears.
 */
export type PlantGenerator = (seed: number, count: number) => StoredPlant[] | Promise<StoredPlant[]>

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
  /** Milliseconds until its tokens stop working and `PlantStore.removeExpired` removes it. */
  ttlMs?: number
  /**
   * The client it is provisioned for (e.g. `address 127.0.0.1`): its tenants
   * share one client's part of the store's budgets. Default: the tenant alone.
   */
  owner?: string
}

/** A tenant exactly as a snapshot holds it: recipe, users, tokens and plants. */
export type TenantSnapshot = StoreSnapshot['tenants'][number]

/** A tenant as the store holds it. */
export interface Tenant {
  readonly id: string
  readonly name: string
  readonly seed: number
  /** What a reset returns to: a count of plants generated from the seed, or exact plants. */
  readonly seedPlants: CheckedTenantSpec['plants']
  readonly quota: number
  readonly users: CheckedTenantSpec['users']
  /** What a reset returns its memory to: its spec's `memory` (the memory itself is in {@link plants}). */
  readonly seedMemory: TenantMemory
  /** Its plants, and what it remembers now (`plants.memory`). */
  readonly plants: TenantPlants
}

/**
 * Creates a tenant from its checked spec (parsed once, where it came in),
 * with `plants` or else its seeded (or exact) plants, and `memory` or else
 * its spec's; `defaultQuota` unless the spec gives one. At once, unless the
 * generator answers a promise.
 *
 * @example
 * buildTenant(spec, { generatePlants, defaultQuota: 10_000 })
 */
export function buildTenant(
  spec: CheckedTenantSpec,
  { generatePlants, defaultQuota }: { generatePlants: PlantGenerator; defaultQuota: number },
  plants?: Iterable<StoredPlant>,
  memory?: TenantMemory,
): Tenant | Promise<Tenant> {
  const { id, name, seed, plants: seedPlants, quota = defaultQuota, users, memory: seedMemory = emptyMemory } = spec
  const make = (initial: Iterable<StoredPlant>): Tenant => {
    const tenant: Tenant = { id, name, seed, seedPlants, quota, users, seedMemory, plants: new TenantPlants() }
    for (const plant of initial) tenant.plants.add(plant)
    tenant.plants.remember(memory ?? seedMemory)
    return tenant
  }
  if (plants) return make(plants)
  const initial = typeof seedPlants === 'number' ? generatePlants(seed, seedPlants) : seedPlants
  return initial instanceof Promise ? initial.then(make) : make(initial)
}

/** Whose the world's tenants are, for the shares of the sandbox's budgets: one client together. */
export const worldOwner = "the sandbox's world"

/**
 * A store's tenants and their lifecycle: the tenants with the index of their
 * tokens, which of them were provisioned at run time (least recently used
 * first, with when each was last used), and when those with a time-to-live
 * expire. Built aside and swapped in whole by a load. Their expiry and
 * eviction, which only the sandbox runs, are `sandbox-tenants.ts`'s.
 *
 * @example
 * const tenants = new Tenants()
 * tenants.insert(tenant, { provisioned: true, now: Date.now() })
 * tenants.resolve(token, Date.now())
 */
export class Tenants {
  readonly #tenants = new Map<string, Tenant>()
  readonly #tokens = new TokenIndex()
  /** Provisioned tenants, least recently used first: when each was last used (epoch ms on the store's clock). */
  readonly #provisioned = new Map<string, number>()
  /** Provisioned tenants with a time-to-live: when each expires (epoch ms). */
  readonly #expiring = new Map<string, number>()
  /** Whose each tenant is (see {@link ownerOf}). */
  readonly #owners = new Map<string, string>()
  /** What the tenants' plants take in memory together, and may take (see `PlantBudget`). */
  readonly budget: PlantBudget

  /**
   * `maxPlantBytes`: what the tenants' plants may take in memory together
   * (default: no budget); `budget`: one owner's share of it, and what gives
   * room back when it is full.
   */
  constructor(maxPlantBytes?: number | (() => number), budget: PlantBudgetOptions = {}) {
    this.budget = new PlantBudget(maxPlantBytes, budget)
  }

  /**
   * Whose a tenant is, for the shares of the sandbox's budgets: the client
   * that provisioned it (e.g. `address 127.0.0.1`), else a provisioned
   * tenant on its own (`tenant t_…`); the world's tenants are one client
   * together ({@link worldOwner}): their tokens are printed for anyone.
   */
  ownerOf(tenantId: string): string {
    return this.#owners.get(tenantId) ?? `tenant ${tenantId}`
  }

  /** The tenant with this id, if any. */
  find(tenantId: string): Tenant | undefined {
    return this.#tenants.get(tenantId)
  }

  /** The tenant with this id; throws (a programming error, not a client's) when there is none. */
  get(tenantId: string): Tenant {
    const tenant = this.#tenants.get(tenantId)
    if (!tenant) throw new Error(`Tenant "${tenantId}" does not exist`)
    return tenant
  }

  /** Every tenant, in creation order. */
  all(): IterableIterator<Tenant> {
    return this.#tenants.values()
  }

  /** Puts a tenant in the place of the one with its id; its tokens stay as they were issued. */
  replace(tenant: Tenant): void {
    this.#tenants.get(tenant.id)?.plants.detach()
    tenant.plants.attach(this.budget, this.ownerOf(tenant.id))
    this.#tenants.set(tenant.id, tenant)
  }

  /**
   * Adds a tenant and issues its tokens; throws, changing nothing, when its
   * id or one of its tokens is taken. A `provisioned` one counts as used
   * `now`, and is tracked for expiry once every token of it expires. An
   * `owner` (the client that provisioned it) shares its budgets with that
   * owner's other tenants.
   */
  insert(
    tenant: Tenant,
    { provisioned, now, owner }: { provisioned: boolean; now: number; owner?: string | undefined },
  ): void {
    if (this.#tenants.has(tenant.id)) throw new Error(`Tenant "${tenant.id}" already exists`)
    const lastExpiry = this.#tokens.issue(tenant.id, tenant.users)
    this.#tenants.set(tenant.id, tenant)
    this.#owners.set(tenant.id, owner ?? (provisioned ? `tenant ${tenant.id}` : worldOwner))
    tenant.plants.attach(this.budget, this.ownerOf(tenant.id))
    if (!provisioned) return
    this.#provisioned.set(tenant.id, now)
    // A provisioned tenant whose every token expires is removed by `removeExpired` once the last one has.
    if (Number.isFinite(lastExpiry)) this.#expiring.set(tenant.id, lastExpiry)
  }

  /** Removes a tenant with its users, tokens and plants: its tokens stop working at once. */
  remove(tenantId: string): Tenant | undefined {
    const tenant = this.#tenants.get(tenantId)
    if (!tenant) return undefined
    this.#tenants.delete(tenantId)
    this.#provisioned.delete(tenantId)
    this.#expiring.delete(tenantId)
    this.#owners.delete(tenantId)
    this.#tokens.revoke(tenant.users)
    tenant.plants.detach()
    return tenant
  }

  /**
   * The principal of an issued token, counting as a use of its tenant at
   * `now`. Throws `invalid_token` for an expired one; `undefined` for one
   * not issued.
   */
  resolve(token: string, now: number): Principal | undefined {
    const principal = this.#tokens.resolve(token, now)
    // To the end, with the time of use: the least recently used stays first.
    if (principal && this.#provisioned.delete(principal.tenantId)) this.#provisioned.set(principal.tenantId, now)
    return principal
  }

  /** Whether a token is issued and not expired at `now`; not a use of its tenant. */
  isTokenValid(token: string, now: number): boolean {
    return this.#tokens.isValid(token, now)
  }

  /** When the next provisioned tenant expires (epoch ms), or `undefined` when none has a time-to-live. */
  nextExpiry(): number | undefined {
    return this.#expiring.size === 0 ? undefined : Math.min(...this.#expiring.values())
  }

  /** Whether a tenant was provisioned at run time. */
  isProvisioned(tenantId: string): boolean {
    return this.#provisioned.has(tenantId)
  }

  /** The provisioned tenants, least recently used first. */
  provisionedIds(): string[] {
    return [...this.#provisioned.keys()]
  }

  /** Provisioned tenants, least recently used first, with when each was last used (epoch ms on the store's clock). */
  get provisioned(): ReadonlyMap<string, number> {
    return this.#provisioned
  }

  /** Provisioned tenants with a time-to-live, with when each expires (epoch ms). */
  get expiring(): ReadonlyMap<string, number> {
    return this.#expiring
  }
}

/**
 * A tenant as a snapshot holds it.
 *
 * @example
 * snapshotOf(tenants.get('acme')) // { id: 'acme', users: [...], plants: [...], … }
 */
export function snapshotOf({ id, name, seed, seedPlants, quota, users, seedMemory, plants }: Tenant): TenantSnapshot {
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
    seedMemory,
    memory: plants.memory,
  }
}

/**
 * A snapshot's tenant as what puts it back: its spec (its seeded plants and
 * memory, what a reset returns to), exactly its plants and its memory now.
 * The one way every layer that keeps snapshots (the browser's stored world,
 * Redis, version 1 state files) turns one back into a tenant.
 *
 * @example
 * const { spec, plants, memory } = fromSnapshot(store.tenantSnapshot('acme'))
 * await store.putTenant(spec, { plants, memory, provisioned: false })
 */
export function fromSnapshot({
  seedPlants,
  plants,
  seedMemory = emptyMemory,
  memory = emptyMemory,
  ...tenant
}: TenantSnapshot): {
  spec: TenantSpec
  plants: StoredPlant[]
  memory: TenantMemory
} {
  const seeded = Object.keys(seedMemory).length === 0 ? {} : { memory: seedMemory }
  return { spec: { ...tenant, plants: seedPlants, ...seeded }, plants, memory }
}
