import { isIP } from 'node:net'
import cors from 'cors'
import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express'
import type { Logger } from 'pino'
import { isApiPath } from '../../core/core.ts'
import { echoed, errorResponse, renderError } from '../../core/errors.ts'
import { docsRouter, sandboxContractMiddleware } from '../docs/docs.ts'
import { requestLog } from '../events/request-log.ts'
import {
  type CreateAppOptions,
  corsOptions,
  type PlantStoreRouterOptions,
  type SandboxParts,
  sandboxParts,
} from '../sandbox.ts'
import { sendCoreResponse, toMiddleware } from './adapter.ts'

export type { CreateAppOptions, PlantStoreRouterOptions } from '../sandbox.ts'

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

/**
 * Where the admin API is mounted, and how: both the router that serves it and
 * the CORS layer that guards it mount it with {@link mountedRouter}, so the
 * guard sees exactly the requests the admin API gets, whatever their letter
 * case, trailing slash or repeated slashes (issue 27, H1).
 */
const adminMount = '/__sandbox'

/** A router as both of the admin mount's users build it: Express's matching, case-insensitive and not strict. */
function mountedRouter(): Router {
  return express.Router({ caseSensitive: false, strict: false })
}

function routerOf({ api, admin, inspector, unsent, clientOf }: SandboxParts): Router {
  const router = mountedRouter()
  const apiMiddleware = toMiddleware(api, unsent, clientOf)
  // The API first: it is the hot path, and its paths never collide with the others.
  router.use((req, res, next) => {
    if (isApiPath(req.url)) apiMiddleware(req, res, next)
    else next()
  })
  router.use(adminMount, inspector.middleware, sandboxContractMiddleware, toMiddleware(admin, unsent, clientOf))
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
  app.use(corsOf(options))
  // The router answers every path (its own error handler included), so the app needs no other.
  app.use(routerOf(parts))
  return app
}

/**
 * CORS for the whole app: the admin API's guard ({@link adminCorsOf}) for the
 * requests the router mounts at `/__sandbox`, matched by the same router
 * matching, and the Plant Store's CORS for every other one.
 */
function corsOf(options: CreateAppOptions): Router {
  const router = mountedRouter()
  const adminCors = adminCorsOf(options.corsOrigins, allowedHostsOf(options.allowedHosts))
  // An admin request leaves this router once guarded ('router'): the Plant Store's CORS never sees it.
  router.use(adminMount, (req, res, next) => adminCors(req, res, (error?: unknown) => next(error ?? 'router')))
  router.use(cors(corsOptions(options.corsOrigins)))
  return router
}

/**
 * CORS for the admin API: only for the origins of an explicit list (never
 * `*`, so that no web page can provision tenants or change a tenant's state
 * from a visitor's browser). A request from any other origin that is not a
 * plain read (a preflight, a form's POST) is refused with 403 before
 * anything runs; requests from outside browsers (no `Origin`) pass, and so
 * do the sandbox's own pages: an `Origin` that is the `Host` the request was
 * sent to, scheme included (the sandbox serves `http`), when that host is one
 * of the sandbox's own names (see {@link allowedHostsOf}), so that a page of
 * a rebound DNS name cannot pass as one of them (issue 27, L3). A read that
 * claims to be the sandbox's own page gets the same check (issue 35), and so
 * does any request that came in on a loopback address under a name that is
 * not the sandbox's own, with or without an `Origin`: a rebound page's
 * same-origin `GET` carries none, and only a page resolving another name to
 * this machine sends such a `Host` there.
 */
function adminCorsOf(
  origins: CreateAppOptions['corsOrigins'],
  isAllowedHost: (host: string) => boolean,
): RequestHandler {
  const allowed = Array.isArray(origins) ? new Set<string>(origins) : new Set<string>()
  const listed = cors(corsOptions([...allowed]))
  const refuse = (req: Request, res: Response, message: string) =>
    sendCoreResponse(req, res, errorResponse(403, message))
  const rebound = (name: string) =>
    `The admin API (${adminMount}) does not take calls from pages served as ${JSON.stringify(echoed(name))}: ` +
    "it is not one of this sandbox's host names (a DNS rebinding looks like this); " +
    'start the sandbox with --allowed-host naming it if it is yours.'
  return (req, res, next) => {
    const { origin, host } = req.headers
    if (origin !== undefined && allowed.has(origin)) return listed(req, res, next)
    const name = hostnameOfHeader(host)
    if (name !== undefined && !isAllowedHost(name) && cameOnLoopback(req)) return refuse(req, res, rebound(name))
    if (origin === undefined) return listed(req, res, next)
    const same = sameOrigin(origin, host, req.protocol)
    if (same !== undefined) return isAllowedHost(same) ? next() : refuse(req, res, rebound(same))
    // A read from another origin gets no CORS grant: its page cannot see the answer.
    if (req.method === 'GET' || req.method === 'HEAD') return next()
    refuse(
      req,
      res,
      `The admin API (${adminMount}) does not take calls from the web origin ${JSON.stringify(echoed(origin))}; ` +
        'start the sandbox with --cors-origins listing it to allow them.',
    )
  }
}

/**
 * The host name of the `Host` a request was sent to when its `Origin` is that
 * very address, with the scheme the request came in with, else `undefined`.
 */
function sameOrigin(origin: string, host: string | undefined, protocol: string): string | undefined {
  if (host === undefined) return undefined
  try {
    const sent = new URL(`${protocol}://${host}`)
    const from = new URL(origin)
    return from.protocol === sent.protocol && from.host === sent.host ? sent.hostname : undefined
  } catch {
    return undefined
  }
}

/** The host name a `Host` header names, as the URL parser reads it; `undefined` without one (or when it names none). */
function hostnameOfHeader(host: string | undefined): string | undefined {
  if (host === undefined || host === '') return undefined
  try {
    return new URL(`http://${host}`).hostname
  } catch {
    return undefined
  }
}

/** Whether the request came in on a loopback address (127.0.0.0/8, `::1`): from this very machine. */
function cameOnLoopback(req: Request): boolean {
  const local = req.socket.localAddress ?? ''
  return local.startsWith('127.') || local === '::1' || local.startsWith('::ffff:127.')
}

/**
 * Whether a host name (as the URL parser reads it: lower case, IPv6 in
 * brackets) is one of the sandbox's own: an IP address (no DNS name, so
 * nothing to rebind), `localhost` and any `*.localhost` (browsers resolve
 * them to loopback themselves), and the names given (the configured `--host`
 * and each `--allowed-host`). A trailing dot is ignored.
 *
 * @example
 * allowedHostsOf(['sandbox.internal'])('rebind.attacker.example') // false
 */
export function allowedHostsOf(names: readonly string[] = []): (hostname: string) => boolean {
  const own = new Set(names.map((name) => hostnameOf(name)).filter((name) => name !== undefined))
  return (hostname) => {
    const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname
    return (
      isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0 ||
      name === 'localhost' ||
      name.endsWith('.localhost') ||
      own.has(name)
    )
  }
}

/** A host name as the URL parser reads it (`::1` → `[::1]`, `LocalHost` → `localhost`); `undefined` when it is none. */
function hostnameOf(name: string): string | undefined {
  try {
    const hostname = new URL(`http://${isIP(name) === 6 ? `[${name}]` : name}`).hostname
    return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname
  } catch {
    return undefined
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
