import { PlantStoreError, renderError } from './errors.ts'
import type { CoreResponse } from './http.ts'
import { sleep } from './time.ts'

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
  #held = 0
  readonly #byTenant = new Map<string, number>()

  constructor(options: HeldRequestsOptions = {}) {
    this.perTenant = options.perTenant ?? defaultMaxHeldPerTenant
    this.total = options.total ?? defaultMaxHeld
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
   * Holds a request of this tenant (`''` for none) for `ms`, then resolves to
   * `undefined`; or, when the tenant or the sandbox already holds its
   * maximum, resolves at once to the 429 answer to give instead, holding
   * nothing.
   */
  async hold(tenantId: string, ms: number): Promise<CoreResponse | undefined> {
    const tenantHeld = this.#byTenant.get(tenantId) ?? 0
    if (tenantHeld >= this.perTenant || this.#held >= this.total) {
      return renderError(
        new PlantStoreError(
          'too_many_requests',
          tenantHeld >= this.perTenant
            ? `This tenant already has ${tenantHeld} delayed requests waiting, the most it may; ` +
                'retry once some are answered.'
            : `The sandbox already holds ${this.#held} delayed requests, the most it may; retry once some are answered.`,
          { 'retry-after': String(heldRetryAfterSeconds) },
        ),
      )
    }
    this.#held++
    this.#byTenant.set(tenantId, tenantHeld + 1)
    try {
      await sleep(ms)
    } finally {
      this.#held--
      const left = (this.#byTenant.get(tenantId) ?? 1) - 1
      if (left === 0) this.#byTenant.delete(tenantId)
      else this.#byTenant.set(tenantId, left)
    }
    return undefined
  }
}
