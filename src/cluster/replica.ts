/**
 * One replica of a sandbox cluster: provisions tenants without storing them
 * (signed tokens), materialises a tenant on its first request, and with
 * Redis claims it, writes every change through before answering and drops
 * it when another replica claims it.
 *
 * Every provisioned tenant has a lifetime ({@link defaultClusterTenantTtlSeconds}
 * unless `ttlSeconds` says, at most `maxTenantTtlSeconds`): its tokens carry
 * it, its Redis keys expire with it. A tenant this replica stops serving
 * (handed over, evicted, deleted, expired) is forgotten here, journal and
 * fault rules included ({@link Replica.onRelease}).
 */
import type { Logger } from 'pino'
import { bearerToken } from '../core/auth.ts'
import type { PlantStoreHandler } from '../core/core.ts'
import { challenge, invalidRequest, PlantStoreError, renderError } from '../core/errors.ts'
import { provisionedTenant, provisionedTenantSpec } from '../core/sandbox-tenants.ts'
import type { StoredPlant } from '../core/schemas.ts'
import {
  fromSnapshot,
  type PlantStore,
  type ProvisionedTenant,
  type ProvisionOptions,
  type StoreChange,
} from '../core/store.ts'
import { worldOwner } from '../core/tenants.ts'
import type { FaultRules, SavedFaultRule } from '../faults/fault-rules.ts'
import { clientOf } from '../server/admin/provisioning-rate.ts'
import { maxTenantTtlSeconds } from '../server/admin/tenant-recipe.ts'
import { defaultRedisBytesTotal } from './redis-budget.ts'
import { RedisTenants, storageUnavailable, type TenantChange, TenantMovedError } from './redis-tenants.ts'
import { type SignedToken, type TenantRecipe, TenantTokens } from './tenant-tokens.ts'

/**
 * The lifetime of a tenant provisioned in a cluster without `ttlSeconds`: a
 * day, which is also the longest allowed. Its tokens, its Redis keys and (once
 * deleted) its tombstone all end with it.
 *
 * @example
 * defaultClusterTenantTtlSeconds // 86_400
 */
export const defaultClusterTenantTtlSeconds = maxTenantTtlSeconds

/** How replicas share tenants: the secret that signs tokens, and optionally Redis. */
export interface ClusterOptions {
  /** The secret every replica shares (at least 16 characters): it signs provisioned tenants' tokens. */
  secret: string
  /** Keep tenants in this Redis (`redis://127.0.0.1:6379`): write-through, and takeover by another replica. */
  redisUrl?: string
  /**
   * Bytes all tenants may keep in Redis together (default {@link defaultRedisBytesTotal}); one client's
   * tenants their `clientShare` of it, and tenants idle for `tenantIdleMs` make room (see `redis-budget.ts`).
   */
  redisBytesTotal?: number | undefined
}

/**
 * A replica's part of the cluster. Create it with {@link Replica.join} before
 * the store and the fault rules (they need {@link persist} and
 * {@link persistFaults}), then {@link attach} them.
 *
 * @example
 * const replica = await Replica.join({ secret, redisUrl: 'redis://127.0.0.1:6379' })
 * const store = createPlantStore({ persist: replica.persist })
 * const faults = new FaultRules({ persist: replica.persistFaults })
 * replica.attach(store, faults)
 * const api = replica.guard(createCore(store))
 */
export class Replica {
  readonly #tokens: TenantTokens
  readonly #redis: RedisTenants | undefined
  readonly #log: Logger | undefined
  readonly #maxTenants: number
  #store: PlantStore | undefined
  #faults: FaultRules | undefined
  /** Tenants this replica serves now: claimed in Redis, or materialised when there is no Redis. */
  readonly #ready = new Set<string>()
  /** Claims and materialisations under way, by tenant. */
  readonly #pending = new Map<string, Promise<void>>()
  /** Tenants made from their tokens' recipe here (dropped from memory when another replica claims them). */
  readonly #fromRecipe = new Set<string>()
  /**
   * Tenants deleted through this replica, with when their tokens expire (epoch ms): until then their signed
   * tokens no longer make them here (Redis keeps this for all). Dropped once the tokens have expired.
   */
  readonly #deleted = new Map<string, number>()
  /** Told of each tenant this replica stops serving. */
  readonly #releaseListeners = new Set<(tenantId: string) => void>()

