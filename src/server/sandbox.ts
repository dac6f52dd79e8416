import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import cors from 'cors'
import type { Logger } from 'pino'
import type { Replica } from '../cluster/replica.ts'
import { callerOf, createCore, isApiPath, type OutcomeListener, type PlantStoreHandler } from '../core/core.ts'
import { corsMethods, corsPolicy } from '../core/cors-policy.ts'
import { TenantCoverage } from '../core/coverage.ts'
import { PlantStoreError, renderError } from '../core/errors.ts'
import { HeldRequests } from '../core/held-requests.ts'
import { RequestJournal } from '../core/journal.ts'
import { madeUpOutcome } from '../core/made-up-answers.ts'
import type { PlantStore } from '../core/store.ts'
import { FaultRules } from '../faults/fault-rules.ts'
import { withFaults } from '../faults/with-faults.ts'
import { type CreatePlantStoreOptions, createPlantStore } from '../seeded-store.ts'
import type { AdminOptions, createAdmin } from './admin/admin.ts'
import { defaultClientShare } from './admin/provisioning-rate.ts'
import { withReadOnlyWorld } from './admin/read-only-world.ts'
import { defaultTenantIdleMs } from './admin/tenant-lifecycle.ts'
import { type ClientAddress, clientAddress } from './connections/client-address.ts'
import { UnsentBytes } from './connections/unsent-bytes.ts'
import { createInspector, type Inspector } from './events/inspector.ts'
import { type LoggedRequest, RequestLog } from './events/request-log.ts'
import type { Webhook } from './events/webhook.ts'
import { sendCoreResponse, type Transport, toListener } from './express/adapter.ts'
import { type DelayRange, withSimulation } from './simulation/simulation.ts'

export interface PlantStoreRouterOptions extends CreatePlantStoreOptions {
  /** The store to serve; by default a new one seeded with the fixture world. */
  store?: PlantStore
  /** The request journal behind `GET /__sandbox/requests`; by default a new one. */
  journal?: RequestJournal
  /** Exchanges journaled per tenant (default 50). */
  journalSize?: number
  /** Bytes the journal keeps per tenant (default 1 MiB). */
  journalBytes?: number
  /** Bytes the journal keeps in all tenants (default 64 MiB). */
  journalBytesTotal?: number
  /**
   * Bytes every tenant's plants may take in memory together, as counted
   * from their strings (default {@link defaultPlantBytesTotal}: a quarter of
   * the V8 heap). A create or a provisioning beyond it is refused with 507.
   */
  plantBytesTotal?: number
  /** Bytes of answers one connection may leave unread before it is closed (default 32 MiB; see `UnsentBytes`). */
  unsentBytes?: number
  /** Bytes of answers all connections may leave unread together; beyond it the oldest are cut (default 128 MiB). */
  unsentBytesTotal?: number
  /** The tenants' fault rules behind `/__sandbox/faults`; by default new ones (50 rules per tenant). */
  faults?: FaultRules
  /** Live inspector streams a tenant may hold open at once (default 4). */
  maxStreamsPerTenant?: number
  /** When set, `POST /__sandbox/tenants` requires it in `X-Admin-Key`. */
  adminKey?: string
  /**
   * Provisioned tenants held at most (default 100): at the maximum a new one
   * replaces the least recently used idle one, or is refused (503) when none is idle.
   */
  maxTenants?: number
  /** How long a provisioned tenant must go unused before it may be evicted, in ms (default 10 minutes). */
  tenantIdleMs?: number
  /** Tenants one client address may provision per second without an admin key (default 10); past it, 429. */
  provisionRate?: number
  /** Tenants all clients may provision per second without an admin key (default 20); past it, 429. */
  provisionRateTotal?: number
  /**
   * The share (above 0, at most 1) of each sandbox-wide budget one client may
   * take (default {@link defaultClientShare}, a quarter): of `plantBytesTotal`
   * (the plants of the tenants it provisioned, or of the world's tenants
   * together; past it, 507), of `maxTenants` without an admin key (past it, its own idle
   * tenant makes room, or 429) and of `provisionRateTotal` (the default of
   * `provisionRate`). A client is an address (an IPv6 /64).
   */
  clientShare?: number
  /**
   * Whether the world's tenants are read-only (writes, fault rules, resets
   * and journal clearing with their tokens are 403). Default: with an
   * `adminKey` and the built-in fixture world (no `world` given), whose
   * tokens the README prints.
   */
  readOnlyWorld?: boolean
  /** Delay every API answer (a slow network), fixed or a range in ms. */
  delay?: DelayRange
  /**
   * Requests one tenant may have held at once by a delay (a fault rule's,
   * `Prefer: delay`, {@link delay}); more are answered 429 with
   * `Retry-After` at once (default 100).
   */
  maxHeldPerTenant?: number
  /**
   * Requests held at once by a delay in all tenants; more are answered 429
   * (default 500). One client address may hold its `clientShare` of them (at
   * least `maxHeldPerTenant`).
   */
  maxHeld?: number
  /** Posts each created plant to a URL. */
  webhook?: Webhook
  /** Where sandbox events go (tenant provisioning, eviction); by default nowhere. */
  eventLog?: Logger
  /** This server is a replica of a cluster (issue 14): it provisions and materialises tenants through it. */
  replica?: Replica
  /**
   * Addresses of proxies (e.g. the cluster's nginx) whose `X-Real-IP` header
   * names the client, for the per-client shares; any other sender's header
   * is ignored (see `clientAddress`). Default: none, every client is the
   * address it connects from.
   */
  trustProxy?: readonly string[]
}

