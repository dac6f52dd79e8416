import type { RequestListener, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { generatePlants } from '../../fixtures/world.ts'
import type { ClusterOptions } from '../cluster/replica.ts'
import { errorResponse, renderError } from '../core/errors.ts'
import { defaultMaxHeld } from '../core/held-requests.ts'
import { bodyTooLarge } from '../core/http.ts'
import type { PlantStore, RecordChange } from '../core/store.ts'
import { contract } from '../generated/contract.ts'
import { defaultClientShare } from './admin/provisioning-rate.ts'
import { type ConnectionCounts, Connections, defaultMaxConnections } from './connections/connections.ts'
import type { Webhook } from './events/webhook.ts'
import { sendCoreResponse } from './express/adapter.ts'
import { type CreateAppOptions, sandboxListener, sandboxParts, sandboxStore } from './sandbox.ts'

// Through `getBuiltinModule`, not an `import`: the ESM face of `node:http` reads every export, among them
// the lazy `WebSocket` and `MessageEvent`, which load Node's fetch (undici): 40 ms of start-up for nothing.
const { createServer, STATUS_CODES } = process.getBuiltinModule('node:http')

export interface StartSandboxOptions extends CreateAppOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string
  /** Port to listen on; `0` picks a free one (default 4010). */
  port?: number
  /**
   * Keep the whole state in this file: loaded at start (if it exists), each
   * write on disk before it is answered, compacted on {@link RunningSandbox.close}.
   * The sandbox makes its store then: not with `store`.
   */
  stateFile?: string
  /**
   * Connections accepted at once; beyond, a new one is closed as soon as it
   * is accepted (default: the open-file limit less 128, see
   * {@link defaultMaxConnections}). Requests held by a delay are capped at
   * half of it unless `maxHeld` says otherwise.
   */
  maxConnections?: number
  /**
   * Requests one kept-alive connection may make; the answer to the last says
   * `Connection: close` (default {@link serverTimeouts.maxRequestsPerSocket}; 0: no limit).
   */
  maxRequestsPerSocket?: number
  /**
   * The time a request's body may take to arrive whole once its headers are
   * in; past it the answer is 408 and the connection closes (default
   * 10,000 ms, see `slowBodies`).
   */
  bodyTimeoutMs?: number
  /** How long in-flight requests may take to finish on close before their connections are cut (default 10,000 ms). */
  shutdownTimeoutMs?: number
  webhook?: Webhook
  /**
   * Run as one replica of a cluster behind a tenant-affine proxy: provisioned
   * tenants get signed tokens any replica can serve, and with `redisUrl` every
   * write is in Redis before it is answered (see the README's "Scaling the sandbox").
   */
  cluster?: ClusterOptions
}

/** A sandbox listening on a port. */
export interface RunningSandbox {
  /** The base URL, e.g. `http://127.0.0.1:4010`. */
  readonly url: string
  readonly server: Server
  readonly store: PlantStore
  /** Its connections now: open, idle, requests waiting for their turn, and those cut to keep the bounds. */
  connections(): ConnectionCounts
  /**
   * Stops accepting connections, answers every request held by a delay at
   * once (its real answer, as if the delay were over), lets in-flight
   * requests finish (cutting them after the shutdown timeout), each answer
   * closing its connection, waits briefly for webhook deliveries,
   * then compacts and closes the state file if one is configured.
   */
  close(): Promise<void>
}

/** Limits against slow or idle clients. */
export const serverTimeouts = {
  /** Time to receive the request headers. */
  headersTimeout: 10_000,
  /** Time to receive the whole request. */
  requestTimeout: 30_000,
  /** Idle time a kept-alive connection stays open. */
  keepAliveTimeout: 5_000,
  /** Socket inactivity (above the longest simulated delay, 30 s). */
  socketTimeout: 60_000,
  /**
   * Requests one connection may make: the answer to the last says
   * `Connection: close` (a client opens another), so that a kept-alive
   * connection is never an endless stream of work.
   */
  maxRequestsPerSocket: 1000,
} as const

