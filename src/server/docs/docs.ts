import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import express, { type Request, type RequestHandler, type Router } from 'express'
import type { Document } from 'yaml'
import { sandboxContractDocument } from '../../generated/sandbox-contract-document.ts'
import { answeredUndeclared } from '../admin/undeclared.ts'
import { unavailable } from '../sandbox.ts'

const require = createRequire(import.meta.url)

/** The contract's text and its parsed document, read once on first use. */
let contract: { yaml: string; document: Document } | undefined

async function shippedContract(): Promise<{ yaml: string; document: Document }> {
  if (!contract) {
    const root = dirname(require.resolve('plant-store-mock/package.json'))
    const yaml = readFileSync(join(root, 'contracts', 'openapi.yaml'), 'utf8')
    // Loaded on first use: the YAML parser is not worth its start-up time otherwise.
    const { parseDocument } = await import('yaml')
    contract = { yaml, document: parseDocument(yaml) }
  }
  return contract
}

/**
 * The contract as shipped in the package (`contracts/openapi.yaml`), as YAML
 * and as JSON text.
 *
 * @example
 * JSON.parse((await openapiDocument()).json).info.version // '1.0.0'
 */
export async function openapiDocument(): Promise<{ yaml: string; json: string }> {
  const { yaml, document } = await shippedContract()
  return { yaml, json: JSON.stringify(document.toJS()) }
}

/**
 * Where a served document names the address it was served from: a
 * placeholder that a document is made with once, then replaced by each
 * request's own `servers` URL (issue 35: the documents were made anew for
 * each `Host` a client sent, 5.7× the cost of a kept one for a new `Host` on
 * every request). Splicing a string costs the same whatever the `Host`, so
 * nothing is kept per address and no client can grow anything.
 */
const servedAt = 'https://served-at.invalid/placeholder'

/** A document's text cut at its {@link servedAt} placeholder (a JSON string there), to splice a URL in. */
interface Spliced {
  readonly before: string
  readonly after: string
}

/** Cuts `text` around the one `"…"` placeholder it holds. */
function cutAtPlaceholder(text: string): Spliced {
  const quoted = JSON.stringify(servedAt)
  const at = text.indexOf(quoted)
  if (at === -1 || text.indexOf(quoted, at + 1) !== -1)
    throw new Error('docs: the served-at placeholder is not there once')
  return { before: text.slice(0, at), after: text.slice(at + quoted.length) }
}

/** The document with `url` in its placeholder's place, as a JSON string (also a valid YAML double-quoted scalar). */
function spliced({ before, after }: Spliced, url: string): string {
  return before + JSON.stringify(url) + after
}

/** The `servers` entry of a document served to this request: the origin and `base` it came in on. */
function thisSandbox(req: Request, base: string): { url: string; description: string } {
  return { url: servedUrl(req, base), description: 'This sandbox: where this document was served from.' }
}

/**
 * The origin and `base` a request came in on: its `Host` as the URL parser
 * normalises it (lower case, no default port, `[::1]`); without a `Host`, or
 * with one that is no host at all, the mount path alone.
 */
function servedUrl(req: Request, base: string): string {
  const host = req.get('host')
  if (host !== undefined) {
    try {
      const { origin } = new URL(`${req.protocol}://${host}`)
      if (origin !== 'null') return `${origin}${base}`
    } catch {} // not a host: the mount path alone
  }
  return base || '/'
}

/** The contract with the placeholder server, as YAML and JSON text cut around it: made once, on first use. */
let contractTexts: Promise<{ yaml: Spliced; json: Spliced }> | undefined

function contractSpliced(): Promise<{ yaml: Spliced; json: Spliced }> {
  contractTexts ??= shippedContract().then(({ document }) => {
    const served = document.clone()
    served.set(
      'servers',
      served.createNode([{ url: servedAt, description: 'This sandbox: where this document was served from.' }]),
    )
    const yaml = served.toString({ lineWidth: 0 }).replace(`url: ${servedAt}`, `url: ${JSON.stringify(servedAt)}`)
    return { yaml: cutAtPlaceholder(yaml), json: cutAtPlaceholder(JSON.stringify(served.toJS())) }
  })
  // A failed load (the YAML parser's chunk missing, say) is a 503 now and tried again by the next request.
  return contractTexts.catch((error: unknown) => {
    contractTexts = undefined
    throw Object.assign(unavailable('the contract (its YAML parser)'), { cause: error })
  })
}

/**
 * The contract as this sandbox serves it: `servers` names the origin and
 * mount point the request came in on (`http://localhost:8080/plant-store`),
 * so Swagger UI's "Try it out" calls this very sandbox, same-origin, wherever
 * it runs. Without a `Host` header the server is the mount path alone. The
 * text is made once and only the address is spliced in per request.
 *
 * @example
 * (await servedDocument(req)).json // '{"openapi":"3.0.3",…,"servers":[{"url":"http://localhost:4010",…}],…}'
 */