export interface CreateAppOptions extends PlantStoreRouterOptions {
  /**
   * Origins allowed by CORS: `'*'` (the default) or a list such as
   * `['http://localhost:5173']`. The admin API (`/__sandbox`) allows only a
   * list's origins, never `*`: other origins' writes to it are refused (403).
   */
  corsOrigins?: '*' | readonly string[]
  /**
   * Host names whose own pages may call the admin API (an `Origin` equal to
   * the `Host` the request was sent to), besides IP addresses, `localhost` and
   * `*.localhost`, which always may. Any other name in `Host` is taken for a
   * DNS rebinding: its pages' writes to the admin API are refused (403).
   * The standalone sandbox adds its `host`.
   */
  allowedHosts?: readonly string[]
  /** Where the request log goes: one structured pino line per request, with a request id; by default nowhere. */
  requestLog?: Logger
}

/**
 * The CORS options of the sandbox: preflights answered without a token, the
 * contract's headers allowed and exposed.
 */
export function corsOptions(origins: CreateAppOptions['corsOrigins']): cors.CorsOptions {
  return {
    methods: [...corsMethods],
    allowedHeaders: [...corsPolicy.allowedHeaders],
    exposedHeaders: [...corsPolicy.exposedHeaders],
    maxAge: corsPolicy.maxAge,
    optionsSuccessStatus: 204,
    origin: origins === undefined || origins === '*' ? '*' : [...origins],
  }
}

/** What the router and the standalone server's fast path share: one store, journal and API chain. */
export interface SandboxParts {
  readonly api: PlantStoreHandler
  readonly admin: PlantStoreHandler
  /** The live inspector at `/__sandbox/`, before the admin API. */
  readonly inspector: Inspector
  /** The budget of answers written and not yet taken by their clients, shared by the API and the admin API. */
  readonly unsent: UnsentBytes
  /** The caps on held requests, which requests waiting for their turn on a connection count against too. */
  readonly held: HeldRequests
  /** Each request's client address: the connection's, or a trusted proxy's `X-Real-IP` (`trustProxy`). */
  readonly clientOf: ClientAddress
}

/**
 * What the `cors` middleware does to a request that is not a preflight, in a
 * form for the fast path: with any origin allowed (`*`, the default) that is
 * two fixed headers, written with the answer's; with a list of origins it is
 * the middleware itself. The fast-path test checks both against the Express
 * app, header by header.
 */
