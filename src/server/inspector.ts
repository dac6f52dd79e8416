import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { authenticate, authorize } from '../core/auth.ts'
import { errorResponse, renderError } from '../core/errors.ts'
import type { PlantStore } from '../core/store.ts'
import type { FaultRules } from '../faults/fault-rules.ts'
import { sendCoreResponse } from './adapter.ts'
import type { JournalEntry, RequestJournal } from './journal.ts'

export interface InspectorOptions {
  store: PlantStore
  journal: RequestJournal
  faults: FaultRules
  /** Live streams one tenant may hold open at once (default 4); more are refused with 429. */
  maxStreamsPerTenant?: number
}

/** How the live stream stays cheap with a busy tenant. */
export const inspectorLimits = {
  /** Events are written in one batch per interval. */
  flushIntervalMs: 100,
  /** Exchanges held per stream between two batches; older ones are skipped (and counted). */
  maxQueuedExchanges: 200,
  /** Plants a `plants` event carries (with the tenant's full count). */
  maxPlantsShown: 200,
  /** A stream whose client reads slower than this backlog (bytes) is closed. */
  maxBufferedBytes: 1 << 20,
  /** A comment line keeps idle streams open through proxies and socket timeouts. */
  heartbeatMs: 15_000,
  /** Live streams the whole sandbox holds open at once; more are refused with 429. */
  maxStreams: 100,
} as const

/** One open live stream. */
interface Stream {
  readonly tenantId: string
  readonly res: ServerResponse
  readonly queue: JournalEntry[]
  skipped: number
  plantsChanged: boolean
  faultsChanged: boolean
}

const require = createRequire(import.meta.url)

/** The inspector's page, script and style, read from the package once on first use. */
let files: Map<string, { type: string; text: string }> | undefined
function inspectorFiles(): Map<string, { type: string; text: string }> {
  files ??= (() => {
    const dir = join(dirname(require.resolve('plant-store-mock/package.json')), 'src', 'inspector')
    const read = (name: string) => readFileSync(join(dir, name), 'utf8')
    return new Map([
      ['/', { type: 'text/html; charset=utf-8', text: read('index.html') }],
      ['/inspector.js', { type: 'text/javascript; charset=utf-8', text: read('inspector.js') }],
      ['/inspector.css', { type: 'text/css; charset=utf-8', text: read('inspector.css') }],
    ])
  })()
  return files
}

/** The inspector's own files only: no inline script or style, no other origin, never framed. */
const pageHeaders = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-cache',
} as const

/** The live inspector: its routes, and how to tell it what it cannot see happen. */
export interface Inspector {
  /**
   * Its page, script, style and event stream, for the `/__sandbox` mount point: connect-style middleware that
   * answers what it owns and hands the rest to `next` (plain Node: no Express needed).
   */
  readonly middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => void
  /** A tenant's plants changed outside the API (a reset): its streams get them again. */
  plantsChanged(tenantId: string): void
}

/**
 * The live inspector, mounted at `/__sandbox`: the page at `/__sandbox/`
 * (with its script and style, served from the package's own files under a
 * strict CSP) and its event stream `GET /__sandbox/events` (server-sent
 * events, authorised by the tenant's token in `Authorization`, never in the
 * URL). A stream carries only its tenant's exchanges, as the journal records
 * them, with its plants and fault rules whenever they change; events are
 * batched, queues and streams bounded ({@link inspectorLimits}).
 *
 * @example
 * const inspector = createInspector({ store, journal, faults })
 * router.use('/__sandbox', inspector.middleware)
 */
