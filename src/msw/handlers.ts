import { type HttpHandler, HttpResponse, http } from 'msw'
import { type CoreOptions, createCore, routes } from '../core/app.ts'
import { type CoreRequest, type CoreResponse, readLimited } from '../core/http.ts'
import type { PlantStore } from '../core/store.ts'
import { sleep } from '../core/time.ts'
import { PlantStoreCoverage } from '../coverage-report.ts'
import { type CreatePlantStoreOptions, createPlantStore } from '../create-plant-store.ts'
import { FaultRules } from '../faults/fault-rules.ts'
import { withFaults } from '../faults/with-faults.ts'

export interface CreateHandlersOptions extends CreatePlantStoreOptions, CoreOptions {
  /** The store to serve; by default a new one seeded with the fixture world. */
  store?: PlantStore
  /** Per-tenant fault rules answered instead of the real answers (see `FaultRules`); by default none. */
  faults?: FaultRules
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
  const { onOutcome, faults } = options
  const core = createCore(store, { onOutcome })
  const handle = faults ? withFaults(core, { store, faults, onOutcome }) : core
  const base = options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : '*'

  const paths = routes.map(({ path, methods }) => {
    const segments = path.split('/').length - 1
    const resolver = ({ request }: { request: Request }) => {
      const response = handle(toCoreRequest(request, segments))
      return response instanceof Promise ? response.then(toHttpResponse) : toHttpResponse(response)
    }
    return { mswPath: `${base}${path.replaceAll(/\{(\w+)\}/g, ':$1')}`, methods: [...methods.keys()], resolver }
  })
  // One handler per operation first (msw matches a method-specific handler fastest),
  // then a catch-all per path so that other methods get the core's 405 with `Allow`.
  return [
    ...paths.flatMap(({ mswPath, methods, resolver }) =>
      methods.map((method) => http[method.toLowerCase() as 'get'](mswPath, resolver)),
    ),
    ...paths.map(({ mswPath, resolver }) => http.all(mswPath, resolver)),
  ]
}

/** The Plant Store handlers, with the store and the fault rules behind them. */
export interface PlantStoreMock {
  /** The stateful store behind the handlers: `reset()` (to the set-up world), `load()`, `plants(tenant)` (`@msw/data` queries), `snapshot()`. */
  readonly store: PlantStore
  /** The Plant Store handlers, to give msw's server or worker. */
  readonly handlers: readonly HttpHandler[]
  /**
   * Per-tenant fault rules the handlers answer before the store, the same
   * rules as the sandbox's `/__sandbox/faults`: `add(tenant, rule)`,
   * `list(tenant)`, `remove(tenant, id)`, `clear()`.
   */
  readonly faults: FaultRules
  /**
   * The contract coverage of the answers the handlers gave: `report()`,
   * `table()`, `reset()`, and `check({ min, require, json })` for the end of a run.
   */
  readonly coverage: PlantStoreCoverage
}

/**
 * {@link createHandlers} with a store and fault rules (new ones unless given):
 * what `setupPlantStoreServer` and `setupPlantStoreWorker` plug into msw.
 *
 * @example
 * const { handlers, store, faults, coverage } = createPlantStoreMock({ seed: 7 })
 */
export function createPlantStoreMock(options: CreateHandlersOptions = {}): PlantStoreMock {
  const store = options.store ?? createPlantStore(options)
  const faults = options.faults ?? new FaultRules({ now: options.now })
  const coverage = new PlantStoreCoverage()
  const { onOutcome: listener } = options
  const onOutcome: CoreOptions['onOutcome'] = listener
    ? (outcome) => {
        coverage.observe(outcome)
        listener(outcome)
      }
    : coverage.observe
  return { store, handlers: createHandlers({ ...options, store, faults, onOutcome }), faults, coverage }
}

/**
 * The core's view of a fetch `Request`: its path is the last `segments`
 * segments of the URL's path, as sent (the part below any base address).
 */
function toCoreRequest(request: Request, segments: number): CoreRequest {
  const { pathname, search } = new URL(request.url)
  const parts = pathname.split('/')
  const trailingSlash = pathname.length > 1 && parts.at(-1) === ''
  return {
    method: request.method,
    path: `/${parts.slice(-segments - Number(trailingSlash)).join('/')}`,
    query: search.slice(1),
    header: (name) => request.headers.get(name),
    readBody: (limit) => readLimited(request.body, limit),
  }
}

/** The fetch answer of a core answer; a transport fault becomes msw's network error, or a body that fails midway. */
function toHttpResponse(response: CoreResponse): Response {
  const { status, headers, chunks, fault } = response
  if (fault === 'reset' || fault === 'empty') return HttpResponse.error()
  if (fault === 'truncated') {
    const bytes = new TextEncoder().encode(response.body ?? '')
    const promised = { ...headers, 'content-length': String(bytes.byteLength) }
    return new HttpResponse(truncatedStream(bytes), { status, headers: promised })
  }
  // A list's bytes as the core keeps them: never decoded to a text only to be encoded again.
  return new HttpResponse(chunks ? concatenated(chunks) : response.body, { status, headers })
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