function simpleCors(
  options: cors.CorsOptions,
):
  | { fixed: readonly string[] }
  | { middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => void } {
  if (options.origin !== '*') return { middleware: cors(options) }
  const exposed = ([] as string[]).concat(options.exposedHeaders ?? []).join(',')
  return {
    fixed: ['Access-Control-Allow-Origin', '*', ...(exposed ? ['Access-Control-Expose-Headers', exposed] : [])],
  }
}

/**
 * The default of {@link PlantStoreRouterOptions.plantBytesTotal}: a quarter
 * of the V8 heap's limit (1 GiB with Node's default heap of 4 GiB, 100 MiB
 * under `--max-old-space-size=400`), which leaves the rest of the heap to the
 * journal (64 MiB), answers being made and the garbage of a busy sandbox.
 *
 * @example
 * defaultPlantBytesTotal() // 1124073472 with a 4,288 MB heap
 */
export function defaultPlantBytesTotal(): number {
  // Through getBuiltinModule, not an `import`: the ESM face of node:v8 reads every export (its GC profiler, serdes…).
  return Math.floor(process.getBuiltinModule('node:v8').getHeapStatistics().heap_size_limit / 4)
}

/**
 * The sandbox's store, seeded as the options say, with its budget of plant
 * bytes ({@link defaultPlantBytesTotal} unless `plantBytesTotal` is given).
 *
 * @example
 * const store = sandboxStore({ seed: 7, plantBytesTotal: 256 << 20 })
 */
export function sandboxStore(options: PlantStoreRouterOptions): PlantStore {
  // The default is read when first needed: V8's heap statistics cost a start 2 ms.
  return createPlantStore({
    ...options,
    plantBytes: options.plantBytesTotal ?? defaultPlantBytesTotal,
    clientShare: options.clientShare ?? defaultClientShare,
  })
}

/**
 * Builds the store, journal, API chain and admin API that the router and the
 * fast path share. The admin API's module (its recipe, journal query and
 * fault rule schemas) loads with its first request, unless its `createAdmin`
 * is given: a cluster replica's admin API must be built at once, to forget
 * what it holds of the tenants the replica hands over from the start.
 */
