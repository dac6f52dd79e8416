import { contract } from '../generated/contract.ts'
import { authenticate, authorize } from './auth.ts'
import { PlantStoreError, renderError } from './errors.ts'
import type { CoreRequest, CoreResponse } from './http.ts'
import type { Scope, StoredPlant } from './schemas.ts'
import type { PlantStore, Principal } from './store.ts'
import { checkContentType, parseLimit, parseNewPlant, parsePathId } from './validation.ts'

/**
 * A Plant Store as a function from request to answer: what every transport
 * adapts. The answer is synchronous whenever nothing needs waiting for (a
 * list or a delete on a settled store), so adapters should accept both.
 */
export type PlantStoreHandler = (request: CoreRequest) => CoreResponse | Promise<CoreResponse>

/** Observes each answered request with the principal it resolved to (if any). */
export type RequestObserver = (request: CoreRequest, response: CoreResponse, principal: Principal | undefined) => void

export interface CoreOptions {
  /** Called after every answer, e.g. to journal requests per tenant. */
  onResponse?: RequestObserver
}

const json = { 'content-type': 'application/json' } as const
const plantsPath = '/plants'
const plantPathPrefix = '/plants/'

/**
 * Creates the transport-neutral Plant Store: routing, auth, validation, the
 * operations and the Error rendering, all in one place. MSW handlers and the
 * Express server only translate to and from {@link CoreRequest} and
 * {@link CoreResponse}.
 *
 * @example
 * const handle = createCore(store)
 * const response = await handle({ method: 'GET', path: '/plants', query: 'limit=10', header, readBody })
 */
export function createCore(store: PlantStore, options: CoreOptions = {}): PlantStoreHandler {
  const { onResponse } = options
  const observe = (request: CoreRequest, context: Context, response: CoreResponse): CoreResponse => {
    onResponse?.(request, response, context.principal)
    return response
  }
  const respond = (request: CoreRequest): CoreResponse | Promise<CoreResponse> => {
    const context: Context = {}
    try {
      const response = route(store, request, context)
      if (response instanceof Promise) {
        return response.then(
          (answer) => observe(request, context, answer),
          (error: unknown) => observe(request, context, renderError(error)),
        )
      }
      return observe(request, context, response)
    } catch (error) {
      return observe(request, context, renderError(error))
    }
  }
  return (request) => (store.settled ? respond(request) : store.ready.then(() => respond(request)))
}

interface Context {
  principal?: Principal
}

function route(store: PlantStore, request: CoreRequest, context: Context): CoreResponse | Promise<CoreResponse> {
  const { method, path } = request
  if (path === plantsPath || path === `${plantsPath}/`) {
    if (method === 'GET') {
      const principal = signIn(store, request, context, contract.operations.listPlants.scopes[0])
      return listPlants(store, principal, request)
    }
    if (method === 'POST') {
      const principal = signIn(store, request, context, contract.operations.addPlant.scopes[0])
      return addPlant(store, principal, request)
    }
    throw methodNotAllowed(method, 'GET, POST')
  }
  if (path.startsWith(plantPathPrefix) && path.indexOf('/', plantPathPrefix.length) === -1) {
    if (method === 'DELETE') {
      const principal = signIn(store, request, context, contract.operations.deletePlant.scopes[0])
      return deletePlant(store, principal, path.slice(plantPathPrefix.length))
    }
    throw methodNotAllowed(method, 'DELETE')
  }
  throw new PlantStoreError('not_found', `No route for ${method} ${path}.`)
}

function signIn(store: PlantStore, request: CoreRequest, context: Context, scope: Scope): Principal {
  const principal = authenticate(store, request.header('authorization'))
  context.principal = principal
  authorize(principal, scope)
  return principal
}

function methodNotAllowed(method: string, allow: string): PlantStoreError {
  return new PlantStoreError('method_not_allowed', `Method ${method} is not allowed here; use ${allow}.`, { allow })
}

/** `{ name, tag }` in that order; an absent tag is omitted, never `null`. */
function toPlant({ name, tag }: StoredPlant): { name: string; tag?: string } {
  return tag === undefined ? { name } : { name, tag }
}

function listPlants(store: PlantStore, principal: Principal, request: CoreRequest): CoreResponse {
  const limit = parseLimit(request.query)
  const plants = store.listPlants(principal.tenantId, limit)
  return { status: 200, headers: json, body: JSON.stringify(plants.map(toPlant)) }
}

async function addPlant(store: PlantStore, principal: Principal, request: CoreRequest): Promise<CoreResponse> {
  checkContentType(request.header('content-type'))
  const body = await request.readBody(contract.maxBodyBytes)
  if (body === 'too_large') {
    throw new PlantStoreError('payload_too_large', `The request body is larger than ${contract.maxBodyBytes} bytes.`)
  }
  const plant = await store.addPlant(principal.tenantId, parseNewPlant(body))
  return { status: 200, headers: json, body: JSON.stringify(toPlant(plant)) }
}

function deletePlant(store: PlantStore, principal: Principal, segment: string): CoreResponse {
  const id = parsePathId(segment)
  if (!store.deletePlant(principal.tenantId, id)) {
    throw new PlantStoreError('not_found', `No plant with id ${id} exists.`)
  }
  return { status: 204, headers: {}, body: null }
}
