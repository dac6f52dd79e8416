import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { clientOf } from '../../core/client-address.ts'
import { errorResponse } from '../../core/errors.ts'
import type { HeldRequests } from '../../core/held-requests.ts'
import { gatherBody, sendCoreResponse, tarpitting } from '../express/adapter.ts'

// Through getBuiltinModule, not an `import`: the ESM face of node:fs reads every export, which loads fs/promises,
// readline and more at start.
const { readFileSync } = process.getBuiltinModule('node:fs')

/** File descriptors the sandbox keeps for its own use (its files, logs, Redis, webhooks) below the open-file limit. */
export const reservedDescriptors = 128

/** The open-file limit assumed where the process's cannot be read (no `/proc`). */
const assumedOpenFiles = 1024

/**
 * The process's open-file limit (the soft `RLIMIT_NOFILE`, which Node raises
 * to the hard one at start), from `/proc/self/limits`: `Infinity` when
 * unlimited, `undefined` where it cannot be read.
 *
 * @example
 * openFilesLimit() // 1024 under `ulimit -n 1024`
 */
export function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    if (!line?.[1]) return undefined
    return line[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line[1])
  } catch {
    return undefined
  }
}

/**
 * The connections the sandbox accepts at once by default: the open-file
 * limit less {@link reservedDescriptors} (at least 64), so that clients
 * holding connections open can never take the descriptors the process
 * needs, nor make it fail to accept (issue 27, M1). Beyond it a new
 * connection is closed as soon as it is accepted.
 *
 * @example
 * server.maxConnections = defaultMaxConnections() // 896 under `ulimit -n 1024`
 */
export function defaultMaxConnections(): number {
  return Math.max(64, (openFilesLimit() ?? assumedOpenFiles) - reservedDescriptors)
}

/** How slow request bodies are bounded (issue 44, 1). */
export const slowBodies = {
  /**
   * Time a request's body may take to arrive whole once its headers are in;
   * past it the request is answered 408 with an Error body and its
   * connection closed (the contract's largest body, 64 KiB, is 6.4 KB a second).
   */
  bodyTimeoutMs: 10_000,
  /** A body arriving this long is slow: its connection may be cut to make room, after the idle ones. */
  slowAfterMs: 1000,
  /** How often bodies are checked against their deadline, at most. */
  sweepMs: 1000,
} as const

/** A request whose body is still arriving. */
interface Receiving {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  /** When its headers were in (`performance.now()`). */
  readonly since: number
}

/** The state of one connection the sandbox serves. */
interface Connection {
  /** The client address it comes from (see `clientOf`). */
  readonly client: string
  /** When its latest request began, or it opened (`performance.now()`). */
  began: number
  /**
   * The answer of its latest request handed to the app: until it is sent
   * whole (see {@link sentWhole}), the next request waits.
   */
  current: ServerResponse | undefined
  /** Requests handed to the app so far. */
  served: number
  /**
   * When a sweep first saw it idle after its latest request (`performance.now()`), or -1; with
   * {@link Connection.idleServed}, how {@link Connections} times the keep-alive.
   */
  idleSince: number
  /** {@link Connection.served} when {@link Connection.idleSince} was taken. */
  idleServed: number
  /** Requests read (pipelined) behind the current one, waiting for their turn, oldest first. */
  readonly waiting: [IncomingMessage, ServerResponse, RequestListener][]
}

/**
 * Whether an answer was sent whole (or its connection is gone): its `finish`
 * came, after which Node lets go of its socket. Read when needed (a request
 * arrives, room is made) instead of listening to every answer's `finish`.
 * Not merely written whole: `finish` comes a tick after the write, so that
 * requests pipelined in one read with it all wait, and count against the
 * held-request caps, as when the gate listened to every answer.
 */
function sentWhole(res: ServerResponse): boolean {
  return res.destroyed || (res.writableFinished && res.socket === null)
}

