import { contract } from '../generated/contract.ts'
import { contractInputs } from '../generated/contract-inputs.ts'
import { authenticate, authorize } from './auth.ts'
import { renderError } from './errors.ts'
import { type CoreRequest, type CoreResponse, readBodyWithinLimit } from './http.ts'
import { type Inputs, parseBody, parseParameters } from './inputs.ts'
import { type CoreOperationId, type Operation, type OperationId, operations, type Trace } from './operations/index.ts'
import { normalizePath } from './path-template.ts'
import { ContractRouter, type Dispatch, headOf, type Route } from './router.ts'
import type { StoredPlant } from './schemas.ts'
import type { PlantStore, Principal } from './store.ts'
import { checkContentType } from './validation.ts'
import { zodPending } from './zod.ts'

/**
 * A Plant Store as a function from request to answer: what every transport
 * adapts. The answer is synchronous whenever nothing needs waiting for (a
 * list or a delete on a settled store), so adapters should accept both.
 */
export type PlantStoreHandler = (request: CoreRequest) => CoreResponse | Promise<CoreResponse>

export type { OperationId } from './operations/index.ts'

/** What became of one request: the one event the journal, webhooks and inspectors subscribe to. */
export interface Outcome {
  /** The operation the request was routed to; `undefined` for an unknown path or method. */
  readonly operation: OperationId | undefined
  readonly request: CoreRequest
  /** The request body as it was read (only operations that read one). */
  readonly requestBody: Uint8Array | undefined
  /** Who was calling, once the token was resolved. */
  readonly principal: Principal | undefined
  readonly response: CoreResponse
  /** The plant the operation created or deleted. */
  readonly plant: StoredPlant | undefined
}

/** Receives the {@link Outcome} of every answered request. */
export type OutcomeListener = (outcome: Outcome) => void

export interface CoreOptions {
  /** Called after every answer, e.g. to journal requests per tenant. */
  onOutcome?: OutcomeListener
}

/**
 * The operationIds the core answers itself (the contract's HEADs are derived
 * from their GETs): what the operations test holds against the contract.
 *
 * @example
 * coreOperations // ['listPlants', 'addPlant', 'deletePlant']
 */
export const coreOperations: readonly OperationId[] = Object.keys(operations) as OperationId[]

/**
 * Whether an operation writes plants: it needs the `plants:write` scope (the
 * contract's word for a write). The sandbox's read-only world, the inspector
 * and anything else that asks "did this change the plants" ask this.
 *
 * @example
 * writesPlants('addPlant') // true
 * writesPlants('listPlants') // false
 */
export function writesPlants(operation: OperationId | null | undefined): boolean {
  return operation != null && (contract.operations[operation].scopes as readonly string[]).includes('plants:write')
}

/** The Plant Store API's one router, compiled once from the generated contract. */
const router = new ContractRouter<OperationId>(contract.operations)

/**
 * The contract's paths, each with its operations by method (HEAD wherever
 * GET is), straight from the generated contract: the core routes with them
 * and the MSW handlers register them.
 *
 * @example
 * routes.map((route) => route.path) // ['/plants', '/plants/{id}']
 */
export const routes: readonly Route<OperationId>[] = router.routes

/**
 * The first segments of the contract's paths (`/plants`): a request path
 * that starts with none of them is not the API's.
 *
 * @example
 * apiPathPrefixes // ['/plants']
 */
export const apiPathPrefixes: readonly string[] = [
  ...new Set(routes.map(({ path }) => path.replace(/^(\/[^/]*).*$/, '$1'))),
]

/**
 * Whether a request URL (path and query) may be the API's: it starts with
 * one of {@link apiPathPrefixes}. The sandbox sends such requests straight
 * to the API.
 *
 * @example
 * isApiPath('/plants?limit=2') // true
 */
export function isApiPath(url: string): boolean {
  const path = normalizePath(url)
  for (const prefix of apiPathPrefixes) if (path.startsWith(prefix)) return true
  return false
}