export function createInspector({ store, journal, faults, maxStreamsPerTenant = 4 }: InspectorOptions): Inspector {
  const streams = new Set<Stream>()
  let ticker: ReturnType<typeof setInterval> | undefined
  let ticks = 0

  const each = (tenantId: string, change: (stream: Stream) => void) => {
    for (const stream of streams) if (stream.tenantId === tenantId) change(stream)
  }
  journal.subscribe((tenantId, entry) => {
    each(tenantId, (stream) => {
      if (stream.queue.length >= inspectorLimits.maxQueuedExchanges) {
        stream.queue.shift()
        stream.skipped++
      }
      stream.queue.push(entry)
      const wrote = entry.operation === 'addPlant' || entry.operation === 'deletePlant'
      if (wrote && entry.response.status >= 200 && entry.response.status < 300) stream.plantsChanged = true
    })
  })
  faults.subscribe((tenantId) => {
    each(tenantId, (stream) => {
      stream.faultsChanged = true
    })
  })

  const close = (stream: Stream) => {
    if (!streams.delete(stream)) return
    if (streams.size === 0) {
      clearInterval(ticker)
      ticker = undefined
    }
    stream.res.end()
  }

  const flush = () => {
    ticks++
    const heartbeat = ticks % Math.round(inspectorLimits.heartbeatMs / inspectorLimits.flushIntervalMs) === 0
    for (const stream of streams) {
      const { tenantId } = stream
      if (!store.hasTenant(tenantId)) {
        stream.res.write(event('gone', { tenant: tenantId }))
        close(stream)
        continue
      }
      let chunk = ''
      if (stream.skipped > 0) chunk += event('skipped', { count: stream.skipped })
      for (const entry of stream.queue) chunk += event('exchange', entry)
      if (stream.plantsChanged) chunk += plantsEvent(store, tenantId)
      if (stream.faultsChanged) chunk += event('faults', { faults: faults.list(tenantId) })
      if (chunk === '' && heartbeat) chunk = ': keep-alive\n\n'
      stream.queue.length = 0
      stream.skipped = 0
      stream.plantsChanged = false
      stream.faultsChanged = false
      if (chunk === '') continue
      stream.res.write(chunk)
      // A client that cannot keep up is let go rather than buffered for without bound.
      if (stream.res.writableLength > inspectorLimits.maxBufferedBytes) close(stream)
    }
  }

  const events = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      await store.ready.catch(() => undefined)
      const principal = authenticate(store, req.headers.authorization ?? null)
      authorize(principal, 'plants:read')
      const { tenantId } = principal
      let tenantStreams = 0
      each(tenantId, () => tenantStreams++)
      if (tenantStreams >= maxStreamsPerTenant || streams.size >= inspectorLimits.maxStreams) {
        const limit =
          tenantStreams >= maxStreamsPerTenant
            ? `${maxStreamsPerTenant} for a tenant`
            : `${inspectorLimits.maxStreams} in all`
        const message = `Too many open inspector streams (at most ${limit}); close one first.`
        sendCoreResponse(req, res, errorResponse(429, message, { 'retry-after': '5' }))
        return
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      })
      const stream: Stream = { tenantId, res, queue: [], skipped: 0, plantsChanged: false, faultsChanged: false }
      streams.add(stream)
      ticker ??= setInterval(flush, inspectorLimits.flushIntervalMs)
      ticker.unref?.()
      res.on('close', () => close(stream))
      const backlog = journal.entries(tenantId).slice(-inspectorLimits.maxQueuedExchanges)
      res.write(
        `retry: 2000\n\n${event('hello', { tenant: tenantId })}${plantsEvent(store, tenantId)}` +
          `${event('faults', { faults: faults.list(tenantId) })}${backlog.map((entry) => event('exchange', entry)).join('')}`,
      )
    } catch (error) {
      sendCoreResponse(req, res, renderError(error))
    }
  }

  const middleware: Inspector['middleware'] = (req, res, next) => {
    const method = req.method ?? 'GET'
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (method === 'GET' && path === '/events') {
      void events(req, res)
      return
    }
    const file = method === 'GET' || method === 'HEAD' ? inspectorFiles().get(path) : undefined
    if (!file) {
      next()
      return
    }
    // The page's relative links need the trailing slash: /__sandbox → /__sandbox/.
    const { originalUrl = req.url ?? '/', baseUrl = '' } = req as { originalUrl?: string; baseUrl?: string }
    if (path === '/' && !(originalUrl.split('?')[0] ?? '').endsWith('/')) {
      res.writeHead(308, { location: `${baseUrl}/` }).end()
      return
    }
    res.writeHead(200, { ...pageHeaders, 'content-type': file.type, 'content-length': Buffer.byteLength(file.text) })
    res.end(method === 'HEAD' ? undefined : file.text)
  }
  return {
    middleware,
    plantsChanged(tenantId) {
      each(tenantId, (stream) => {
        stream.plantsChanged = true
      })
    },
  }
}

/** One server-sent event; JSON text holds no line break, so one `data` line carries it. */
function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`
}

function plantsEvent(store: PlantStore, tenantId: string): string {
  if (!store.hasTenant(tenantId)) return ''
  const plants = store.listPlants(tenantId, inspectorLimits.maxPlantsShown)
  return event('plants', { count: store.countPlants(tenantId), plants })
}