/** What {@link Connections} keeps within bounds. */
export interface ConnectionsOptions {
  /** The server's `maxConnections`: idle connections are cut first as the open ones come near it. */
  readonly maxConnections: number
  /**
   * The held-request caps: each request waiting for its turn on a connection
   * takes a place of their total, and a connection may have at most
   * `perTenant` waiting.
   */
  readonly held: HeldRequests
  /**
   * The server's `maxRequestsPerSocket`: the last answer a connection may
   * have says `Connection: close` and the connection closes once it is sent (0: no limit).
   */
  readonly maxRequestsPerSocket: number
  /**
   * The share (above 0, at most 1) of `maxConnections` one client address
   * may hold when slots run short (default 1).
   */
  readonly clientShare?: number | undefined
  /** The time a request's body may take to arrive once its headers are in (default {@link slowBodies.bodyTimeoutMs}). */
  readonly bodyTimeoutMs?: number | undefined
  /**
   * How long a connection may stay open idle after an answer (keep-alive),
   * in ms; 0: Node's own timer does it (`server.keepAliveTimeout`). When set,
   * give the server a `keepAliveTimeout` of 0: this gate times it instead,
   * with one sweep for all connections, not a timer set per request (see
   * {@link Connections}), and answers still say `Keep-Alive: timeout=…`.
   */
  readonly keepAliveTimeoutMs?: number | undefined
}

/** What {@link Connections} counts, for the operator and the tests. */
export interface ConnectionCounts {
  /** Connections open now. */
  readonly open: number
  /** Of them, those with no request being answered (new, or kept alive between requests). */
  readonly idle: number
  /** Requests read but waiting for an earlier answer on their connection to be sent. */
  readonly waiting: number
  /** Connections cut because they pipelined past their share of waiting requests (or the total's). */
  readonly cutPipelining: number
  /** Idle connections cut to make room as the open ones came near `maxConnections` (or their address's share). */
  readonly cutIdle: number
  /** Connections with a slow body (arriving over a second) cut to make room, idle ones being none. */
  readonly cutSlowBody: number
  /** Requests whose body did not arrive within its deadline ({@link slowBodies.bodyTimeoutMs}): answered 408, connection closed. */
  readonly bodyTimedOut: number
  /** New connections closed at once as slots ran short: their address held past its share, none of them idle or slow. */
  readonly refusedOverShare: number
  /** Kept-alive connections closed after staying idle past their keep-alive time. */
  readonly keepAliveEnded: number
}

/**
 * The sandbox's connections, kept within bounds (issue 35, F1 and F7):
 *
 * - **One answer at a time.** A connection's request is handed to the app
 *   only once the answer before it has been sent whole (handed to the
 *   system), so that a client that pipelines requests and reads nothing
 *   makes the sandbox hold at most one answer of it, whatever its size, and
 *   its further requests are not answered (nor, the connection paused, read)
 *   while it is unsent. Node reads a whole 64 KiB of pipelined requests at
 *   once; those waiting count against the held-request caps (at most
 *   `perTenant` a connection, all of them within the total): past them the
 *   connection is cut.
 * - **Idle connections go first.** As the open connections come within
 *   1/32 of `maxConnections`, each new one cuts an idle connection (no
 *   request being answered: never sent one, or kept alive between two), the
 *   one whose latest request began the longest ago, so that connections that
 *   send nothing can never take every slot from fresh clients.
 * - **Slow bodies have a deadline, and go as idle ones do.** A request's
 *   body must arrive whole within {@link slowBodies.bodyTimeoutMs} of its
 *   headers (else 408 and the connection closed); as the slots run low, a
 *   new connection cuts the one idle the longest or with a body arriving
 *   the longest (over a second), whichever began first, so that bodies sent
 *   a byte at a time cannot take every slot either (issue 44, 1).
 * - **A share per address, when slots run short.** As the open connections
 *   come near `maxConnections`, an address holding more than its
 *   `clientShare` of them makes room first: its own new connection cuts its
 *   own idle or slow-body connection (as above), or is closed at once; a new
 *   connection of another address cuts one of the address holding the
 *   most, when past its share, before anyone else's. Below the mark nobody
 *   is cut (a client reconnecting at once would only make the sandbox churn).
 *
 * - **Keep-alive, timed by a sweep.** With `keepAliveTimeoutMs`, a
 *   connection that made a request and has been idle (its latest answer
 *   sent whole) for that long is closed by the sweep that runs every second
 *   anyway (between the time and a second after, as Node's own timer gives
 *   a second of grace), instead of Node setting a socket timer twice per
 *   request (after the answer, then again at the next request; issue 41).
 *
 * Nothing of this is paid per answer: an answer is watched (its `finish`)
 * only when a request waits behind it, and whether a connection is idle is
 * read from its latest answer when room must be made or the sweep runs.
 *
 * @example
 * const connections = new Connections({ maxConnections: 896, held })
 * const server = createServer(connections.gate(listener))
 * connections.watch(server)
 */
