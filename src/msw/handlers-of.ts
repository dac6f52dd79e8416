/**
 * The msw handlers over one Plant Store handler: the msw side of every
 * in-process mock (`createHandlers`, `setupPlantStoreServer`,
 * `setupPlantStoreWorker`), translating msw's requests to the core's and its
 * answers back. Apart from `handlers.ts` so that the page's worker mock
 * answers with it without loading the fault rules, the journal and the
 * coverage (they come on demand there).
 */
import { type HttpHandler, HttpResponse, http } from 'msw'
import { apiPathOf } from '../core/api-path.ts'
import { type PlantStoreHandler, routes } from '../core/core.ts'
import { answerCorsHeaders, preflightHeaders } from '../core/cors-policy.ts'
import { type CoreRequest, type CoreResponse, readLimited } from '../core/http.ts'
import type { PlantStore } from '../core/store.ts'
import { sleep } from '../core/time.ts'

/**
 * The msw handlers that answer through one Plant Store handler (over `store`), at `baseUrl` or any origin.
 *
 * @example
 * const worker = setupWorker(...handlersOf(createCore(store), store, undefined))
 */
export function handlersOf(handle: PlantStoreHandler, store: PlantStore, baseUrl: string | undefined): HttpHandler[] {
  const base = baseUrl ? baseUrl.replace(/\/+$/, '') : '*'

  const resolverOf =
    (pathOf: (url: URL) => string) =>
    ({ request }: { request: Request }) => {
      // A CORS preflight (a DOM that checks CORS, such as happy-dom's fetch) gets the sandbox's answer.
      if (request.method === 'OPTIONS') return new HttpResponse(null, { status: 204, headers: preflightHeaders })
      const response = handle(toCoreRequest(request, pathOf))
      // Only a request that names its origin needs the CORS headers (a browser's, happy-dom's); Node's fetch sends none.
      const cors = request.headers.has('origin')
      return response instanceof Promise
        ? response.then((answer) => toHttpResponse(answer, cors))
        : toHttpResponse(response, cors)
    }
  const paths = routes.map(({ path, methods }) => {
    const segments = path.split('/').length - 1
    const resolver = resolverOf((url) => lastSegments(url.pathname, segments))
    return { mswPath: `${base}${path.replaceAll(/\{(\w+)\}/g, ':$1')}`, methods: [...methods.keys()], resolver }
  })
  // msw compares a path as written; one that percent-encodes unreserved characters (`/%70lants`) is the same
  // path (RFC 3986), found by the API-path test the router and Playwright's route share.
  const apiPath = apiPathOf(baseUrl)
  const encoded = http.all(
    ({ request }) => request.url.includes('%') && apiPath(new URL(request.url)) !== undefined,
    resolverOf((url) => apiPath(url) ?? url.pathname),
  )
  // One handler per operation first (msw matches a method-specific handler fastest),
  // then a catch-all per path so that other methods get the core's 405 with `Allow`.
  const handlers = [
    ...paths.flatMap(({ mswPath, methods, resolver }) =>
      methods.map((method) => http[method.toLowerCase() as 'get'](mswPath, resolver)),
    ),
    ...paths.map(({ mswPath, resolver }) => http.all(mswPath, resolver)),
    encoded,
  ]
  for (const handler of handlers) stores.set(handler, store)
  return handlers
}

/**
 * The store behind each handler {@link createHandlers} made, kept under a global symbol: `plant-store-mock/contracts`
 * (whose `recordMswPact` reads it) is built apart from the entries that make the handlers (rolldown.config.ts),
 * each with its own copy of this module, and both copies must find the one registry.
 */
const storesKey: unique symbol = Symbol.for('plant-store-mock.handler-stores')
const registry = globalThis as { [storesKey]?: WeakMap<object, PlantStore> }
registry[storesKey] ??= new WeakMap()
const stores = registry[storesKey]

/**
 * The store a Plant Store handler answers from, or `undefined` for any
 * other handler: how `recordMswPact` reads the state before each request.
 *
 * @example
 * storeBehind(server.listHandlers()[0]) // the PlantStore of setupPlantStoreServer()
 */
export function storeBehind(handler: object): PlantStore | undefined {
  return stores.get(handler)
}

/** The last `segments` segments of a URL's path, as sent (the part below any base address), and its trailing slash. */
function lastSegments(pathname: string, segments: number): string {
  const parts = pathname.split('/')
  const trailingSlash = pathname.length > 1 && parts.at(-1) === ''
  return `/${parts.slice(-segments - Number(trailingSlash)).join('/')}`
}

/** The core's view of a fetch `Request`, its path what `pathOf` reads in its URL. */
function toCoreRequest(request: Request, pathOf: (url: URL) => string): CoreRequest {
  const url = new URL(request.url)
  const { search } = url
  return {
    method: request.method,
    path: pathOf(url),
    query: search.slice(1),
    header: (name) => request.headers.get(name),
    readBody: (limit) => readLimited(request.body, limit),
  }
}

/**
 * The fetch answer of a core answer, with the sandbox's CORS headers when
 * `cors`; a transport fault becomes msw's network error, or a body that fails midway.
 */
function toHttpResponse(response: CoreResponse, cors: boolean): Response {
  const { status, headers, chunks, fault } = response
  if (fault === 'reset' || fault === 'empty') return HttpResponse.error()
  const all = cors ? { ...headers, ...answerCorsHeaders } : headers
  if (fault === 'truncated') {
    const bytes = new TextEncoder().encode(response.body ?? '')
    const promised = { ...all, 'content-length': String(bytes.byteLength) }
    return new HttpResponse(truncatedStream(bytes), { status, headers: promised })
  }
  // A list's bytes as the core keeps them: never decoded to a text only to be encoded again.
  return new HttpResponse(chunks ? concatenated(chunks) : response.body, { status, headers: all })
}

/** The chunks in one array. */
function concatenated(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

/**
 * A body stream that delivers the first half of the bytes, then fails as a
 * connection cut short would (a moment later: msw sends the headers and the
 * first half before the failure reaches the client).
 */
function truncatedStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = false
  return new ReadableStream({
    async pull(controller) {
      if (!sent) {
        sent = true
        controller.enqueue(bytes.subarray(0, bytes.byteLength >> 1))
        return
      }
      await sleep(10)
      controller.error(new TypeError('The connection closed before the whole body arrived (a truncated-body fault).'))
    },
  })
}
