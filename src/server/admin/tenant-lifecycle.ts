/**
 * What keeps the sandbox's tenants alive and the sandbox ready: the timer
 * that removes provisioned tenants once their time-to-live has passed, and
 * the readiness answer (`GET /__sandbox/ready`).
 */
import type { Replica } from '../../cluster/replica.ts'
import { type CoreResponse, jsonResponse } from '../../core/http.ts'
import type { PlantStore } from '../../core/store.ts'

/** How long a provisioned tenant must go unused before it may be evicted to make room: 10 minutes. */
export const defaultTenantIdleMs = 600_000

/**
 * Removes the store's expired tenants when called, tells `onExpired` which,
 * and arms one timer for the next tenant to expire (on the store's clock,
 * never more than a day ahead). Answers the function to call.
 *
 * @example
 * const removeExpired = tenantExpiry(store, (ids) => journal.forget(...ids))
 * removeExpired() // now, and again when the next one expires
 */
export function tenantExpiry(store: PlantStore, onExpired: (tenantIds: readonly string[]) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const removeExpired = () => {
    const expired = store.removeExpired()
    if (expired.length > 0) onExpired(expired)
    clearTimeout(timer)
    const next = store.nextExpiry()
    if (next === undefined) return
    // On the store's clock (a test's may stand still); never more than a day, within setTimeout's range.
    timer = setTimeout(removeExpired, Math.min(Math.max(next - store.now(), 0), 86_400_000) + 5)
    timer.unref?.()
  }
  return removeExpired
}

/**
 * The readiness answer: 200 while the sandbox can serve; 503 with
 * `Retry-After` while it cannot (its world failed to load, or a cluster
 * replica has not reached Redis yet).
 */
export function readiness(store: PlantStore, replica: Replica | undefined): () => Promise<CoreResponse> {
  return async () => {
    await store.ready.catch(() => undefined)
    const { ready, ...storage } = replica?.readiness ?? { ready: true }
    const reason = store.failure
      ? 'its world could not be loaded'
      : ready
        ? undefined
        : 'Redis has not been reached yet'
    const detail = { storage: storage.redis ? 'redis' : 'memory', ...storage }
    if (reason === undefined) return jsonResponse(200, { status: 'ready', ...detail })
    const answer = jsonResponse(503, { error: 503, message: `Not ready: ${reason}.`, status: 'not ready', ...detail })
    return { ...answer, headers: { ...answer.headers, 'retry-after': '1' } }
  }
}