export class Connections {
  /**
   * The open connections, the one whose latest request began the longest ago
   * first (a connection moves to the end as each of its requests begins).
   */
  readonly #open = new Map<Socket, Connection>()
  /** Connections whose latest request's body was still arriving when it began, the longest first. */
  readonly #receiving = new Map<Socket, Receiving>()
  /** Connections open per client address. */
  readonly #perClient = new Map<string, number>()
  readonly #maxPerClient: number
  readonly #bodyTimeoutMs: number
  readonly #keepAliveMs: number
  readonly #held: HeldRequests
  readonly #maxRequests: number
  /** Beyond this many open connections, a new one cuts the oldest idle one. */
  readonly #roomAbove: number
  #draining = false
  #waiting = 0
  #cutPipelining = 0
  #cutIdle = 0
  #cutSlowBody = 0
  #bodyTimedOut = 0
  #refusedOverShare = 0
  #keepAliveEnded = 0

  constructor({
    maxConnections,
    held,
    maxRequestsPerSocket,
    clientShare = 1,
    bodyTimeoutMs = slowBodies.bodyTimeoutMs,
    keepAliveTimeoutMs = 0,
  }: ConnectionsOptions) {
    this.#keepAliveMs = keepAliveTimeoutMs
    this.#held = held
    this.#maxRequests = maxRequestsPerSocket
    this.#roomAbove = maxConnections - Math.max(1, Math.floor(maxConnections / 32))
    this.#maxPerClient = Math.max(1, Math.ceil(maxConnections * clientShare))
    this.#bodyTimeoutMs = bodyTimeoutMs
  }

