import { clientOf } from './client-address.ts'
import { PlantStoreError, renderError } from './errors.ts'
import type { CoreResponse } from './http.ts'

/** Requests one tenant may have held (delayed by a fault rule, `Prefer: delay` or `--delay`) at once, by default. */
export const defaultMaxHeldPerTenant = 100

/** Requests held at once in all tenants, by default (the sandbox lowers it to half its connections when fewer). */
export const defaultMaxHeld = 500

/** The `Retry-After` of a request refused a hold, in seconds. */
export const heldRetryAfterSeconds = 1

export interface HeldRequestsOptions {
  /** Requests one tenant may have held at once (default {@link defaultMaxHeldPerTenant}). */
  perTenant?: number | undefined
  /** Requests held at once in all (default {@link defaultMaxHeld}). */
  total?: number | undefined
  /**
   * The share (above 0, at most 1) of `total` one client address may hold
   * (default 1: no share of its own). It may always hold `perTenant`, never
   * more than `total` (issue 44, 7).
   */
  clientShare?: number | undefined
}

/**
 * The one bound on delayed answers (issue 27, M1): every delay a fault rule,
 * `Prefer: delay` or the server-wide delay asks for goes through
 * {@link HeldRequests.hold}, which holds the request only while the tenant
 * and the whole sandbox are under their caps, and otherwise answers at once
 * with 429 and `Retry-After`, so that held requests cannot take every
 * connection (or file descriptor) the sandbox has. The msw handlers and the
 * sandbox use the same class; msw has no connections to lose, but a test
 * that holds hundreds of answers is told so the same way.
 *
 * @example
 * const held = new HeldRequests({ perTenant: 100, total: 500 })
 * const refused = await held.hold('acme', 2000)
 * if (refused) return refused // 429: the tenant or the sandbox holds its maximum
 */
export class HeldRequests {
  readonly perTenant: number
  readonly total: number
  /** Requests one client address may have held at once. */
  readonly perClient: number
  #held = 0
  readonly #byTenant = new Map<string, number>()
  readonly #byClient = new Map<string, number>()
  /** Each held request's wake-up: called to answer it now (see {@link answerAll}). */
  readonly #wakers = new Set<() => void>()
  #answeringAll = false

  constructor(options: HeldRequestsOptions = {}) {
    this.perTenant = options.perTenant ?? defaultMaxHeldPerTenant
    this.total = options.total ?? defaultMaxHeld
    const share = options.clientShare ?? 1
    this.perClient = Math.min(this.total, Math.max(this.perTenant, Math.ceil(this.total * share)))
  }

  /** Requests held now, in all (those waiting for their turn on a connection included). */
  get held(): number {
    return this.#held
  }

  /**
   * Takes a place for a request that waits, not for a delay, but for an
   * earlier request on its connection (pipelined behind a held one, say):
   * such a request holds what a held one holds, so it counts against the
   * same total (issue 35, F1). `false`, taking nothing, when the sandbox
   * already holds its maximum; otherwise give the place back with
   * {@link release} once the request stops waiting.
   */
  reserve(): boolean {
    if (this.#held >= this.total) return false
    this.#held++
    return true
  }

  /** Gives back a place taken by {@link reserve}. */
  release(): void {
    this.#held--
  }

  /**
   * Ends every hold now and holds nothing from here on (issue 44, 5): each
   * held request goes on to its real answer at once, as if its delay were
   * over. The sandbox calls it as it shuts down, so that no held request
   * waits out the shutdown timeout and is cut.
   *
   * @example
   * held.answerAll() // on SIGTERM
   */
  answerAll(): void {
    this.#answeringAll = true
    for (const wake of [...this.#wakers]) wake()
  }

  /**
   * Holds a request of this tenant (`''` for none), sent from this network
   * address (when known), for `ms`, then resolves to `undefined`; or, when
   * the tenant, the address or the sandbox already holds its maximum,
   * resolves at once to the 429 answer to give instead, holding nothing.
   * After {@link answerAll}, it resolves at once.
   */
  async hold(tenantId: string, ms: number, address?: string): Promise<CoreResponse | undefined> {
    if (this.#answeringAll) return undefined
    const tenantHeld = this.#byTenant.get(tenantId) ?? 0
    const client = address === undefined ? undefined : clientOf(address)
    const clientHeld = client === undefined ? 0 : (this.#byClient.get(client) ?? 0)
    if (tenantHeld >= this.perTenant || clientHeld >= this.perClient || this.#held >= this.total) {
      return renderError(
        new PlantStoreError(
          'too_many_requests',
          tenantHeld >= this.perTenant
            ? `This tenant already has ${tenantHeld} delayed requests waiting, the most it may; ` +
                'retry once some are answered.'
            : clientHeld >= this.perClient
              ? `This address already has ${clientHeld} delayed requests waiting, its share of the sandbox's; ` +
                'retry once some are answered.'
              : `The sandbox already holds ${this.#held} delayed requests, the most it may; retry once some are answered.`,
          { 'retry-after': String(heldRetryAfterSeconds) },
        ),
      )
    }
    this.#held++
    this.#byTenant.set(tenantId, tenantHeld + 1)
    if (client !== undefined) this.#byClient.set(client, clientHeld + 1)
    try {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          this.#wakers.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, ms)
        this.#wakers.add(wake)
      })
    } finally {
      this.#held--
      countDown(this.#byTenant, tenantId)
      if (client !== undefined) countDown(this.#byClient, client)
    }
    return undefined
  }
}

/** One less of `key` in a map of counts; a count of 0 is forgotten. */
function countDown(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1
  if (left === 0) counts.delete(key)
  else counts.set(key, left)
}
