import { PlantStoreError } from '../core/errors.ts'

/** Tenants one client address may provision per second, by default. */
export const defaultProvisionRate = 10

/** Tenants all clients together may provision per second, by default. */
export const defaultProvisionRateTotal = 20

/** Client addresses whose buckets are remembered; beyond, full buckets (and then the oldest) are forgotten. */
const maxClients = 10_000

export interface ProvisioningRateOptions {
  /** Tenants one client address may provision per second (default {@link defaultProvisionRate}). */
  perClient?: number | undefined
  /** Tenants all clients may provision per second (default {@link defaultProvisionRateTotal}). */
  total?: number | undefined
  /**
   * The smallest burst: a full bucket holds the larger of 10 seconds of its
   * rate and this (default 100; the admin API gives its `maxTenants`, so that
   * a client may fill the sandbox at once).
   */
  minBurst?: number | undefined
  /** The clock, in ms (the store's). */
  now: () => number
}

/** A token bucket: `rate` tokens a second, at most `capacity`, refilled on read. */
class TokenBucket {
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
  readonly #perClient: number
  readonly #clientBurst: number
  readonly #all: TokenBucket
  readonly #clients = new Map<string, TokenBucket>()
  readonly #now: () => number

  constructor(options: ProvisioningRateOptions) {
    this.#perClient = options.perClient ?? defaultProvisionRate
    const total = options.total ?? defaultProvisionRateTotal
    const burstOf = (rate: number) => Math.max(10 * rate, options.minBurst ?? 100)
    this.#clientBurst = burstOf(this.#perClient)
    this.#now = options.now
    this.#all = new TokenBucket(total, burstOf(total), options.now())
  }

  /** Takes one provisioning for this client address; throws `too_many_requests` (429, `Retry-After`) past the rate. */
  take(client = ''): void {
    const now = this.#now()
    const bucket = this.#clients.get(client) ?? this.#remember(client, now)
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

  #remember(client: string, now: number): TokenBucket {
    if (this.#clients.size >= maxClients) {
      // A full bucket is the same as none.
      for (const [address, bucket] of this.#clients)
        if (bucket.tokens(now) >= bucket.capacity) this.#clients.delete(address)
      for (const address of this.#clients.keys()) {
        if (this.#clients.size < maxClients) break
        this.#clients.delete(address)
      }
    }
    const bucket = new TokenBucket(this.#perClient, this.#clientBurst, now)
    this.#clients.set(client, bucket)
    return bucket
  }
}
