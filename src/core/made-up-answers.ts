import { contractAnswers } from '../generated/contract-answers.ts'
import { matchRoute, type OperationId, type Outcome } from './core.ts'
import { challenge, errorResponse, PlantStoreError, quote } from './errors.ts'
import type { CoreRequest, CoreResponse } from './http.ts'
import type { Principal } from './store.ts'

/** The `Retry-After` of a made-up 503 (or any status the contract gives one), in seconds. */
export const madeUpRetryAfterSeconds = 1

/**
 * How to write each header the contract may require of an answer, by its
 * lower-case name. A header the contract starts requiring must be added
 * here: the made-up answers' contract test fails until it is.
 */
const headerValues: Readonly<Record<string, (status: number) => string>> = {
  'www-authenticate': (status) => (status === 403 ? challenge('insufficient_scope') : challenge()),
  'retry-after': () => String(madeUpRetryAfterSeconds),
}

/**
 * The headers the contract requires of an answer with each status, on any of
 * its operations (lower-case names), as codegen read them from the contract:
 * e.g. 401 → `www-authenticate`, 503 → `retry-after`.
 *
 * @example
 * requiredHeaders.get(503) // ['retry-after']
 */
export const requiredHeaders: ReadonlyMap<number, readonly string[]> = new Map<number, readonly string[]>(
  contractAnswers.requiredHeaders,
)

/**
 * The error statuses (400 to 599) each operation of the contract declares,
 * ascending: what `Prefer: code` may make it answer.
 *
 * @example
 * declaredErrorStatuses.get('listPlants') // [400, 401, 403, 503]
 */
export const declaredErrorStatuses: ReadonlyMap<string, readonly number[]> = new Map(
  Object.entries(contractAnswers.operations).map(([operationId, { statuses }]) => [
    operationId,
    statuses.filter((status) => status >= 400 && status <= 599),
  ]),
)

/**
 * The status `Prefer: code=<status>` asks an operation to answer, checked
 * against what the operation declares: a status from 400 to 599 it
 * declares, else `invalid_request` (400) naming the ones it does (the
 * operation must not run on a status it cannot answer). The message begins
 * with `Prefer`, so coverage counts it as a 400 about the `Prefer` parameter.
 *
 * @example
 * preferredStatus('deletePlant', '404') // 404
 * preferredStatus('listPlants', '503') // throws: Prefer must ask listPlants for a status it declares …
 */
export function preferredStatus(operation: OperationId, code: string): number {
  const statuses = declaredErrorStatuses.get(operation) ?? []
  const status = /^\d{3}$/.test(code) ? Number(code) : undefined
  if (status !== undefined && statuses.includes(status)) return status
  throw new PlantStoreError(
    'invalid_request',
    `Prefer must ask ${operation} for a status it declares (code=${statuses.join(', ')}), not code=${quote(code)}; ` +
      'a fault rule (POST /__sandbox/faults) answers any status.',
  )
}

/**
 * An Error answer with this status, made up instead of running the operation
 * (by a fault rule or `Prefer: code`), with every header the contract
 * requires for that status (see {@link requiredHeaders}), as a real answer
 * would have: a 401 or 403 its `WWW-Authenticate` challenge, a 503 its
 * `Retry-After`.
 *
 * @example
 * madeUpStatus(401, 'Simulated status 401.') // { status: 401, headers: { 'www-authenticate': 'Bearer realm="plant-store"', … }, … }
 * madeUpStatus(503, 'Simulated status 503.') // { status: 503, headers: { 'retry-after': '1', … }, … }
 */
export function madeUpStatus(status: number, message: string): CoreResponse {
  const headers: Record<string, string> = {}
  for (const name of requiredHeaders.get(status) ?? []) {
    const value = headerValues[name]
    if (value) headers[name] = value(status)
  }
  return errorResponse(status, message, headers)
}

/**
 * The {@link Outcome} of an answer made without running the operation (by a
 * fault rule, or `Prefer: code`), so that the journal, the webhook and the
 * inspector see it like any other: the operation the request routes to, the
 * caller, the answer; no body read, no plant.
 *
 * @example
 * onOutcome(madeUpOutcome(request, response, callerOf(store, request)))
 */
export function madeUpOutcome(request: CoreRequest, response: CoreResponse, principal: Principal | undefined): Outcome {
  return {
    operation: matchRoute(request.path)?.route.methods.get(request.method),
    request,
    requestBody: undefined,
    principal,
    response,
    plant: undefined,
  }
}
