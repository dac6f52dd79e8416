import { PlantStoreError } from '../../core/errors.ts'

export { clientOf } from '../../core/client-address.ts'

/**
 * The share of the sandbox-wide budgets one client may take, by default: a
 * quarter of the plant bytes, of the provisioned tenants and of the
 * provisioning rate (issue 35, F6). A quarter leaves three quarters to
 * everyone else whatever one client does, while a client alone (a CI
 * runner, a developer) still has room for a large suite; one client with
 * four addresses can fill the sandbox, as four clients can.
 */
export const defaultClientShare = 0.25

/** Tenants all clients together may provision per second, by default. */
export const defaultProvisionRateTotal = 20

/** Client addresses whose buckets are remembered; beyond, full buckets (and then the oldest) are forgotten. */
const maxClients = 10_000

export interface ProvisioningRateOptions {
  /** Tenants one client address may provision per second (default: its `share` of `total`, at least 1). */
  perClient?: number | undefined
  /** Tenants all clients may provision per second (default {@link defaultProvisionRateTotal}). */
  total?: number | undefined
  /**
   * The smallest burst: a full bucket holds the larger of 10 seconds of its
   * rate and this, a client's bucket its `share` of it (default 100; the
   * admin API gives its `maxTenants`, so that a client may fill its share of
   * the sandbox at once).
   */
  minBurst?: number | undefined
  /** The share of `total` (and of `minBurst`) one client may take (default 1: the whole). */
  share?: number | undefined
  /** The clock, in ms (the store's). */
  now: () => number
}

/** A token bucket: `rate` tokens a second, at most `capacity`, refilled on read. */
export class TokenBucket {
  readonly rate: number
  readonly capacity: number
  #tokens: number
  #at: number
  constructor(rate: number, capacity: number, now: number) {
    this.rate = rate
    this.capacity = capacity
    this.#tokens = capacity
    this.#at = now
  }

  /** The tokens there are at `now`. */
  tokens(now: number): number {
    if (now > this.#at) {
      this.#tokens = Math.min(this.capacity, this.#tokens + ((now - this.#at) / 1000) * this.rate)
      this.#at = now
    }
    return this.#tokens
  }

  take(): void {
    this.#tokens -= 1
  }

  /** Whole seconds until a token is there (at least 1). */
  secondsToNext(now: number): number {
    return Math.max(1, Math.ceil((1 - this.tokens(now)) / this.rate))
  }
}

/**
 * The rate of anonymous provisioning (issue 27, L4): a token bucket per
 * client address and one for all clients; a provisioning takes a token from
 * both, and is refused with 429 and `Retry-After` when either is empty.
 * Memory is bounded: at most 10,000 client buckets.
 *
 * @example
 * const rate = new ProvisioningRate({ perClient: 10, total: 20, now: Date.now })
 * rate.take('127.0.0.1') // throws `too_many_requests` past the rate
 */
export class ProvisioningRate {
  readonly #clients: ClientBuckets
  readonly #all: TokenBucket
  readonly #now: () => number

  constructor(options: ProvisioningRateOptions) {
    const total = options.total ?? defaultProvisionRateTotal
    const share = options.share ?? 1
    const minBurst = options.minBurst ?? 100
    const perClient = options.perClient ?? Math.max(1, Math.floor(total * share))
    this.#clients = new ClientBuckets(perClient, Math.max(10 * perClient, Math.ceil(minBurst * share)), options.now)
    this.#now = options.now
    this.#all = new TokenBucket(total, Math.max(10 * total, minBurst), options.now())
  }

  /** Takes one provisioning for this client (see {@link clientOf}); throws `too_many_requests` (429, `Retry-After`) past the rate. */
  take(client = ''): void {
    const now = this.#now()
    const bucket = this.#clients.of(client)
    for (const [limit, which] of [
      [bucket, 'from this address'],
      [this.#all, 'in all'],
    ] as const) {
      if (limit.tokens(now) >= 1) continue
      throw new PlantStoreError(
        'too_many_requests',
        `Tenants are being provisioned too fast ${which} (at most ${limit.rate} a second after a burst of ` +
          `${limit.capacity}); retry later, or reuse a tenant (POST /__sandbox/reset puts it back).`,
        { 'retry-after': String(limit.secondsToNext(now)) },
      )
    }
    bucket.take()
    this.#all.take()
  }
}

/**
 * A {@link TokenBucket} per client (see {@link clientOf}), each of the same
 * rate and capacity, made full on first use. Memory is bounded: at most
 * 10,000 buckets are remembered; beyond, full ones (the same as none), then
 * the oldest, are forgotten.
 *
 * @example
 * const failures = new ClientBuckets(1, 10, Date.now)
 * failures.of(clientOf(request.client)).tokens(Date.now()) // 10 at first
 */
export class ClientBuckets {
  readonly #rate: number
  readonly #capacity: number
  readonly #now: () => number
  readonly #buckets = new Map<string, TokenBucket>()

  constructor(rate: number, capacity: number, now: () => number) {
    this.#rate = rate
    this.#capacity = capacity
    this.#now = now
  }

  /** This client's bucket. */
  of(client: string): TokenBucket {
    return this.#buckets.get(client) ?? this.#remember(client)
  }

  #remember(client: string): TokenBucket {
    const now = this.#now()
    if (this.#buckets.size >= maxClients) {
      for (const [address, bucket] of this.#buckets)
        if (bucket.tokens(now) >= bucket.capacity) this.#buckets.delete(address)
      for (const address of this.#buckets.keys()) {
        if (this.#buckets.size < maxClients) break
        this.#buckets.delete(address)
      }
    }
    const bucket = new TokenBucket(this.#rate, this.#capacity, now)
    this.#buckets.set(client, bucket)
    return bucket
  }
}
