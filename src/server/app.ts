import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import cors from 'cors'
import express, { type ErrorRequestHandler, type Router } from 'express'
import type { Logger } from 'pino'
import { createCore, type OutcomeListener } from '../core/app.ts'
import { errorResponse, renderError } from '../core/errors.ts'
import type { PlantStore, ProvisionedTenant } from '../core/store.ts'
import { type CreatePlantStoreOptions, createPlantStore } from '../create-plant-store.ts'
import { FaultRules } from '../faults/fault-rules.ts'
import { callerOf, madeUpOutcome, withFaults } from '../faults/with-faults.ts'
import { sendCoreResponse, toMiddleware } from './adapter.ts'
import { createAdmin } from './admin.ts'
import { docsRouter } from './docs.ts'
import { createInspector } from './inspector.ts'
import { RequestJournal } from './journal.ts'
import { requestIdSyntax } from './request-id.ts'
import { type DelayRange, withSimulation } from './simulation.ts'
import type { Webhook } from './webhook.ts'

export interface PlantStoreRouterOptions extends CreatePlantStoreOptions {
  /** The store to serve; by default a new one seeded with the fixture world. */
  store?: PlantStore
  /** The request journal behind `GET /__sandbox/requests`; by default a new one. */
  journal?: RequestJournal
  /** Exchanges journaled per tenant (default 50). */
  journalSize?: number
  /** The tenants' fault rules behind `/__sandbox/faults`; by default new ones (50 rules per tenant). */
  faults?: FaultRules
  /** Live inspector streams a tenant may hold open at once (default 4). */
  maxStreamsPerTenant?: number
  /** When set, `POST /__sandbox/tenants` requires it in `X-Admin-Key`. */
  adminKey?: string
  /** Provisioned tenants kept at most; beyond it the least recently used are evicted (default 100). */
  maxTenants?: number
  /** Delay every API answer (a slow network), fixed or a range in ms. */
  delay?: DelayRange
  /** Posts each created plant to a URL. */
  webhook?: Webhook
  /** Where sandbox events go (tenant provisioning, eviction); by default nowhere. */
  eventLog?: Logger
}

export interface CreateAppOptions extends PlantStoreRouterOptions {
  /** Origins allowed by CORS: `'*'` (the default) or a list such as `['http://localhost:5173']`. */
  corsOrigins?: '*' | readonly string[]
  /** Where the request log goes: one structured pino line per request, with a request id; by default nowhere. */
  requestLog?: Logger
}

