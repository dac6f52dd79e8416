import type { IncomingMessage, ServerResponse } from 'node:http'
import { bearerToken, signIn } from '../../core/auth.ts'
import { clientOf } from '../../core/client-address.ts'
import { writesPlants } from '../../core/core.ts'
import type { TenantCoverage } from '../../core/coverage.ts'
import { errorResponse, renderError } from '../../core/errors.ts'
import type { JournalEntry, RequestJournal } from '../../core/journal.ts'
import type { PlantStore } from '../../core/store.ts'
import type { FaultRules } from '../../faults/fault-rules.ts'
import { answeredUndeclared } from '../admin/undeclared.ts'
import type { ClientAddress } from '../connections/client-address.ts'
import { requestHeader, sendCoreResponse } from '../express/adapter.ts'

export interface InspectorOptions {
  store: PlantStore
  journal: RequestJournal
  faults: FaultRules
  /** The tenants' contract coverage: a stream carries its tenant's whenever an exchange may have changed it. */
  coverage?: TenantCoverage | undefined
  /** Live streams one tenant may hold open at once (default 4); more are refused with 429. */
  maxStreamsPerTenant?: number
  /**
   * The share (above 0, at most 1) of {@link inspectorLimits.maxStreams} one
   * client address may hold open, over all its tenants (default 1: no share
   * of its own; at least `maxStreamsPerTenant`); more are refused with 429.
   */
  clientShare?: number | undefined
  /** Each request's client address (the sandbox's one `clientAddress`: a trusted proxy's header counts). */
  clientAddress?: ClientAddress | undefined
}

/** How the live stream stays cheap with a busy tenant. */
export const inspectorLimits = {
  /** Events are written in one batch per interval. */
  flushIntervalMs: 100,
  /** Exchanges held per stream between two batches; older ones are skipped (and counted). */
  maxQueuedExchanges: 200,
  /** Plants a `plants` event carries (with the tenant's full count). */
  maxPlantsShown: 200,
  /**
   * Bytes written to a stream and not yet taken by its client, at most: each
   * batch (and the backlog sent at connect) is cut to what fits before it is
   * written, the newest exchanges kept and the others skipped (and counted).
   * A stream that cannot take even part of a batch is too far behind: it is
   * destroyed.
   */
  maxBufferedBytes: 1 << 20,
  /**
   * A comment line keeps idle streams open through proxies and socket
   * timeouts; a stream whose client took none of its unread bytes since the
   * last heartbeat is stalled: it is destroyed.
   */
  heartbeatMs: 15_000,
  /** An ended stream (tenant gone, token expired) whose client does not take its last bytes is destroyed after this. */
  endGraceMs: 5000,
  /** Live streams the whole sandbox holds open at once; more are refused with 429. */
  maxStreams: 100,
} as const

/**
 * One open live stream. It counts towards the caps until its socket is
 * closed, not when it is ended: a client that does not read cannot hold
 * memory outside the caps.
 */
interface Stream {
  readonly tenantId: string
  /** The client address it was opened from (see `clientOf`). */
  readonly client: string
  /** The token it was opened with: the stream ends when it expires. */
  readonly token: string
  readonly res: ServerResponse
  readonly queue: JournalEntry[]
  skipped: number
  plantsChanged: boolean
  faultsChanged: boolean
  coverageChanged: boolean
  /** Ended or destroyed: nothing more is written, though it counts until its socket is closed. */
  closing: boolean
  /** Bytes written to it so far. */
  written: number
  /** Bytes its client had taken at the last heartbeat. */
  deliveredAtHeartbeat: number
}

