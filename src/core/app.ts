import { contract } from '../generated/contract.ts'
import { authenticate, authorize } from './auth.ts'
import { methodNotAllowed, PlantStoreError, quote, renderError } from './errors.ts'
import {
  type CoreRequest,
  type CoreResponse,
  jsonHeaders,
  jsonResponse,
  noContent,
  readBodyWithinLimit,
} from './http.ts'
import { templatePattern } from './path-template.ts'
import { type StoredPlant, toPlant } from './schemas.ts'
import type { PlantStore, Principal } from './store.ts'
import { SerializedList } from './tenant-plants.ts'
import { checkContentType, parseLimit, parseNewPlant, parsePathId } from './validation.ts'

/**
 * A Plant Store as a function from request to answer: what every transport
 * adapts. The answer is synchronous whenever nothing needs waiting for (a
 * list or a delete on a settled store), so adapters should accept both.
 */
export type PlantStoreHandler = (request: CoreRequest) => CoreResponse | Promise<CoreResponse>

/** The id of an operation of the contract, e.g. `listPlants`. */
export type OperationId = keyof typeof contract.operations

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

/** What an operation learns while it runs, for the {@link Outcome}. */
interface Trace {
  operation?: OperationId
  principal?: Principal
  requestBody?: Uint8Array
  plant?: StoredPlant
}

type Operation = (
  store: PlantStore,
  principal: Principal,
  request: CoreRequest,
  params: Readonly<Record<string, string>>,
  trace: Trace,
) => CoreResponse | Promise<CoreResponse>

/**
 * The tenant's plants as the list's JSON text, serialized as far as asked
 * and kept until the tenant's next write: one per tenant, whatever `limit`s
 * are asked (a shorter list is a prefix of a longer one).
 */
function serializedList(store: PlantStore, principal: Principal): SerializedList {
  return store.derive(
    principal.tenantId,
    'list',
    (plants) =>
      new SerializedList(plants.count(), (skip, take) => plants.findMany(undefined, { skip, take }).map(toPlant)),
  )
}

/** Lists longer than this (in characters) are answered with their kept bytes as well as their text. */
const largeBodyChars = 16_384

const operations: Record<OperationId, Operation> = {
  listPlants: (store, principal, request) => {
    const limit = parseLimit(request.query)
    const list = serializedList(store, principal)
    const body = list.text(limit)
    // A long list goes out as the bytes the list keeps: encoding it per answer made megabytes of garbage each time.
    return body.length > largeBodyChars
      ? { status: 200, headers: jsonHeaders, body, chunks: list.chunks(limit) }
      : { status: 200, headers: jsonHeaders, body }
  },
  headPlants: (store, principal, request) => {
    const length = serializedList(store, principal).byteLength(parseLimit(request.query))
    return { status: 200, headers: { ...jsonHeaders, 'content-length': String(length) }, body: null }
  },
  addPlant: async (store, principal, request, _params, trace) => {
    checkContentType(request.header('content-type'))
    trace.requestBody = await readBodyWithinLimit(request)
    trace.plant = await store.addPlant(principal.tenantId, parseNewPlant(trace.requestBody))
    return jsonResponse(200, toPlant(trace.plant))
  },
  deletePlant: (store, principal, _request, { id = '' }, trace) => {
    const plantId = parsePathId(id)
    const deleted = (plant: StoredPlant | undefined) => {
      trace.plant = plant
      if (!plant) throw new PlantStoreError('not_found', `No plant with id ${plantId} exists.`)
      return noContent
    }
    return store.deletePlant(principal.tenantId, plantId).then(deleted)
  },
}

/** One path of the contract, with its operations by method. */
interface Route {
  /** The contract's path template, e.g. `/plants/{id}`. */
  readonly path: string
  /**
   * Matches a request path (still percent-encoded), capturing each `{param}`
   * by name; a path without parameters also matches with one trailing slash.
   */
  readonly pattern: RegExp
  readonly methods: ReadonlyMap<string, OperationId>
  /** The `Allow` header of a 405 here. */
  readonly allow: string
}

/**
 * The contract's paths, each with its operations by method, straight from
 * the generated contract: the core routes with them and the MSW handlers
 * register them.
 *
 * @example
 * routes.map((route) => route.path) // ['/plants', '/plants/{id}']
 */
export const routes: readonly Route[] = (() => {
  const byPath = new Map<string, Map<string, OperationId>>()
  for (const [id, { method, path }] of Object.entries(contract.operations)) {
    byPath.set(path, (byPath.get(path) ?? new Map<string, OperationId>()).set(method, id as OperationId))
  }
  return [...byPath].map(([path, methods]) => ({
    path,
    pattern: templatePattern(path, { trailingSlash: true }),
    methods,
    allow: [...methods.keys()].join(', '),
  }))
})()

/**
 * The contract route a request path (still percent-encoded) is routed to, and
 * its path parameters; a path without parameters also matches with one
 * trailing slash. `undefined` for a path the contract does not have.
 *
 * @example
 * matchRoute('/plants/42') // { route: { path: '/plants/{id}', … }, params: { id: '42' } }
 */
export function matchRoute(path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(path)
    if (match) return { route, params: match.groups ?? {} }
  }
  return undefined
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

function route(store: PlantStore, request: CoreRequest, trace: Trace): CoreResponse | Promise<CoreResponse> {
  const { method, path } = request
  const found = matchRoute(path)
  const operation = found?.route.methods.get(method)
  if (!found || !operation) {
    // A routing error needs no token, but a valid one says whose request it was (the journal keeps it).
    trace.principal = callerOf(store, request)
    if (!found) throw new PlantStoreError('not_found', `No route for ${quote(`${method} ${path}`, 80)}.`)
    throw methodNotAllowed(method, found.route.allow)
  }
  trace.operation = operation
  const principal = authenticate(store, request.header('authorization'))
  trace.principal = principal
  for (const scope of contract.operations[operation].scopes) authorize(principal, scope)
  return operations[operation](store, principal, request, found.params, trace)
}
