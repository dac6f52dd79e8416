import cors from 'cors'
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express'
import type { Logger } from 'pino'
import { isApiPath } from '../core/app.ts'
import { echoed, errorResponse, renderError } from '../core/errors.ts'
import { sendCoreResponse, toMiddleware } from './adapter.ts'
import { docsRouter, sandboxContractMiddleware } from './docs.ts'
import { requestLog } from './request-log.ts'
import {
  type CreateAppOptions,
  corsOptions,
  type PlantStoreRouterOptions,
  type SandboxParts,
  sandboxParts,
} from './sandbox.ts'

export type { CreateAppOptions, PlantStoreRouterOptions } from './sandbox.ts'

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

function routerOf({ api, admin, inspector, unsent }: SandboxParts): Router {
  const router = express.Router()
  const apiMiddleware = toMiddleware(api, unsent)
  // The API first: it is the hot path, and its paths never collide with the others.
  router.use((req, res, next) => {
    if (isApiPath(req.url)) apiMiddleware(req, res, next)
    else next()
  })
  router.use('/__sandbox', inspector.middleware, sandboxContractMiddleware, toMiddleware(admin, unsent))
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
  return appOf(sandboxParts(options), options)
}

/**
 * The Express app over sandbox parts that already exist: what
 * {@link createApp} builds, and what the standalone server loads (on first
 * use) for everything its fast path does not answer.
 */
export function appOf(parts: SandboxParts, options: CreateAppOptions): express.Express {
  const app = express()
  app.disable('x-powered-by')
  app.disable('etag')
  if (options.requestLog) app.use(requestLog(options.requestLog))
  const apiCors = cors(corsOptions(options.corsOrigins))
  const adminCors = adminCorsOf(options.corsOrigins)
  app.use((req, res, next) => (adminPath.test(req.url) ? adminCors : apiCors)(req, res, next))
  // The router answers every path (its own error handler included), so the app needs no other.
  app.use(routerOf(parts))
  return app
}

/** The admin API's paths: `/__sandbox` and below. */
const adminPath = /^\/__sandbox(?:[/?]|$)/

/**
 * CORS for the admin API: only for the origins of an explicit list (never
 * `*`, so that no web page can provision tenants or change a tenant's state
 * from a visitor's browser). A request from any other origin that is not a
 * plain read (a preflight, a form's POST) is refused with 403 before
 * anything runs; requests from the sandbox's own pages and from outside
 * browsers (no `Origin`) pass.
 */
function adminCorsOf(origins: CreateAppOptions['corsOrigins']): RequestHandler {
  const allowed = Array.isArray(origins) ? new Set<string>(origins) : new Set<string>()
  const listed = cors(corsOptions([...allowed]))
  return (req, res, next) => {
    const { origin } = req.headers
    if (origin === undefined || allowed.has(origin)) return listed(req, res, next)
    if (req.method === 'GET' || req.method === 'HEAD' || sameOrigin(origin, req.headers.host)) return next()
    sendCoreResponse(
      req,
      res,
      errorResponse(
        403,
        `The admin API (/__sandbox) does not take calls from the web origin ${JSON.stringify(echoed(origin))}; ` +
          'start the sandbox with --cors-origins listing it to allow them.',
      ),
    )
  }
}

/** Whether an `Origin` is the sandbox's own address (the `Host` the request was sent to). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase()
  } catch {
    return false
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