/** The inspector's page, script and style, read from the package once on first use. */
let files: Map<string, { type: string; text: string }> | undefined
function inspectorFiles(): Map<string, { type: string; text: string }> {
  files ??= (() => {
    // Through getBuiltinModule when first used: the ESM faces of node:fs and node:module load more at start.
    const { readFileSync } = process.getBuiltinModule('node:fs')
    const { dirname, join } = process.getBuiltinModule('node:path')
    const require = process.getBuiltinModule('node:module').createRequire(import.meta.url)
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
  /** A tenant was reset (its plants seeded again, its journal and coverage forgotten): its streams get them again. */
  reset(tenantId: string): void
  /**
   * A cluster replica stops serving a tenant (handed over to another, or
   * evicted, deleted or expired): its streams end at once with a `released`
   * event; the page reconnects and reaches whichever replica serves it now
   * (or learns from a 401 that it is gone).
   */
  release(tenantId: string): void
  /**
   * The sandbox is shutting down: every stream ends at once with a
   * `released` event (reconnect), so that none holds the stop until its
   * connection is cut.
   */
  close(): void
}

/**
 * The live inspector, mounted at `/__sandbox`: the page at `/__sandbox/`
 * (with its script and style, served from the package's own files under a
 * strict CSP) and its event stream `GET /__sandbox/events` (server-sent
 * events, authorised by the tenant's token in `Authorization`, never in the
 * URL). It opens with a `hello` event naming the tenant and the token's
 * scopes (the page shows its controls only to a token with `plants:write`).
 * A stream carries only its tenant's exchanges, as the journal records
 * them (redacted, bodies cut), with its plants, fault rules and contract
 * coverage whenever they change; events are
 * batched, queues and streams bounded ({@link inspectorLimits}). A stream
 * ends with a `gone` event when its tenant is removed, an `expired` event
 * when its token expires and a `released` event when a cluster replica lets
 * its tenant go ({@link Inspector.release}); one too far behind is destroyed; each counts
 * towards the caps until its socket is closed.
 *
 * @example
 * const inspector = createInspector({ store, journal, faults })
 * router.use('/__sandbox', inspector.middleware)
 */
export function createInspector({
  store,
  journal,
  faults,
  coverage,
  maxStreamsPerTenant = 4,
  clientShare = 1,
  clientAddress = (req) => req.socket.remoteAddress,
}: InspectorOptions): Inspector {
  const streams = new Set<Stream>()
  /** Streams one client address may hold open (issue 44, 7). */
  const maxStreamsPerClient = Math.min(
    inspectorLimits.maxStreams,
    Math.max(maxStreamsPerTenant, Math.ceil(inspectorLimits.maxStreams * clientShare)),
  )
  let ticker: ReturnType<typeof setInterval> | undefined
  let ticks = 0

  const each = (tenantId: string, change: (stream: Stream) => void) => {
    for (const stream of streams) if (stream.tenantId === tenantId && !stream.closing) change(stream)
  }
  journal.subscribe((tenantId, entry) => {
    each(tenantId, (stream) => {
      if (stream.queue.length >= inspectorLimits.maxQueuedExchanges) {
        stream.queue.shift()
        stream.skipped++
      }
      stream.queue.push(entry)
      // The exchange was counted too (coverage and journal observe the same outcome).
      stream.coverageChanged = true
      const wrote = writesPlants(entry.operation)
      if (wrote && entry.response.status >= 200 && entry.response.status < 300) stream.plantsChanged = true
    })
  })
  faults.subscribe((tenantId) => {
    each(tenantId, (stream) => {
      stream.faultsChanged = true
    })
  })

  /** Its socket is closed: it stops counting. */
  const release = (stream: Stream) => {
    if (!streams.delete(stream)) return
    stream.closing = true
    stream.queue.length = 0
    if (streams.size === 0) {
      clearInterval(ticker)
      ticker = undefined
    }
  }
  /** Too far behind or stalled: its socket is reset at once, whatever it has not taken is dropped. */
  const destroy = (stream: Stream) => {
    stream.closing = true
    stream.queue.length = 0
    const { socket } = stream.res
    if (socket && !socket.destroyed) socket.resetAndDestroy()
    else stream.res.destroy()
  }
  /** Ends it with a last event; destroyed if its client has not taken it in time. */
  const finish = (stream: Stream, last: string) => {
    stream.closing = true
    stream.queue.length = 0
    const { res } = stream
    if (res.writableLength + Buffer.byteLength(last) <= inspectorLimits.maxBufferedBytes) res.end(last)
    else res.end()
    setTimeout(() => {
      if (streams.has(stream)) destroy(stream)
    }, inspectorLimits.endGraceMs).unref()
  }

  /** A tenant's `coverage` event, built once per batch however many of its streams are open. */
  const coverageEvents = new Map<string, string>()
  const coverageOf = (tenantId: string) => {
    if (!coverage) return ''
    let text = coverageEvents.get(tenantId)
    if (text === undefined) {
      text = event('coverage', coverage.report(tenantId))
      coverageEvents.set(tenantId, text)
    }
    return text
  }

  const flush = () => {
    ticks++
    coverageEvents.clear()
    const heartbeat = ticks % Math.round(inspectorLimits.heartbeatMs / inspectorLimits.flushIntervalMs) === 0
    for (const stream of streams) {
      if (stream.closing) continue
      const { tenantId, res } = stream
      if (!store.hasTenant(tenantId)) {
        finish(stream, event('gone', { tenant: tenantId }))
        continue
      }
      if (!store.isTokenValid(stream.token)) {
        finish(stream, event('expired', { tenant: tenantId }))
        continue
      }
      if (heartbeat) {
        const delivered = stream.written - res.writableLength
        if (res.writableLength > 0 && delivered === stream.deliveredAtHeartbeat) {
          destroy(stream)
          continue
        }
        stream.deliveredAtHeartbeat = delivered
      }
      let required = ''
      if (stream.plantsChanged) required += plantsEvent(store, tenantId)
      if (stream.faultsChanged) required += event('faults', { faults: faults.list(tenantId) })
      if (stream.coverageChanged) required += coverageOf(tenantId)
      const exchanges = stream.queue.splice(0)
      const { skipped } = stream
      stream.skipped = 0
      stream.plantsChanged = false
      stream.faultsChanged = false
      stream.coverageChanged = false
      if (required === '' && exchanges.length === 0 && skipped === 0) {
        if (heartbeat) writeWithin(stream, ': keep-alive\n\n', [], 0)
        continue
      }
      // A client that cannot take even part of the batch is let go rather than buffered for without bound.
      if (!writeWithin(stream, required, exchanges, skipped)) destroy(stream)
    }
    coverageEvents.clear()
  }

  const events = async (req: IncomingMessage, res: ServerResponse) => {
    if (answeredUndeclared('inspectorEvents', req, res)) return
    try {
      // Read as the API reads it: a duplicated Authorization is refused, never its first copy taken.
      const authorization = requestHeader(req, 'authorization')
      const { tenantId, scopes } = await signIn(store, authorization, 'plants:read')
      const client = clientOf(clientAddress(req))
      let tenantStreams = 0
      let clientStreams = 0
      for (const stream of streams) {
        if (stream.tenantId === tenantId) tenantStreams++
        if (stream.client === client) clientStreams++
      }
      if (
        tenantStreams >= maxStreamsPerTenant ||
        clientStreams >= maxStreamsPerClient ||
        streams.size >= inspectorLimits.maxStreams
      ) {
        const limit =
          tenantStreams >= maxStreamsPerTenant
            ? `${maxStreamsPerTenant} for a tenant`
            : clientStreams >= maxStreamsPerClient
              ? `${maxStreamsPerClient} from one address`
              : `${inspectorLimits.maxStreams} in all`
        const message = `Too many open inspector streams (at most ${limit}); close one first.`
        sendCoreResponse(req, res, errorResponse(429, message, { 'retry-after': '5' }))
        return
      }
      // Gone while the store was loading: its 'close' has passed, it must not be counted.
      if (res.destroyed || req.socket.destroyed) return
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      })
      const stream: Stream = {
        tenantId,
        client,
        // `signIn` accepted it: it is a bearer token.
        token: bearerToken(authorization) ?? '',
        res,
        queue: [],
        skipped: 0,
        plantsChanged: false,
        faultsChanged: false,
        coverageChanged: false,
        closing: false,
        written: 0,
        deliveredAtHeartbeat: 0,
      }
      streams.add(stream)
      ticker ??= setInterval(flush, inspectorLimits.flushIntervalMs)
      ticker.unref?.()
      res.on('close', () => release(stream))
      const opening =
        `retry: 2000\n\n${event('hello', { tenant: tenantId, scopes })}` +
        `${plantsEvent(store, tenantId)}${event('faults', { faults: faults.list(tenantId) })}` +
        (coverage ? event('coverage', coverage.report(tenantId)) : '')
      const backlog = journal.entries(tenantId)
      const kept = backlog.slice(-inspectorLimits.maxQueuedExchanges)
      if (!writeWithin(stream, opening, kept, backlog.length - kept.length)) destroy(stream)
    } catch (error) {
      sendCoreResponse(req, res, renderError(error))
    }
  }

  const middleware: Inspector['middleware'] = (req, res, next) => {
    const method = req.method ?? 'GET'
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    // As the admin API routes it: a path without parameters also with one trailing slash.
    if (method === 'GET' && (path === '/events' || path === '/events/')) {
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
    reset(tenantId) {
      each(tenantId, (stream) => {
        stream.plantsChanged = true
        stream.coverageChanged = true
      })
    },
    release(tenantId) {
      // Handed over or removed, the page reconnects: the replica serving it now answers, or a 401 says it is gone.
      const last = event('released', { tenant: tenantId })
      each(tenantId, (stream) => finish(stream, last))
    },
    close() {
      for (const stream of streams) if (!stream.closing) finish(stream, event('released', { tenant: stream.tenantId }))
    },
  }
}

/** Room kept in a batch for the `skipped` event that tells how many exchanges did not fit. */
const skippedEventBytes = 64

/**
 * Writes `required` (all of it, or nothing) and then as many of `exchanges` as
 * fit in the stream's budget, the newest ones, telling in a `skipped` event
 * how many were left out (with `skipped`, those left out before). Checked
 * before writing: the stream's unread bytes never pass
 * {@link inspectorLimits.maxBufferedBytes}. Answers false when nothing fits.
 */
function writeWithin(stream: Stream, required: string, exchanges: readonly JournalEntry[], skipped: number): boolean {
  let room = inspectorLimits.maxBufferedBytes - stream.res.writableLength - Buffer.byteLength(required)
  if (room < 0) return false
  const kept: string[] = []
  let first = exchanges.length
  for (; first > 0; first--) {
    const text = event('exchange', exchanges[first - 1])
    const bytes = Buffer.byteLength(text)
    if (bytes > room - skippedEventBytes) break
    room -= bytes
    kept.push(text)
  }
  const left = skipped + first
  if (required === '' && kept.length === 0 && exchanges.length > 0) return false
  const chunk = `${required}${left > 0 ? event('skipped', { count: left }) : ''}${kept.reverse().join('')}`
  if (chunk === '') return true
  stream.written += Buffer.byteLength(chunk)
  stream.res.write(chunk)
  return true
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