/**
 * Starts the sandbox: loads the state file if there is one (a corrupt one is
 * a {@link StateFileError}, and is left untouched), then listens.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0 })
 * await fetch(`${sandbox.url}/plants`, { headers: { authorization: 'Bearer psm_acme_read' } })
 * await sandbox.close()
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  // Loaded only for a cluster replica: a single sandbox loads no Redis client.
  const replica = options.cluster
    ? await (await import('../cluster/replica.ts')).Replica.join(options.cluster, options)
    : undefined
  if (options.stateFile && options.store) {
    throw new TypeError(
      'startSandbox: `stateFile` writes through the store the sandbox makes: give `world`, not `store`.',
    )
  }
  const { eventLog, stateFile } = options
  // The store writes through the state file's log, opened once the world tells how much a file may hold.
  let record: RecordChange = () => Promise.reject(new Error('the state file is not open yet'))
  const store =
    options.store ??
    sandboxStore({ ...options, persist: replica?.persist, record: stateFile ? (change) => record(change) : undefined })
  await store.ready // a world that cannot be loaded stops the start here
  // Loaded only with a state file: its reader and schemas are of no use to a sandbox without one.
  const opened = stateFile
    ? await (await import('./state-file/state-file.ts')).StateLog.open(stateFile, {
        generatePlants,
        warn: (message) => (eventLog ? eventLog.warn({ stateFile }, message) : process.emitWarning(message)),
        // As much as provisioning may fill, or the world this sandbox starts with when that is more.
        maxPlantBytes: Math.max(store.plantBytes().max, store.plantBytes().used),
      })
    : undefined
  if (opened) record = opened.log.record
  if (opened?.saved) {
    await store.restoreTenants(opened.saved)
    eventLog?.info({ stateFile, tenants: opened.saved.length }, 'state loaded')
  }
  await opened?.log.start(() => store.savedTenants())
  const maxConnections = options.maxConnections ?? defaultMaxConnections()
  // Held requests never take more than half the connections: the others stay free for everyone else.
  const maxHeld = options.maxHeld ?? Math.min(defaultMaxHeld, Math.floor(maxConnections / 2))
  // A replica's admin API is built at once (see sandboxParts); any other loads with its first request.
  const admin = replica ? await import('./admin/admin.ts') : undefined
  const parts = sandboxParts({ ...options, store, replica, maxHeld }, admin)
  // The sandbox's own pages may be served under the name it listens on.
  const allowedHosts = [...(options.allowedHosts ?? []), options.host ?? '127.0.0.1']
  const loadApp = async () => (await import('./express/express-app.ts')).appOf(parts, { ...options, allowedHosts })
  const maxRequestsPerSocket = options.maxRequestsPerSocket ?? serverTimeouts.maxRequestsPerSocket
  const connections = new Connections({
    maxConnections,
    held: parts.held,
    maxRequestsPerSocket,
    // A replica sees one address, its proxy's: the proxy bounds each client there.
    clientShare: replica ? 1 : (options.clientShare ?? defaultClientShare),
    bodyTimeoutMs: options.bodyTimeoutMs,
    keepAliveTimeoutMs: serverTimeouts.keepAliveTimeout,
  })
  const listener = sandboxListener(parts, options, loadApp)
  const { server, url } = await listen(connections.gate(listener), {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 4010,
  }).catch(async (error: unknown) => {
    await opened?.log.abandon() // the port is taken, say: the state file is free for another start
    throw error
  })
  connections.watch(server)
  server.headersTimeout = serverTimeouts.headersTimeout
  server.requestTimeout = serverTimeouts.requestTimeout
  // The gate times the keep-alive (one sweep, not two socket timers per request): Node's own timer is off.
  server.keepAliveTimeout = 0
  server.maxRequestsPerSocket = maxRequestsPerSocket
  server.setTimeout(serverTimeouts.socketTimeout)
  server.maxConnections = maxConnections
  server.on('checkContinue', connections.gate(continueOrRefuse(listener)))
  answerClientErrors(server)

  let closing: Promise<void> | undefined

  const close = () => {
    closing ??= (async () => {
      // Every answer from now on closes its connection, and every held request is answered now (issue 44, 5).
      connections.drain()
      parts.held.answerAll()
      // Live inspector streams end now too (with `released`: reconnect), instead of waiting for the timeout's cut.
      parts.inspector.close()
      await stopListening(server, options.shutdownTimeoutMs ?? 10_000)
      await options.webhook?.drain(2_000)
      await replica?.close()
      if (opened) {
        await opened.log.close()
        eventLog?.info({ stateFile }, 'state saved')
      }
    })()
    return closing
  }
  return { url, server, store, connections: () => connections.counts(), close }
}

/**
 * Serves a Node request listener (an Express app, say) on a host and port
 * (`0`: any free one) and answers once it listens, with its base URL.
 *
 * @example
 * const { url, server } = await listen(createApp(), { host: '127.0.0.1', port: 0 })
 */
export async function listen(
  listener: RequestListener,
  { host, port }: { host: string; port: number },
): Promise<{ server: Server; url: string }> {
  const server = createServer(listener)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return { server, url: `http://${hostname}:${address.port}` }
}

/** Closes the server: idle connections at once, busy ones as soon as their answer is sent, all after `timeoutMs`. */
function stopListening(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50)
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs)
    server.close(() => {
      clearInterval(sweep)
      clearTimeout(deadline)
      resolve()
    })
    server.closeIdleConnections()
  })
}

/**
 * Answers `Expect: 100-continue`: a body declared larger than the contract's
 * limit is refused at once (413 with an Error body, the connection closed),
 * never invited with `100 Continue` to be refused once sent; any other gets
 * `100 Continue` and goes on as a request.
 */
function continueOrRefuse(listener: RequestListener): RequestListener {
  return (req, res) => {
    if (Number(req.headers['content-length']) > contract.maxBodyBytes) {
      res.setHeader('connection', 'close')
      sendCoreResponse(req, res, renderError(bodyTooLarge()))
      return
    }
    res.writeContinue()
    listener(req, res)
  }
}

/**
 * Answers requests Node cannot even parse (malformed, cut short, headers too
 * large, too slow) with an Error body instead of Node's bare status line.
 *
 * @example
 * answerClientErrors(app.listen(4010))
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
    const message =
      status === 431
        ? 'The request headers are too large.'
        : status === 408
          ? 'The request took too long to arrive.'
          : 'The request is not valid HTTP, or ended before it was complete.'
    const { body } = errorResponse(status, message)
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body ?? '')}\r\nConnection: close\r\n\r\n${body}`,
    )
  })
}
