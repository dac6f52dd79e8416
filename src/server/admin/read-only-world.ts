/**
 * The read-only world of a sandbox with an admin key: the fixture world's
 * tokens (printed in the README) may read, but not change what everyone
 * shares. The API and the admin API refuse the same way.
 */
import {
  callerOf,
  matchRoute,
  type OperationId,
  type OutcomeListener,
  type PlantStoreHandler,
  writesPlants,
} from '../../core/core.ts'
import { challenge, PlantStoreError, renderError } from '../../core/errors.ts'
import { madeUpOutcome } from '../../core/made-up-answers.ts'
import type { PlantStore } from '../../core/store.ts'
import { contract } from '../../generated/contract.ts'

/**
 * Throws `insufficient_scope` (403) when the tenant belongs to a read-only
 * world: its public tokens may not change what everyone shares.
 *
 * @example
 * if (readOnlyWorld) refuseSharedWrite(store, principal.tenantId)
 */
export function refuseSharedWrite(store: PlantStore, tenantId: string): void {
  if (store.isProvisioned(tenantId)) return
  throw new PlantStoreError(
    'insufficient_scope',
    `Tenant ${tenantId} belongs to the shared fixture world, which is read-only on a sandbox with an admin key; ` +
      'provision a tenant of your own (POST /__sandbox/tenants with X-Admin-Key) to write.',
    { 'www-authenticate': challenge('insufficient_scope') },
  )
}

/** The methods of the contract's operations that need `plants:write`: the only ones a read-only world refuses. */
const writeMethods: ReadonlySet<string> = new Set(
  (Object.keys(contract.operations) as OperationId[])
    .filter(writesPlants)
    .map((operation) => contract.operations[operation].method),
)

/**
 * Refuses (403) the API's writes made with a token of the world's tenants,
 * before the operation runs; reads and provisioned tenants go straight
 * through. The refusal is journaled like any other answer.
 *
 * @example
 * const guarded = withReadOnlyWorld(handler, store, onOutcome)
 */
export function withReadOnlyWorld(
  handle: PlantStoreHandler,
  store: PlantStore,
  onOutcome: OutcomeListener,
): PlantStoreHandler {
  return (request) => {
    if (!writeMethods.has(request.method)) return handle(request)
    const operation = matchRoute(request.path)?.route.methods.get(request.method)
    const caller = operation && callerOf(store, request)
    if (!caller || !writesPlants(operation)) return handle(request)
    try {
      refuseSharedWrite(store, caller.tenantId)
    } catch (error) {
      const response = renderError(error)
      onOutcome(madeUpOutcome(request, response, caller))
      return response
    }
    return handle(request)
  }
}
