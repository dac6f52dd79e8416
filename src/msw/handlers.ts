import { type HttpHandler, HttpResponse, http } from 'msw'
import { type CoreOptions, createCore, routes } from '../core/app.ts'
import { type CoreRequest, type CoreResponse, readLimited } from '../core/http.ts'
import type { PlantStore } from '../core/store.ts'
import { type CreatePlantStoreOptions, createPlantStore } from '../create-plant-store.ts'

export interface CreateHandlersOptions extends CreatePlantStoreOptions, CoreOptions {
  /** The store to serve; by default a new one seeded with the fixture world. */
  store?: PlantStore
  /** Only answer requests to this base address, e.g. `https://api.example.com`; by default any origin. */
  baseUrl?: string
}

/**
 * Creates the msw request handlers of the Plant Store: one per operation of
 * the contract (`GET`/`HEAD /plants`, `POST /plants`, `DELETE /plants/{id}`),
 * with every rule of the contract (auth, validation, tenancy, Error bodies)
 * applied by the shared core.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * const store = createPlantStore()
 * const server = setupServer(...createHandlers({ store }))
 */
export function createHandlers(options: CreateHandlersOptions = {}): HttpHandler[] {
  const store = options.store ?? createPlantStore(options)
  const handle = createCore(store, options.onOutcome ? { onOutcome: options.onOutcome } : {})
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*'

  const resolvers = routes.map(({ segments }) => ({ request }: { request: Request }) => {
    const response = handle(toCoreRequest(request, segments.length))
    return response instanceof Promise ? response.then(toHttpResponse) : toHttpResponse(response)
  })
  const mswPath = (path: string) => `${base}${path.replaceAll(/\{(\w+)\}/g, ':$1')}`
  // One handler per operation first (msw matches a method-specific handler fastest),
  // then a catch-all per path so that other methods get the core's 405 with `Allow`.
  return [
    ...routes.flatMap(({ path, methods }, i) =>
      [...methods.keys()].map((method) => http[method.toLowerCase() as 'get'](mswPath(path), resolvers[i]!)),
    ),
    ...routes.map(({ path }, i) => http.all(mswPath(path), resolvers[i]!)),
  ]
}

/**
 * The core's view of a fetch `Request`: its path is the last `segments`
 * segments of the URL's path, as sent (the part below any base address).
 */
function toCoreRequest(request: Request, segments: number): CoreRequest {
  const url = request.url
  const queryStart = url.indexOf('?')
  const hashStart = url.indexOf('#')
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart)
  const { pathname } = new URL(url)
  const trailingSlash = pathname.length > 1 && pathname.endsWith('/')
  const parts = (trailingSlash ? pathname.slice(0, -1) : pathname).split('/')
  return {
    method: request.method,
    path: `/${parts.slice(-segments).join('/')}${trailingSlash ? '/' : ''}`,
    query,
    header: (name) => request.headers.get(name),
    readBody: (limit) => readLimited(request.body, limit),
  }
}

function toHttpResponse({ status, headers, body }: CoreResponse): Response {
  return new HttpResponse(body, { status, headers })
}