async function servedDocument(req: Request): Promise<{ yaml: string; json: string }> {
  const url = servedUrl(req, req.baseUrl)
  const { yaml, json } = await contractSpliced()
  return { yaml: spliced(yaml, url), json: spliced(json, url) }
}

/**
 * Swagger UI's own files, no CDN, works offline: the copy the build puts in the package (`dist/swagger-ui/`),
 * else, in a clone before a build, the `swagger-ui-dist` package they are copied from.
 */
function swaggerUiDir(): string {
  const shipped = join(dirname(require.resolve('plant-store-mock/package.json')), 'dist', 'swagger-ui')
  return existsSync(join(shipped, 'swagger-ui-bundle.js'))
    ? shipped
    : dirname(require.resolve('swagger-ui-dist/package.json'))
}

/** The mount point of the sandbox control API, which its contract's paths begin with. */
const sandboxMount = '/__sandbox'

/**
 * Serves the sandbox control API's contract (`contracts/sandbox.openapi.yaml`,
 * as generated into `src/generated`) at `GET /__sandbox/openapi.json`, for
 * the `/__sandbox` mount point: its `servers` is the origin and mount point
 * of the whole sandbox (the contract's paths begin with `/__sandbox`), as
 * the request came in; a query parameter or a body is a 400, as everywhere
 * below `/__sandbox`. Anything else, another method included, goes on to `next`.
 *
 * @example
 * router.use('/__sandbox', sandboxContractMiddleware, toMiddleware(admin))
 */
export const sandboxContractMiddleware: RequestHandler = (req, res, next) => {
  // Any other method goes on to the admin API's dispatcher, whose 405 names the contract's methods.
  if (req.path !== '/openapi.json' || (req.method !== 'GET' && req.method !== 'HEAD')) {
    next()
    return
  }
  if (answeredUndeclared(req.method === 'HEAD' ? 'headSandboxContract' : 'sandboxContract', req, res)) return
  const base = req.baseUrl.endsWith(sandboxMount) ? req.baseUrl.slice(0, -sandboxMount.length) : req.baseUrl
  sandboxContractText ??= cutAtPlaceholder(
    JSON.stringify({ ...sandboxContractDocument, servers: [{ ...thisSandbox(req, base), url: servedAt }] }),
  )
  res.type('application/json').send(spliced(sandboxContractText, servedUrl(req, base)))
}

/** The sandbox control API's contract with the placeholder server, cut around it: made on first use. */
let sandboxContractText: Spliced | undefined

/** Points Swagger UI at both contracts, relative to `/docs/` so that it works below any mount point. */
const initializer = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '../openapi.json', name: 'Plant Store API' },
      { url: '../__sandbox/openapi.json', name: 'Sandbox control API (/__sandbox)' },
    ],
    'urls.primaryName': 'Plant Store API',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  })
}
`

const home = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Plant Store sandbox</title></head>
<body>
<h1>Plant Store sandbox</h1>
<p>A stateful, multi-tenant mock of the Plant Store API.</p>
<ul>
<li><a href="docs/">API reference</a> (Swagger UI): the Plant Store API and the sandbox control API</li>
<li><a href="openapi.yaml">openapi.yaml</a> and <a href="openapi.json">openapi.json</a>: the contract</li>
<li><a href="__sandbox/openapi.json">__sandbox/openapi.json</a>: the sandbox control API's contract</li>
<li><a href="__sandbox/">Inspector</a>: a tenant's live requests, coverage and fault rules (with its token)</li>
<li><a href="__sandbox/health">__sandbox/health</a></li>
</ul>
</body>
</html>
`

/** Browser protections for the HTML pages: Swagger UI needs only its own files (and inline styles). */
const securityHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const

/**
 * The documentation routes: `/` (a page linking the rest), `/openapi.yaml`,
 * `/openapi.json` and the Swagger UI reference at `/docs/`, which shows the
 * Plant Store API and the sandbox control API (served by
 * {@link sandboxContractMiddleware}).
 *
 * @example
 * app.use(docsRouter())
 */
export function docsRouter(): Router {
  const router = express.Router()
  router.use((_req, res, next) => {
    res.set(securityHeaders)
    next()
  })
  router.get('/', (_req, res) => {
    res.type('html').send(home)
  })
  router.get('/openapi.yaml', async (req, res) => {
    res.type('application/yaml; charset=utf-8').send((await servedDocument(req)).yaml)
  })
  router.get('/openapi.json', async (req, res) => {
    res.type('application/json').send((await servedDocument(req)).json)
  })
  router.get('/docs/swagger-initializer.js', (_req, res) => {
    res.type('text/javascript').send(initializer)
  })
  router.use('/docs', express.static(swaggerUiDir(), { index: 'index.html', maxAge: '1h' }))
  return router
}
