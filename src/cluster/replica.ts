/**
 * One replica of a sandbox cluster: provisions tenants without storing them
 * (signed tokens), materialises a tenant on its first request, and with
 * Redis claims it, writes every change through before answering and drops
 * it when another replica claims it.
 */
import type { Logger } from 'pino'
import type { PlantStoreHandler } from '../core/app.ts'
import { invalidRequest, renderError } from '../core/errors.ts'
import {
  type PlantStore,
  type ProvisionedTenant,
  type ProvisionOptions,
  provisionedTenantSpec,
  type StoreChange,
} from '../core/store.ts'
import { RedisTenants, storageUnavailable, TenantMovedError } from './redis-tenants.ts'
import { type SignedToken, TenantTokens } from './tenant-tokens.ts'

/** How replicas share tenants: the secret that signs tokens, and optionally Redis. */
export interface ClusterOptions {
  /** The secret every replica shares (at least 16 characters): it signs provisioned tenants' tokens. */
  secret: string
  /** Keep tenants in this Redis (`redis://127.0.0.1:6379`): write-through, and takeover by another replica. */
  redisUrl?: string
}

/**
 * A replica's part of the cluster. Create it with {@link Replica.join} before
 * the store (the store needs {@link persist}), then {@link attach} the store.
 *
 * @example
 * const replica = await Replica.join({ secret, redisUrl: 'redis://127.0.0.1:6379' })
 * const store = createPlantStore({ persist: replica.persist })
 * replica.attach(store)
 * const api = replica.guard(createCore(store))
 */
export class Replica {
  readonly #tokens: TenantTokens
  readonly #redis: RedisTenants | undefined
  readonly #log: Logger | undefined
  readonly #maxTenants: number
  #store: PlantStore | undefined
  /** Tenants this replica serves now: claimed in Redis, or materialised when there is no Redis. */
  readonly #ready = new Set<string>()
  /** Claims and materialisations under way, by tenant. */
  readonly #pending = new Map<string, Promise<void>>()
  /** Tenants made from their tokens' recipe here (dropped from memory when another replica claims them). */
  readonly #fromRecipe = new Set<string>()
  /** Tenants deleted through this replica: their signed tokens no longer make them (Redis keeps this for all). */
  readonly #deleted = new Set<string>()

  private constructor(tokens: TenantTokens, redis: RedisTenants | undefined, log: Logger | undefined, max: number) {
    this.#tokens = tokens
    this.#redis = redis
    this.#log = log
    this.#maxTenants = max
  }

  /** Joins the cluster: checks the secret and, with a Redis URL, connects to Redis. */
  static async join(
    options: ClusterOptions,
    context: { eventLog?: Logger; maxTenants?: number } = {},
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
        })
      : undefined
    replica = new Replica(tokens, redis, log, context.maxTenants ?? 100)
    return replica
  }

  /** The store's write-through hook with Redis; `undefined` without (writes stay in memory). */
  get persist(): ((change: StoreChange) => Promise<void>) | undefined {
    const redis = this.#redis
    if (!redis) return undefined
    return async (change) => {
      try {
        await redis.write(change)
      } catch (error) {
        if (!(error instanceof TenantMovedError)) throw error
        this.#release(change.tenantId)
        throw storageUnavailable('The tenant has just moved to another replica; nothing changed. Try again.', 0)
      }
    }
  }

  /** The store this replica serves. */
  attach(store: PlantStore): void {
    this.#store = store
  }

  /**
   * A new tenant from its recipe, stored nowhere: its tokens are signed and
   * carry the recipe, so whichever replica its requests reach can make it.
   * Exact plants and a time-to-live do not fit in a token yet: refused (400).
   */
  provision(recipe: ProvisionOptions): ProvisionedTenant {
    if (typeof recipe.plants !== 'number' || recipe.ttlMs !== undefined) {
      throw invalidRequest(
        'A sandbox cluster provisions tenants from {"plants": n, "seed": s} only; exact plants and ttlSeconds need a single sandbox.',
      )
    }
    const tenant = this.#tokens.newTenantId()
    const quota = recipe.quota ?? this.#attached().defaultQuota
    const { seed, plants } = recipe
    return { tenant, tokens: this.#tokens.issue({ tenant, seed, plants, quota }), plants, seed }
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
      return this.#serve(caller).then(
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
    this.#deleted.add(tenantId)
    this.#release(tenantId)
    this.#store?.removeTenant(tenantId)
  }

  /** Disconnects from Redis. */
  async close(): Promise<void> {
    await this.#redis?.close()
  }

  /** The tenant of a bearer token, and its recipe when the token is signed. */
  #callerOf(authorization: string | null): { tenantId: string; signed?: SignedToken } | undefined {
    if (!authorization?.startsWith('Bearer ')) return undefined
    const token = authorization.slice(7).trim()
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

  #serve(caller: { tenantId: string; signed?: SignedToken }): Promise<void> {
    const { tenantId } = caller
    let pending = this.#pending.get(tenantId)
    if (!pending) {
      pending = this.#materialise(caller).finally(() => this.#pending.delete(tenantId))
      this.#pending.set(tenantId, pending)
    }
    return pending
  }

  async #materialise({ tenantId, signed }: { tenantId: string; signed?: SignedToken }): Promise<void> {
    const store = this.#attached()
    const fromRecipe = signed !== undefined || this.#fromRecipe.has(tenantId)
    const redis = this.#redis
    if (!redis) {
      if (signed) await this.#makeFromRecipe(signed)
      this.#ready.add(tenantId)
      return
    }
    let claim = await redis.claim(tenantId, undefined)
    if (claim.status === 'unknown') {
      if (signed && !store.hasTenant(tenantId)) await this.#makeFromRecipe(signed)
      claim = await redis.claim(tenantId, store.tenantSnapshot(tenantId))
    }
    if (claim.status === 'deleted') {
      this.#release(tenantId)
      store.removeTenant(tenantId)
      return
    }
    if (claim.status === 'claimed') {
      await store.replaceTenant(claim.tenant, { provisioned: fromRecipe })
      if (fromRecipe) this.#fromRecipe.add(tenantId)
      this.#ready.add(tenantId)
      this.#log?.debug({ tenant: tenantId, plants: claim.tenant.plants.length }, 'tenant claimed')
    }
    this.#evict()
  }

  async #makeFromRecipe(signed: SignedToken): Promise<void> {
    const store = this.#attached()
    if (store.hasTenant(signed.tenant)) return
    const spec = provisionedTenantSpec(signed.tenant, this.#tokens.issue(signed), signed)
    await store.putTenant(spec, { provisioned: true })
    this.#fromRecipe.add(signed.tenant)
    this.#evict()
  }

  /** Keeps at most `maxTenants` tenants made from recipes in memory, the least recently used go first. */
  #evict(): void {
    for (const tenantId of this.#attached().evictIdle(this.#maxTenants)) this.#release(tenantId)
  }

  /** Stops serving a tenant from memory: another replica claimed it, or it was evicted or deleted. */
  #release(tenantId: string): void {
    this.#ready.delete(tenantId)
    if (this.#fromRecipe.delete(tenantId)) this.#store?.removeTenant(tenantId)
  }

  #attached(): PlantStore {
    if (!this.#store) throw new Error('Replica.attach(store) was not called')
    return this.#store
  }
}