/**
 * The contract route a request path (still percent-encoded) is routed to, and
 * its path parameters; a path without parameters also matches with one
 * trailing slash. `undefined` for a path the contract does not have.
 *
 * @example
 * matchRoute('/plants/42') // { route: { path: '/plants/{id}', … }, params: { id: '42' } }
 */
export function matchRoute(path: string): { route: Route<OperationId>; params: Record<string, string> } | undefined {
  return router.match(path)
}

/**
 * Creates the transport-neutral Plant Store: routing (from the contract),
 * auth, validation, the operations and the Error rendering, all in one place.
 * MSW handlers and the Express server only translate to and from
 * {@link CoreRequest} and {@link CoreResponse}.
 *
 * @example
 * const handle = createCore(store, { onOutcome: (outcome) => console.info(outcome.response.status) })
 * const response = await handle({ method: 'GET', path: '/plants', query: 'limit=10', header, readBody })
 */
export function createCore(store: PlantStore, { onOutcome }: CoreOptions = {}): PlantStoreHandler {
  const finish = (request: CoreRequest, trace: Trace, response: CoreResponse): CoreResponse => {
    const { operation, requestBody, principal, plant } = trace
    onOutcome?.({ operation, request, requestBody, principal, response, plant })
    return response
  }
  const respond = (request: CoreRequest): CoreResponse | Promise<CoreResponse> => {
    const trace: Trace = {}
    const fail = (error: unknown) => finish(request, trace, renderError(error))
    try {
      if (store.failure) throw store.failure.error
      const response = route(store, request, trace)
      return response instanceof Promise
        ? response.then((answer) => finish(request, trace, answer), fail)
        : finish(request, trace, response)
    } catch (error) {
      return fail(error)
    }
  }
  return (request) =>
    store.settled
      ? respond(request)
      : store.ready.then(
          () => respond(request),
          (error: unknown) => finish(request, {}, renderError(error)),
        )
}

/**
 * The tenant of a request's token, when it has a valid one; `undefined`
 * otherwise, or while the store is loading. Never throws: for answers that
 * need no token but are reported under the caller's tenant when there is one.
 *
 * @example
 * callerOf(store, request)?.tenantId // 'acme'
 */
export function callerOf(store: PlantStore, request: CoreRequest): Principal | undefined {
  if (!store.settled) return undefined
  try {
    return authenticate(store, request.header('authorization'))
  } catch {
    return undefined
  }
}

/** An operation's request body: JSON (`Content-Type`), within the contract's size, parsed by its schema. */
async function readBody(operation: CoreOperationId, request: CoreRequest, trace: Trace) {
  checkContentType(request.header('content-type'))
  trace.requestBody = await readBodyWithinLimit(request)
  // In a page, zod (which checks a body the usual check does not take) may still be loading with the mock's parts.
  const pending = zodPending()
  if (pending) await pending
  return parseBody(operation, trace.requestBody)
}

function route(store: PlantStore, request: CoreRequest, trace: Trace): CoreResponse | Promise<CoreResponse> {
  let dispatch: Dispatch<OperationId>
  try {
    dispatch = router.dispatch(request.method, request.path)
  } catch (error) {
    // A routing error needs no token, but a valid one says whose request it was (the journal keeps it).
    trace.principal = callerOf(store, request)
    throw error
  }
  const { operation, handler, params, head } = dispatch
  trace.operation = operation
  const principal = authenticate(store, request.header('authorization'))
  trace.principal = principal
  for (const scope of contract.operations[operation].scopes) authorize(principal, scope)
  const id = handler as CoreOperationId
  const inputs = parseParameters(id, request, params)
  const run = operations[id].handle as Operation<CoreOperationId>
  const response =
    contractInputs.operations[id].body === null
      ? run(store, principal, { ...inputs, body: undefined } as Inputs<CoreOperationId>, request, trace)
      : readBody(id, request, trace).then((body) =>
          run(store, principal, { ...inputs, body } as Inputs<CoreOperationId>, request, trace),
        )
  if (!head) return response
  return response instanceof Promise ? response.then(headOf) : headOf(response)
}