  private constructor(tokens: TenantTokens, redis: RedisTenants | undefined, log: Logger | undefined, max: number) {
    this.#tokens = tokens
    this.#redis = redis
    this.#log = log
    this.#maxTenants = max
  }

  /** Joins the cluster: checks the secret and, with a Redis URL, connects to Redis. */
  static async join(
    options: ClusterOptions,
    context: { eventLog?: Logger; maxTenants?: number; clientShare?: number; tenantIdleMs?: number } = {},
  ): Promise<Replica> {
    const tokens = new TenantTokens(options.secret)
    const log = context.eventLog
    let replica: Replica | undefined
    const redis = options.redisUrl
      ? RedisTenants.connect(options.redisUrl, {
          onClaimed: (tenantId) => {
            if (replica) replica.#release(tenantId)
          },
          onUp: () => {
            // Claims announced while we were away were missed: serve nothing from memory before claiming it again.
            if (replica) for (const tenantId of [...replica.#ready]) replica.#release(tenantId)
            log?.info('redis reachable: writes are accepted')
          },
          onDown: (error) => log?.warn({ err: error.message }, 'redis unreachable: writes answer 503 until it is back'),
          budget: {
            bytes: options.redisBytesTotal ?? defaultRedisBytesTotal,
            share: context.clientShare,
            idleMs: context.tenantIdleMs ?? 600_000,
          },
        })
      : undefined
    replica = new Replica(tokens, redis, log, context.maxTenants ?? 100)
    return replica
  }

  /** The store's write-through hook with Redis; `undefined` without (writes stay in memory). */
  get persist(): ((change: StoreChange) => Promise<void>) | undefined {
    return this.#redis && ((change) => this.#write(change))
  }

  /** The fault rules' write-through hook with Redis; `undefined` without. */
  get persistFaults(): ((tenantId: string, rules: readonly SavedFaultRule[]) => Promise<void>) | undefined {
    return this.#redis && ((tenantId, rules) => this.#write({ kind: 'faults', tenantId, rules }))
  }

  /**
   * Whether this replica can serve: without Redis always; with it once it has
   * reached Redis (it claims every tenant there first). `redis` says whether
   * Redis is reachable now: while it is not, writes answer 503 and tenants
   * already served here keep answering reads, so the replica stays ready.
   */
  get readiness(): { ready: boolean; redis?: 'up' | 'down' } {
    if (!this.#redis) return { ready: true }
    return { ready: this.#redis.connectedOnce, redis: this.#redis.available ? 'up' : 'down' }
  }

  /** The store and fault rules this replica serves. */
  attach(store: PlantStore, faults?: FaultRules): void {
    this.#store = store
    this.#faults = faults
  }

  /**
   * Calls `listener` with each tenant this replica stops serving: another
   * replica claimed it, it was evicted beyond `--max-tenants`, deleted, or
   * expired, or Redis was lost (claims may have been missed). Its plants and
   * fault rules are gone from memory by then; the sandbox forgets the rest
   * there (its journal), as it does for a tenant removed in a single sandbox.
   *
   * @example
   * replica.onRelease((tenantId) => journal.forget(tenantId))
   */
  onRelease(listener: (tenantId: string) => void): void {
    this.#releaseListeners.add(listener)
  }

  /**
   * A new tenant from its recipe, stored nowhere: its tokens are signed and
   * carry the recipe (and expiry), so whichever replica its requests reach
   * can make it. Exact plants do not fit in a token: with Redis they are
   * written there (claimed by this replica) before the tenant is answered;
   * without Redis they are refused (400).
   */
  async provisionTenant(options: ProvisionOptions): Promise<ProvisionedTenant> {
    if (typeof options.plants !== 'number' && !this.#redis) {
      throw invalidRequest(
        'A sandbox cluster without Redis provisions tenants from {"plants": n, "seed": s}: exact plants need --redis-url.',
      )
    }
    const store = this.#attached()
    const { seed } = options
    const ttlMs = options.ttlMs ?? defaultClusterTenantTtlSeconds * 1000
    // In whole seconds (tokens carry seconds), from one clock read: at least the lifetime asked for, but never past
    // the longest one (a day) from now, so that no key of it in Redis (PEXPIREAT this instant) outlives the maximum.
    const now = Date.now()
    const expiresAt = Math.min(Math.ceil((now + ttlMs) / 1000), Math.floor((now + maxTenantTtlSeconds * 1000) / 1000))
    const recipe: TenantRecipe = {
      tenant: this.#tokens.newTenantId(),
      seed,
      plants: typeof options.plants === 'number' ? options.plants : 'exact',
      quota: options.quota ?? store.defaultQuota,
      expiresAt,
    }
    const tokens = this.#tokens.issue(recipe)
    if (typeof options.plants !== 'number') {
      try {
        const owner = options.owner ?? 'unknown'
        await this.#materialise(
          { tenantId: recipe.tenant, signed: { ...recipe, access: 'write' }, owner },
          options.plants,
        )
      } catch (error) {
        this.#release(recipe.tenant)
        throw error
      }
    }
    return provisionedTenant(recipe.tenant, tokens, options, expiresAt * 1000)
  }

  /**
   * Wraps a handler so that the caller's tenant is served here before the
   * handler runs: made from its signed token's recipe, or (with Redis) claimed
   * and loaded as Redis holds it. A tenant this replica already serves costs
   * one lookup. When Redis cannot be reached for a tenant not yet served
   * here, the answer is 503 with `Retry-After`.
   */
  guard(handler: PlantStoreHandler): PlantStoreHandler {
    return (request) => {
      const caller = this.#callerOf(request.header('authorization'))
      // A signed token the store does not hold: its tenant is not in memory (never made here, or evicted).
      if (caller === undefined || (!caller.signed && this.#ready.has(caller.tenantId))) return handler(request)
      const expiresAt = caller.signed?.expiresAt
      if (expiresAt !== undefined && expiresAt * 1000 <= Date.now()) {
        this.#release(caller.tenantId)
        return renderError(
          new PlantStoreError('invalid_token', 'The access token has expired.', {
            'www-authenticate': challenge('invalid_token'),
          }),
        )
      }
      return this.#serve(caller, request.client).then(
        () => handler(request),
        (error: unknown) => renderError(error),
      )
    }
  }

  /**
   * Deletes a tenant for good: in Redis first (a tombstone: its tokens can no
   * longer bring it back on any replica), then from memory. Without Redis only
   * this replica remembers the deletion. Called by `DELETE
   * /__sandbox/tenants/{id}` before it answers.
   */
  async deleteTenant(tenantId: string): Promise<void> {
    await this.#redis?.deleteTenant(tenantId)
    const now = Date.now()
    for (const [deleted, expiresAt] of this.#deleted) if (expiresAt <= now) this.#deleted.delete(deleted)
    this.#deleted.set(tenantId, this.#tokensExpiry(tenantId) ?? now + maxTenantTtlSeconds * 1000)
    this.#release(tenantId)
    this.#store?.removeTenant(tenantId)
  }

  /** Disconnects from Redis. */
  async close(): Promise<void> {
    await this.#redis?.close()
  }

  /** When a tenant's tokens stop working (epoch ms), as the store holds them; `undefined` if unknown or never. */
  #tokensExpiry(tenantId: string): number | undefined {
    const users = this.#store?.tenantSnapshot(tenantId)?.users ?? []
    const expiries = users.flatMap(({ tokens }) =>
      tokens.map(({ expiresAt }) => (expiresAt ? Date.parse(expiresAt) : Infinity)),
    )
    const latest = Math.max(...expiries)
    return Number.isFinite(latest) ? latest : undefined
  }

  /** The tenant of a bearer token (the core's one parser reads the header), and its recipe when the token is signed. */
  #callerOf(authorization: string | null): { tenantId: string; signed?: SignedToken } | undefined {
    const token = bearerToken(authorization)
    if (!token) return undefined
    const store = this.#attached()
    if (store.settled) {
      try {
        return { tenantId: store.resolveToken(token).tenantId }
      } catch {
        // Not a token the store holds (yet): maybe a signed one.
      }
    }
    const signed = this.#tokens.verify(token)
    if (!signed || this.#deleted.has(signed.tenant)) return undefined
    return { tenantId: signed.tenant, signed }
  }

  /** Serves the caller's tenant here; the client's address (`client`) is who a tenant new to memory or Redis is charged to. */
  #serve(caller: { tenantId: string; signed?: SignedToken }, client: string | undefined): Promise<void> {
    const { tenantId } = caller
    let pending = this.#pending.get(tenantId)
    if (!pending) {
      const owner = caller.signed ? clientOf(client) : worldOwner
      pending = this.#materialise({ ...caller, owner }).finally(() => this.#pending.delete(tenantId))
      this.#pending.set(tenantId, pending)
    }
    return pending
  }

  /**
   * Makes the caller's tenant served here: from its recipe (or the exact
   * `plants` being provisioned) and, with Redis, claimed and loaded as Redis
   * holds it, with its fault rules.
   */
  async #materialise(
    { tenantId, signed, owner }: { tenantId: string; signed?: SignedToken | undefined; owner?: string | undefined },
    plants?: readonly StoredPlant[],
  ): Promise<void> {
    const store = this.#attached()
    const fromRecipe = signed !== undefined || this.#fromRecipe.has(tenantId)
    const make = async () => {
      // A tenant of exact plants is only made while it is provisioned: afterwards Redis holds it.
      if (!signed || store.hasTenant(tenantId) || (signed.plants === 'exact' && !plants)) return
      const expiresAt = new Date(signed.expiresAt * 1000).toISOString()
      const recipe = { ...signed, plants: plants ?? (signed.plants as number), expiresAt }
      await store.putTenant(provisionedTenantSpec(tenantId, this.#tokens.issue(signed), recipe), {
        provisioned: true,
        owner,
      })
      this.#fromRecipe.add(tenantId)
      this.#evict()
    }
    const redis = this.#redis
    if (!redis) {
      await make()
      this.#ready.add(tenantId)
      return
    }
    let claim = await redis.claim(tenantId, undefined, undefined, owner)
    if (claim.status === 'unknown') {
      await make()
      const held = store.tenantSnapshot(tenantId)
      if (!held) return
      if (!signed) {
        // A world tenant Redis no longer holds (idle for a day) starts again from its seeded plants, whatever an
        // earlier claim left in this replica's memory.
        await store.putTenant(fromSnapshot(held).spec, { provisioned: false, owner })
      }
      const initial = signed ? held : store.tenantSnapshot(tenantId)
      claim = await redis.claim(tenantId, initial, signed && signed.expiresAt * 1000, owner)
    }
    if (claim.status === 'deleted' || claim.status === 'expired') {
      this.#release(tenantId)
      store.removeTenant(tenantId)
      return
    }
    if (claim.status === 'claimed') {
      const { spec, plants: held, memory } = fromSnapshot(claim.tenant)
      await store.putTenant(spec, { plants: held, memory, provisioned: fromRecipe, owner })
      this.#faults?.restore(tenantId, claim.faults)
      if (fromRecipe) this.#fromRecipe.add(tenantId)
      this.#ready.add(tenantId)
      this.#log?.debug({ tenant: tenantId, plants: claim.tenant.plants.length }, 'tenant claimed')
    }
    this.#evict()
  }

  /** Writes a change through to Redis; a tenant claimed by another replica meanwhile is dropped here (503). */
  async #write(change: TenantChange): Promise<void> {
    try {
      await this.#redis?.write(change)
    } catch (error) {
      if (!(error instanceof TenantMovedError)) throw error
      this.#release(change.tenantId)
      throw storageUnavailable('The tenant has just moved to another replica; nothing changed. Try again.', 0)
    }
  }

  /**
   * Keeps at most `maxTenants` tenants made from recipes in memory, the least recently used go first, and
   * forgets those the store has removed meanwhile (expired).
   */
  #evict(): void {
    const store = this.#attached()
    for (const tenantId of store.evictIdle(this.#maxTenants)) this.#release(tenantId)
    for (const tenantId of this.#fromRecipe) if (!store.hasTenant(tenantId)) this.#release(tenantId)
  }

  /**
   * Stops serving a tenant from memory: another replica claimed it, or it was evicted, deleted or expired.
   * Its plants (if made here from a recipe) and fault rules go, and the listeners forget the rest.
   */
  #release(tenantId: string): void {
    this.#ready.delete(tenantId)
    this.#faults?.clear(tenantId)
    if (this.#fromRecipe.delete(tenantId)) this.#store?.removeTenant(tenantId)
    for (const listener of this.#releaseListeners) listener(tenantId)
  }

  #attached(): PlantStore {
    if (!this.#store) throw new Error('Replica.attach(store) was not called')
    return this.#store
  }
}