const corsHeaders = {
  methods: ['GET', 'POST', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Prefer', 'X-Admin-Key', 'X-Request-Id'],
  exposedHeaders: ['WWW-Authenticate', 'Allow', 'Preference-Applied', 'X-Request-Id'],
  maxAge: 600,
  optionsSuccessStatus: 204,
}

/**
 * The whole sandbox as a mountable Express router: the Plant Store API
 * (`/plants`, `/plants/{id}`), the admin API under `/__sandbox`, the contract
 * (`/openapi.yaml`, `/openapi.json`) and its reference at `/docs/`. Any other
 * path below the mount point is a 404 Error body. Every rule comes from the
 * transport-neutral core; this only plugs it into Express.
 *
 * @example
 * const app = express()
 * app.use('/plant-store', plantStoreRouter({ seed: 7 }))
 */
export function plantStoreRouter(options: PlantStoreRouterOptions = {}): Router {
  const store = options.store ?? createPlantStore(options)
  const journal = options.journal ?? new RequestJournal({ capacity: options.journalSize ?? 50 })
  const faults = options.faults ?? new FaultRules({ now: options.now })
  const { webhook, eventLog } = options
  // The one outcome event: the journal (which the inspector tails) and the webhook subscribe to it.
  const onOutcome: OutcomeListener = webhook
    ? (outcome) => {
        journal.observe(outcome)
        webhook.observe(outcome)
      }
    : journal.observe
  const simulated = withSimulation(createCore(store, { onOutcome }), {
    ...(options.delay ? { delay: options.delay } : {}),
    // A made-up answer never reached the core: reported under the caller's tenant, if any.
    onSimulated: (request, response) => onOutcome(madeUpOutcome(request, response, callerOf(store, request))),
  })
  const api = withFaults(simulated, { store, faults, onOutcome })
  const inspector = createInspector({
    store,
    journal,
    faults,
    ...(options.maxStreamsPerTenant === undefined ? {} : { maxStreamsPerTenant: options.maxStreamsPerTenant }),
  })
  const admin = createAdmin({
    store,
    journal,
    faults,
    onReset: inspector.plantsChanged,
    onRemoved: (tenants, reason) => eventLog?.info({ tenants, reason }, 'tenants removed'),
    ...(options.adminKey === undefined ? {} : { adminKey: options.adminKey }),
    ...(options.maxTenants === undefined ? {} : { maxTenants: options.maxTenants }),
    ...(options.plantsPerTenant === undefined ? {} : { plantsPerTenant: options.plantsPerTenant }),
    onProvisioned: (tenant: ProvisionedTenant, evicted: readonly string[]) => {
      eventLog?.info({ tenant: tenant.tenant, plants: tenant.plants, evicted }, 'tenant provisioned')
    },
  })

  const router = express.Router()
  const apiMiddleware = toMiddleware(api)
  // The API first: it is the hot path, and its paths never collide with the others.
  router.use((req, res, next) => {
    if (req.url.startsWith('/plants')) apiMiddleware(req, res, next)
    else next()
  })
  router.use('/__sandbox', inspector.router, toMiddleware(admin))
  router.use(docsRouter())
  // Everything else is the core's 404 (or 405) Error body.
  router.use(apiMiddleware)
  router.use(errorHandler)
  return router
}

/**
 * Creates the standalone sandbox: an Express 5 app serving
 * {@link plantStoreRouter} at `/`, with CORS (preflights answered without a
 * token), optional structured request logs with a request id, and every
 * failure, Express's own included, answered with an Error body.
 *
 * @example
 * const app = createApp({ seed: 7, corsOrigins: ['http://localhost:5173'] })
 * app.listen(4010, '127.0.0.1')
 */
export function createApp(options: CreateAppOptions = {}): express.Express {
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  if (options.requestLog) app.use(requestLogger(options.requestLog))
  app.use(cors({ ...corsHeaders, origin: originOption(options.corsOrigins) }))
  // The router answers every path (its own error handler included), so the app needs no other.
  app.use(plantStoreRouter(options))
  return app
}

function originOption(origins: CreateAppOptions['corsOrigins']): cors.CorsOptions['origin'] {
  if (origins === undefined || origins === '*') return '*'
  return [...origins]
}

/**
 * One structured pino line per answered request: request id (the client's
 * `X-Request-Id` when well-formed, else a UUID, echoed back), method, URL,
 * status and time taken. Credentials are only noted as present and
 * redacted, never logged. Written on the response's `finish`, with no child
 * logger per request: the hot path pays for one log call.
 */
function requestLogger(logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = performance.now()
    const presented = req.headers['x-request-id']
    const id = typeof presented === 'string' && requestIdSyntax.test(presented) ? presented : randomUUID()
    res.setHeader('x-request-id', id)
    ;(req as { log?: Logger }).log = logger
    res.once('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : 'info'
      logger[level](
        {
          req: {
            id,
            method: req.method,
            url: (req as { originalUrl?: string }).originalUrl ?? req.url,
            headers: {
              ...(req.headers.authorization === undefined ? {} : { authorization: '[redacted]' }),
              ...(req.headers['x-admin-key'] === undefined ? {} : { 'x-admin-key': '[redacted]' }),
            },
          },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      )
    })
    next()
  }
}

/** Express's own failures (a static file error, a body that could not be read…) as Error bodies, never HTML. */
const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const status = httpStatusOf(error)
  const response =
    status !== undefined && status >= 400 && status < 500
      ? errorResponse(status, clientMessage(status))
      : renderError(error)
  if (response.status >= 500) (req as { log?: Logger }).log?.error({ err: error }, 'request failed')
  if (res.headersSent) {
    res.destroy()
    return
  }
  sendCoreResponse(req, res, response)
}

function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown }
  const value = typeof status === 'number' ? status : statusCode
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined
}

function clientMessage(status: number): string {
  if (status === 404) return 'No such resource.'
  if (status === 413) return 'The request body is too large.'
  return `The request could not be handled (status ${status}).`
}