  /** What is open, idle and waiting now, and what was cut. */
  counts(): ConnectionCounts {
    let idle = 0
    for (const connection of this.#open.values()) if (isIdle(connection)) idle++
    return {
      open: this.#open.size,
      idle,
      waiting: this.#waiting,
      cutPipelining: this.#cutPipelining,
      cutIdle: this.#cutIdle,
      cutSlowBody: this.#cutSlowBody,
      bodyTimedOut: this.#bodyTimedOut,
      refusedOverShare: this.#refusedOverShare,
      keepAliveEnded: this.#keepAliveEnded,
    }
  }

  /**
   * From now on every answer says `Connection: close` and its connection
   * closes once it is sent, those being made now included: the server is
   * shutting down, and a client must not send another request on a
   * connection about to close.
   */
  drain(): void {
    this.#draining = true
    for (const { current } of this.#open.values()) {
      if (current && !current.headersSent) current.setHeader('connection', 'close')
    }
  }

  /** Follows the server's connections from their start (to know the idle and slow ones and make room). */
  watch(server: Server): void {
    // A request past the connection's last one (Node answers it a bare 503): the connection goes.
    server.on('dropRequest', (_req: IncomingMessage, socket: Socket) => socket.destroy())
    server.on('connection', (socket: Socket) => {
      const { client } = this.#connection(socket)
      if (this.#open.size <= this.#roomAbove) return
      // Slots run short: an address past its share makes room from its own connections, or gets none.
      if ((this.#perClient.get(client) ?? 0) > this.#maxPerClient) {
        if (this.#cutOne(socket, client)) return
        this.#refusedOverShare++
        socket.destroy()
        return
      }
      // Another's new connection: room made first from the address holding the most, when past its share.
      const [biggest, most] = this.#biggestClient()
      if (most > this.#maxPerClient && this.#cutOne(socket, biggest)) return
      this.#cutOne(socket)
    })
    const sweep = setInterval(
      () => {
        this.#sweepBodies()
        this.#sweepIdle()
      },
      Math.min(slowBodies.sweepMs, this.#bodyTimeoutMs / 2),
    )
    sweep.unref()
    server.once('close', () => clearInterval(sweep))
  }

  /** The client address holding the most connections, and how many. */
  #biggestClient(): [string, number] {
    let biggest = ''
    let most = 0
    for (const [client, count] of this.#perClient) {
      if (count > most) {
        biggest = client
        most = count
      }
    }
    return [biggest, most]
  }

  /**
   * Cuts the connection that has given the sandbox nothing to do the
   * longest: idle the longest (its latest request began first, or it never
   * sent one), or with a body arriving the longest (past
   * {@link slowBodies.slowAfterMs}), whichever began first; of one client
   * address only, when given. Never `except` (the new connection). Whether
   * one was cut.
   */
  #cutOne(except: Socket, client?: string): boolean {
    let idle: Socket | undefined
    let idleSince = Number.POSITIVE_INFINITY
    for (const [socket, connection] of this.#open) {
      if (socket === except || !isIdle(connection) || (client !== undefined && connection.client !== client)) continue
      idle = socket
      idleSince = connection.began
      break
    }
    const recent = performance.now() - slowBodies.slowAfterMs
    if (this.#cutBody(Math.min(recent, idleSince), client)) return true
    if (!idle) return false
    // An idle connection busy within the last second is a client between two requests: a body still arriving,
    // however young (slow-body senders reconnect as fast as they are cut), goes before it.
    if (idleSince > recent && this.#cutBody(Number.POSITIVE_INFINITY, client)) return true
    this.#cutIdle++
    idle.destroy()
    return true
  }

  /** Cuts the connection whose body has been arriving the longest, if it began by `since` (of `client` only, when given). */
  #cutBody(since: number, client: string | undefined): boolean {
    for (const [socket, { req, res, since: began }] of this.#receiving) {
      if (began > since) break
      if (req.complete || sentWhole(res) || (client !== undefined && this.#open.get(socket)?.client !== client)) {
        continue
      }
      this.#cutSlowBody++
      socket.destroy()
      return true
    }
    return false
  }

  /** Answers 408 to requests whose body has not arrived within its deadline, and closes their connections. */
  #sweepBodies(): void {
    const late = performance.now() - this.#bodyTimeoutMs
    for (const [socket, { req, res, since }] of this.#receiving) {
      if (since > late) break
      this.#receiving.delete(socket)
      // Arrived whole, or answered without it (a refusal that did not wait for the body): no deadline left.
      if (req.complete || res.writableEnded) continue
      this.#bodyTimedOut++
      if (res.headersSent) {
        socket.destroy()
        continue
      }
      res.setHeader('connection', 'close')
      res.once('finish', () => socket.destroy())
      const seconds = this.#bodyTimeoutMs / 1000
      sendCoreResponse(
        req,
        res,
        errorResponse(408, `The request body did not arrive within ${seconds} s of its headers; send it faster.`),
      )
    }
  }

  /**
   * Closes the connections idle past the keep-alive time since their latest
   * request: a sweep notes when it first sees a connection idle after a
   * request, a later one closes it once that is `keepAliveTimeoutMs` ago.
   * A connection that never made a request is left to Node's timeouts, as
   * Node's keep-alive timer leaves it; so is one kept unread after a body in
   * too many pieces, whose own longer timeout replaced Node's keep-alive
   * timer (closed sooner, its client would only open another sooner).
   */
  #sweepIdle(): void {
    if (this.#keepAliveMs <= 0) return
    const now = performance.now()
    for (const [socket, connection] of this.#open) {
      // A connection kept unread after a body in too many pieces closes after its own silence (see tarpitting).
      if (connection.served === 0 || !isIdle(connection) || tarpitting(socket)) {
        connection.idleSince = -1
      } else if (connection.idleSince < 0 || connection.idleServed !== connection.served) {
        connection.idleSince = now
        connection.idleServed = connection.served
      } else if (now - connection.idleSince >= this.#keepAliveMs) {
        this.#keepAliveEnded++
        socket.destroy()
      }
    }
  }

  /**
   * The listener behind this gate: each request goes to it in its turn (see
   * {@link Connections}), never two of a connection at once.
   */
  gate(listener: RequestListener): RequestListener {
    return (req, res) => this.#arrive(req, res, listener)
  }

  #connection(socket: Socket): Connection {
    const connection = this.#open.get(socket)
    if (connection) return connection
    const client = clientOf(socket.remoteAddress)
    const created: Connection = {
      client,
      began: performance.now(),
      current: undefined,
      served: 0,
      idleSince: -1,
      idleServed: 0,
      waiting: [],
    }
    this.#open.set(socket, created)
    this.#perClient.set(client, (this.#perClient.get(client) ?? 0) + 1)
    // Node reads on when an answer is sent (and a body it drains resumes the connection): not while requests wait.
    socket.on('resume', () => {
      if (created.waiting.length > 0) socket.pause()
    })
    socket.once('close', () => {
      this.#open.delete(socket)
      this.#receiving.delete(socket)
      const left = (this.#perClient.get(client) ?? 1) - 1
      if (left > 0) this.#perClient.set(client, left)
      else this.#perClient.delete(client)
      for (const _ of created.waiting) this.#stopWaiting()
      created.waiting.length = 0
    })
    return created
  }

  #arrive(req: IncomingMessage, res: ServerResponse, listener: RequestListener): void {
    const socket = req.socket
    // Requests Node still reads from a connection cut a moment ago (the rest of its read) go with it.
    if (socket.destroyed) return
    const connection = this.#connection(socket)
    const { current } = connection
    if (connection.waiting.length === 0 && (current === undefined || sentWhole(current))) {
      this.#run(socket, connection, req, res, listener)
      return
    }
    if (connection.waiting.length >= this.#held.perTenant || !this.#held.reserve()) {
      this.#cutPipelining++
      socket.destroy()
      return
    }
    this.#waiting++
    connection.waiting.push([req, res, listener])
    // The first to wait: the next request goes once the current answer is sent whole.
    if (connection.waiting.length === 1 && current) this.#follow(socket, connection, current)
    // Its body, if it has one, is gathered as bytes while it waits, not left in Node's stream chunk by chunk.
    gatherBody(req)
    // Read no further requests of it while these wait (Node reads on once every answer is sent).
    socket.pause()
  }

  #run(
    socket: Socket,
    connection: Connection,
    req: IncomingMessage,
    res: ServerResponse,
    listener: RequestListener,
  ): void {
    connection.current = res
    connection.began = performance.now()
    // To the end of the order: the idle connection cut first is the one whose latest request began the longest ago.
    this.#open.delete(socket)
    this.#open.set(socket, connection)
    // A body still to arrive: followed for its deadline, and cut first when slow (only requests that carry one).
    if (!req.complete && (req.headers['content-length'] ?? req.headers['transfer-encoding']) !== undefined) {
      // Deleted first: the map keeps its first insertion's place, and the sweep reads it oldest first.
      this.#receiving.delete(socket)
      this.#receiving.set(socket, { req, res, since: connection.began })
    }
    // The server's keepAliveTimeout is 0 when this gate times the keep-alive: the answer still tells the client.
    if (this.#keepAliveMs > 0) (res as unknown as { _keepAliveTimeout: number })._keepAliveTimeout = this.#keepAliveMs
    // Node says `Connection: close` on the last answer but leaves the connection open: this closes it once sent.
    if ((++connection.served >= this.#maxRequests && this.#maxRequests > 0) || this.#draining) {
      res.setHeader('connection', 'close')
    }
    listener(req, res)
    if (connection.waiting.length > 0) this.#follow(socket, connection, res)
  }

  /** Runs the next waiting request of a connection once `res`, its current answer, is sent whole. */
  #follow(socket: Socket, connection: Connection, res: ServerResponse): void {
    const next = () => {
      if (connection.current !== res) return
      connection.current = undefined
      if (socket.destroyed) return
      const waiting = connection.waiting.shift()
      if (!waiting) return
      this.#stopWaiting()
      if (connection.waiting.length === 0) socket.resume()
      this.#run(socket, connection, ...waiting)
    }
    if (sentWhole(res)) next()
    else {
      res.once('finish', next)
      res.once('close', next)
    }
  }

  #stopWaiting(): void {
    this.#waiting--
    this.#held.release()
  }
}

/** Whether a connection has no request being answered: it never sent one, or its latest answer is sent whole. */
function isIdle({ current, waiting }: Connection): boolean {
  return waiting.length === 0 && (current === undefined || sentWhole(current))
}
