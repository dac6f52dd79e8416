import { type HttpHandler, HttpResponse, http } from 'msw'
import { type CoreOptions, createCore } from '../core/app.ts'
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
 * Creates the msw request handlers of the Plant Store: `GET /plants`,
 * `POST /plants` and `DELETE /plants/{id}`, with every rule of the contract
 * (auth, validation, tenancy, Error bodies) applied by the shared core.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * const store = createPlantStore()
 * const server = setupServer(...createHandlers({ store }))
 */
export function createHandlers(options: CreateHandlersOptions = {}): HttpHandler[] {
  const store = options.store ?? createPlantStore(options)
  const handle = createCore(store, options.onResponse ? { onResponse: options.onResponse } : {})
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*'

  const answer = (request: Request, path: string) => {
    const response = handle(toCoreRequest(request, path))
    return response instanceof Promise ? response.then(toHttpResponse) : toHttpResponse(response)
  }
  const plants = ({ request }: { request: Request }) => answer(request, '/plants')
  const plant = ({ request }: { request: Request }) => {
    const { pathname } = new URL(request.url)
    return answer(request, `/plants/${pathname.slice(pathname.lastIndexOf('/') + 1)}`)
  }
  // One handler per operation first (msw matches a method-specific handler fastest),
  // then catch-alls so that other methods get the core's 405 with `Allow`.
  return [
    http.get(`${base}/plants`, plants),
    http.post(`${base}/plants`, plants),
    http.delete(`${base}/plants/:id`, plant),
    http.all(`${base}/plants`, plants),
    http.all(`${base}/plants/:id`, plant),
  ]
}

function toCoreRequest(request: Request, path: string): CoreRequest {
  const url = request.url
  const queryStart = url.indexOf('?')
  const hashStart = url.indexOf('#')
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart)
  return {
    method: request.method,
    path,
    query,
    header: (name) => request.headers.get(name),
    readBody: (limit) => readLimited(request.body, limit),
  }
}

function toHttpResponse({ status, headers, body }: CoreResponse): Response {
  return new HttpResponse(body, { status, headers })
}
