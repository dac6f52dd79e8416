import type { RequestListener } from 'node:http'
import cors from 'cors'
import express, { type ErrorRequestHandler, type Router } from 'express'
import type { Logger } from 'pino'
import { createCore, type PlantStoreHandler } from '../core/app.ts'
import { authenticate } from '../core/auth.ts'
import { errorResponse, renderError } from '../core/errors.ts'
import type { PlantStore, ProvisionedTenant } from '../core/store.ts'
import { type CreatePlantStoreOptions, createPlantStore } from '../create-plant-store.ts'
import { sendCoreResponse, toListener, toMiddleware } from './adapter.ts'
import { createAdmin } from './admin.ts'
import { docsRouter } from './docs.ts'
import { RequestJournal } from './journal.ts'
import { requestLog } from './request-log.ts'
import { type DelayRange, withSimulation } from './simulation.ts'
import type { Webhook } from './webhook.ts'

export interface PlantStoreRouterOptions extends CreatePlantStoreOptions {
  /** The store to serve; by default a new one seeded with the fixture world. */
  store?: PlantStore
  /** The request journal behind `GET /__sandbox/requests`; by default a new one. */
  journal?: RequestJournal
  /** Exchanges journaled per tenant (default 50). */
  journalSize?: number
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
  return routerOf(sandboxParts(options))
}

/** What the router and the standalone server's fast path share: one store, journal and API chain. */
interface SandboxParts {
  readonly api: PlantStoreHandler
  readonly admin: PlantStoreHandler
}

function sandboxParts(options: PlantStoreRouterOptions): SandboxParts {
  const store = options.store ?? createPlantStore(options)
  const journal = options.journal ?? new RequestJournal({ capacity: options.journalSize ?? 50 })
  const { webhook, eventLog } = options
  const core = createCore(store, {
    onOutcome: webhook
      ? (outcome) => {
          journal.observe(outcome)
          webhook.observe(outcome)
        }
      : journal.observe,
  })
  const api = withSimulation(core, {
    ...(options.delay ? { delay: options.delay } : {}),
    onSimulated: (request, response) => {
      // A made-up answer never reached the core: journal it under the caller's tenant, if any.
      try {
        journal.record(authenticate(store, request.header('authorization')).tenantId, request, response)
      } catch {
        // Not a tenant's token: nobody to journal it for.
      }
    },
  })
  const admin = createAdmin({
    store,
    journal,
    ...(options.adminKey === undefined ? {} : { adminKey: options.adminKey }),
    ...(options.maxTenants === undefined ? {} : { maxTenants: options.maxTenants }),
    ...(options.plantsPerTenant === undefined ? {} : { plantsPerTenant: options.plantsPerTenant }),
    onProvisioned: (tenant: ProvisionedTenant, evicted: readonly string[]) => {
      eventLog?.info({ tenant: tenant.tenant, plants: tenant.plants, evicted }, 'tenant provisioned')
    },
  })

  return { api, admin }
}

function routerOf({ api, admin }: SandboxParts): Router {
  const router = express.Router()
  const apiMiddleware = toMiddleware(api)
  // The API first: it is the hot path, and its paths never collide with the others.
  router.use((req, res, next) => {
    if (req.url.startsWith('/plants')) apiMiddleware(req, res, next)
    else next()
  })
  router.use('/__sandbox', toMiddleware(admin))
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
  return createSandbox(options).app
}

/**
 * The standalone sandbox as a Node request listener: {@link createApp}'s app,
 * with a fast path in front of it for the API's own paths. Those requests go
 * straight to the same API chain the router uses (same request log, CORS,
 * journal and answers), without Express's router stack; every other request
 * (preflights, `/__sandbox`, the docs) goes to the app.
 *
 * @example
 * createServer(createSandbox({ seed: 7 }).listener).listen(4010, '127.0.0.1')
 */
export function createSandbox(options: CreateAppOptions = {}): { app: express.Express; listener: RequestListener } {
  const parts = sandboxParts(options)
  const log = options.requestLog ? requestLog(options.requestLog) : undefined
  const corsMiddleware = cors({ ...corsHeaders, origin: originOption(options.corsOrigins) })
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  if (log) {
    app.use((req, res, next) => {
      log(req, res)
      next()
    })
  }
  app.use(corsMiddleware)
  // The router answers every path (its own error handler included), so the app needs no other.
  app.use(routerOf(parts))

  const answer = toListener(parts.api)
  const proceed = () => undefined
  const listener: RequestListener = (req, res) => {
    if (req.method === 'OPTIONS' || !req.url?.startsWith('/plants')) {
      app(req, res)
      return
    }
    log?.(req, res)
    // Only sets headers on requests that are not preflights, and calls `next` at once.
    corsMiddleware(req, res, proceed)
    answer(req, res)
  }
  return { app, listener }
}

function originOption(origins: CreateAppOptions['corsOrigins']): cors.CorsOptions['origin'] {
  if (origins === undefined || origins === '*') return '*'
  return [...origins]
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