export function sandboxParts(
  options: PlantStoreRouterOptions,
  loaded?: { createAdmin: typeof createAdmin },
): SandboxParts {
  const { clientShare } = options
  if (clientShare !== undefined && !(clientShare > 0 && clientShare <= 1)) {
    throw new RangeError(`clientShare must be above 0 and at most 1 (a fraction), not ${clientShare}.`)
  }
  const store = options.store ?? sandboxStore(options)
  const journal =
    options.journal ??
    new RequestJournal({
      capacity: options.journalSize,
      maxTenantBytes: options.journalBytes,
      maxTotalBytes: options.journalBytesTotal,
    })
  const { webhook, eventLog, replica } = options
  // A cluster replica writes the fault rules through to Redis and clears a tenant's when it hands it over.
  const faults = options.faults ?? new FaultRules({ now: options.now, persist: replica?.persistFaults })
  replica?.attach(store, faults)
  // The one outcome event: the journal (which the inspector tails), the tenants' coverage and the webhook subscribe to it.
  const coverage = new TenantCoverage()
  const onOutcome: OutcomeListener = (outcome) => {
    journal.observe(outcome)
    coverage.observe(outcome)
    webhook?.observe(outcome)
  }
  // Each request's client: its connection's address, or the one a trusted proxy (`--trust-proxy`) names.
  const clientOf = clientAddress(options.trustProxy)
  // One address's share of the held requests and inspector streams. A replica that trusts no proxy sees one
  // address, its proxy's: the proxy bounds each client there.
  const addressShare = options.replica && !options.trustProxy?.length ? 1 : (clientShare ?? defaultClientShare)
  // One set of caps on delayed answers, whichever delay holds them.
  const held = new HeldRequests({
    perTenant: options.maxHeldPerTenant,
    total: options.maxHeld,
    clientShare: addressShare,
  })
  const simulated = withSimulation(createCore(store, { onOutcome }), {
    store,
    held,
    delay: options.delay,
    // A made-up answer never reached the core: reported under the caller's tenant, if any.
    onSimulated: (request, response) => onOutcome(madeUpOutcome(request, response, callerOf(store, request))),
  })
  const faulted = withFaults(simulated, { store, faults, onOutcome, held })
  // A full plant budget first makes room from tenants idle as long as eviction at the maximum of tenants asks
  // (not a cluster replica's: its tenants live on in Redis, and it hands them over through its own claims).
  if (!replica)
    store.evictIdleWhenFull(options.tenantIdleMs ?? defaultTenantIdleMs, (tenants) => {
      for (const tenantId of tenants) {
        journal.forget(tenantId)
        coverage.forget(tenantId)
        faults.clear(tenantId)
      }
      eventLog?.info({ tenants, reason: 'evicted' }, 'tenants removed')
    })
  const readOnlyWorld = options.readOnlyWorld ?? (options.adminKey !== undefined && options.world === undefined)
  const guarded = readOnlyWorld ? withReadOnlyWorld(faulted, store, onOutcome) : faulted
  // A cluster replica makes or claims the caller's tenant before anything else looks at it.
  const api = replica ? replica.guard(guarded) : guarded
  const inspector = createInspector({
    store,
    journal,
    faults,
    coverage,
    maxStreamsPerTenant: options.maxStreamsPerTenant,
    clientShare: addressShare,
    clientAddress: clientOf,
  })
  // A tenant this replica stops serving ends its live streams, as admin forgets its journal.
  replica?.onRelease(inspector.release)
  const adminOptions: AdminOptions = {
    store,
    journal,
    faults,
    coverage,
    replica,
    adminKey: options.adminKey,
    maxTenants: options.maxTenants,
    tenantIdleMs: options.tenantIdleMs,
    provisionRate: options.provisionRate,
    provisionRateTotal: options.provisionRateTotal,
    clientShare: options.clientShare,
    readOnlyWorld,
    plantsPerTenant: options.plantsPerTenant,
    onReset: inspector.reset,
    onRemoved: (tenants, reason) => eventLog?.info({ tenants, reason }, 'tenants removed'),
    onProvisioned: (tenant, evicted) => {
      eventLog?.info({ tenant: tenant.tenant, plants: tenant.plants, evicted }, 'tenant provisioned')
    },
  }
  if (replica && !loaded) throw new TypeError('sandboxParts: a cluster replica needs its admin API built at once')
  const admin = loaded
    ? loaded.createAdmin(adminOptions)
    : builtOnFirstRequest(async () => (await import('./admin/admin.ts')).createAdmin(adminOptions), eventLog)

  const unsent = new UnsentBytes({ perConnection: options.unsentBytes, total: options.unsentBytesTotal })
  return { api, admin: replica ? replica.guard(admin) : admin, inspector, unsent, held, clientOf }
}

/**
 * A part of the sandbox loaded on demand (`load`), once: every caller waits
 * for the same load. A failed load is never kept (issue 35, F5): it is
 * reported to `onFailure` (one log line) and tried again by the next call,
 * so a sandbox whose files were rebuilt or briefly missing under it answers
 * again as soon as they are back, without a restart.
 *
 * @example
 * const app = onDemand(() => import('./express/express-app.ts'), (error) => log.error({ err: error }, 'load failed'))
 * await app() // loaded once; after a failure, loaded again
 */
export function onDemand<T>(load: () => Promise<T>, onFailure: (error: unknown) => void): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      onFailure(error)
      throw error
    })
    return loading
  }
}

/**
 * The 503 of a request whose part of the sandbox could not be loaded (see
 * {@link onDemand}): an Error body with `Retry-After`, never an empty reply.
 */
export function unavailable(what: string): PlantStoreError {
  return new PlantStoreError(
    'unavailable',
    `The sandbox could not load ${what} from its files (were they rebuilt or removed under it?); ` +
      'it tries again with the next request. If this goes on, restart the sandbox.',
    { 'retry-after': '1' },
  )
}

/** Reports a failed load on demand as one structured line: to the event log, else as a process warning. */
function loadFailed(eventLog: Logger | undefined, what: string): (error: unknown) => void {
  return (error) => {
    if (eventLog) eventLog.error({ err: error, part: what }, 'load on demand failed; retried with the next request')
    else process.emitWarning(`plant-store-mock: could not load ${what}: ${(error as Error)?.message ?? error}`)
  }
}

/** A handler built by `build` when its first request comes; each later one waits for it, a failed build is tried again. */
function builtOnFirstRequest(build: () => Promise<PlantStoreHandler>, eventLog: Logger | undefined): PlantStoreHandler {
  const built = onDemand(build, loadFailed(eventLog, 'the admin API'))
  return async (request) => {
    let handler: PlantStoreHandler
    try {
      handler = await built()
    } catch {
      return renderError(unavailable('the admin API'))
    }
    return handler(request)
  }
}

/**
 * The fast path's {@link Transport} of a logged request: its id, echoed in
 * `X-Request-Id` with CORS's fixed headers, and its line noted once the
 * answer is written. One object a request, no closure.
 */
class LoggedAnswer implements Transport {
  readonly id: string
  readonly headers: readonly string[]
  readonly #log: RequestLog
  readonly #logged: LoggedRequest

  constructor(log: RequestLog, logged: LoggedRequest, cors: readonly string[]) {
    this.id = logged.id
    this.headers = cors.length === 0 ? ['x-request-id', logged.id] : ['x-request-id', logged.id, ...cors]
    this.#log = log
    this.#logged = logged
  }

  written(status: number): void {
    this.#log.end(this.#logged, status)
  }
}

/**
 * The standalone sandbox as a Node request listener: the API's own paths
 * go straight to the API chain the router uses (same request log, CORS,
 * journal and answers) without Express's router stack, each answer written
 * with its headers (CORS, `X-Request-Id`) in one `writeHead` and logged off
 * its path (see {@link RequestLog}); every other request (preflights,
 * `/__sandbox`, the docs) goes to the Express app, which is only loaded
 * when the first such request comes (a faster start, less memory). A load
 * that fails is logged and answered 503 with an Error body, and tried again
 * with the next such request (see {@link onDemand}).
 *
 * @example
 * createServer(sandboxListener(parts, options, async () => (await import('./express/express-app.ts')).appOf(parts, options)))
 */
export function sandboxListener(
  parts: SandboxParts,
  options: CreateAppOptions,
  loadApp: () => Promise<RequestListener>,
): RequestListener {
  const log = options.requestLog ? new RequestLog(options.requestLog) : undefined
  const logger = options.requestLog
  const corsOf = simpleCors(corsOptions(options.corsOrigins))
  const fixedCors = 'fixed' in corsOf ? corsOf.fixed : []
  const answer = toListener(parts.api, parts.unsent, parts.clientOf)
  const proceed = () => undefined
  let app: RequestListener | undefined
  const loaded = onDemand(loadApp, loadFailed(options.eventLog, 'the Express app (admin API, docs, preflights)'))
  return (req, res) => {
    if (req.method !== 'OPTIONS' && isApiPath(req.url ?? '/')) {
      // Only sets headers on requests that are not preflights, and calls `next` at once.
      if ('middleware' in corsOf) corsOf.middleware(req, res, proceed)
      if (!log) {
        answer(req, res, { headers: fixedCors })
        return
      }
      // For the error handler: where to log a failure's detail.
      ;(req as { log?: Logger }).log = logger
      answer(req, res, new LoggedAnswer(log, log.begin(req), fixedCors))
    } else if (app) {
      app(req, res)
    } else {
      loaded().then(
        (listener) => {
          app = listener
          listener(req, res)
        },
        () => sendCoreResponse(req, res, renderError(unavailable('the Express app (admin API, docs, preflights)'))),
      )
    }
  }
}
