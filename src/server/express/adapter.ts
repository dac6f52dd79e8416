import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { PlantStoreHandler } from '../../core/core.ts'
import { PlantStoreError, renderError } from '../../core/errors.ts'
import { type CoreRequest, type CoreResponse, LimitedBody, maxBodyPieces } from '../../core/http.ts'
import { contract } from '../../generated/contract.ts'
import type { ClientAddress } from '../connections/client-address.ts'
import type { UnsentBytes } from '../connections/unsent-bytes.ts'

/**
 * A Node/Express request as a {@link CoreRequest}: the method, the path below
 * the mount point exactly as sent (still percent-encoded), the raw query
 * string, headers as fetch would join them (`, ` between repeats,
 * `Authorization` included), and a body reader that checks `Content-Length`
 * before reading and stops as soon as the limit is passed. A class, so that
 * a request costs one object (its methods on the prototype), not an object
 * and two closures (issue 41).
 */
class NodeCoreRequest implements CoreRequest {
  readonly id: string | undefined
  readonly method: string
  readonly path: string
  readonly query: string
  readonly #req: IncomingMessage
  readonly #clientOf: ClientAddress | undefined

  constructor(req: IncomingMessage, id: unknown, clientOf: ClientAddress | undefined) {
    const url = req.url ?? '/'
    const queryStart = url.indexOf('?')
    this.id = typeof id === 'string' ? id : undefined
    this.method = req.method ?? 'GET'
    this.path = queryStart === -1 ? url : url.slice(0, queryStart)
    this.query = queryStart === -1 ? '' : url.slice(queryStart + 1)
    this.#req = req
    this.#clientOf = clientOf
  }

  header(name: string): string | null {
    return header(this.#req.rawHeaders, name)
  }

  readBody(limit: number): Promise<Uint8Array | 'too_large'> {
    return readBody(this.#req, limit)
  }

  /** Read only when asked (provisioning's rate), not on the hot path; behind a trusted proxy, its X-Real-IP. */
  get client(): string | undefined {
    return this.#clientOf ? this.#clientOf(this.#req) : this.#req.socket.remoteAddress
  }
}

/** A request as the core reads it; the request log, when there is one, has given it its id already. */
function toCoreRequest(
  req: IncomingMessage,
  res: ServerResponse,
  clientOf: ClientAddress | undefined,
  transport: Transport | undefined,
): CoreRequest {
  // The fast path's id comes with its transport; Express's request log set it on the answer.
  return new NodeCoreRequest(req, transport ? transport.id : res.getHeader('x-request-id'), clientOf)
}

/**
 * A header's value as fetch reads it: every occurrence, joined with `, `
 * (Node's `req.headers` keeps only the first `Authorization`, and
 * `headersDistinct` builds a whole new object on every read).
 */
function header(raw: readonly string[], name: string): string | null {
  let value: string | null = null
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!
    if (key.length === name.length && key.toLowerCase() === name) {
      value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]}`
    }
  }
  return value
}

/**
 * A request header as the API reads it: repeats joined with `, `, so that a
 * duplicated `Authorization` is refused everywhere as it is by the API.
 *
 * @example
 * authenticate(store, requestHeader(req, 'authorization'))
 */
export function requestHeader(req: IncomingMessage, name: string): string | null {
  return header(req.rawHeaders, name)
}

/** Requests whose body was refused unread: their connection is closed after the answer. */
const refused = new WeakSet<IncomingMessage>()

/**
 * Connections that close after a refused body (413): a request pipelined
 * behind it on the same connection (HTTP/1.1) never runs, since its bytes
 * may be the rest of the refused body, and its answer could never be sent.
 */
const closing = new WeakSet<Socket>()

/**
 * Per connection, the answer still being made for its last request: a
 * request pipelined behind it runs once that answer is made, so it can see
 * whether the connection is {@link closing}. A connection without pipelining
 * never waits (its client sends the next request after reading the answer).
 */
const pending = new WeakMap<Socket, Promise<unknown>>()

/** Refuses a request's body: its answer closes the connection, and nothing pipelined behind it runs. */
function refuse(req: IncomingMessage): 'too_large' {
  refused.add(req)
  closing.add(req.socket)
  return 'too_large'
}

/**
 * Per request, its body as it is gathered from the moment the request is
 * handed to the handler (see {@link gatherBody}).
 */
const bodies = new WeakMap<IncomingMessage, Promise<Uint8Array | 'too_large'>>()

/**
 * Starts gathering a request's body, up to the contract's limit, as soon as
 * the request is handed to the handler (or waits its turn behind another on
 * its connection), whatever the handler does first (a delay holds it 30 s,
 * say): a body left unread stays in Node's stream as the chunks it came in,
 * one object each (65,000 one-byte chunks held 31.8 MB, issue 35, F2), where
 * {@link LimitedBody} keeps its bytes. A body declared over the limit is left
 * unread, to be refused when asked for.
 *
 * @example
 * gatherBody(req) // then readBody(req, limit) answers what was gathered
 */
export function gatherBody(req: IncomingMessage): void {
  if (req.readableEnded || bodies.has(req)) return
  const declared = Number(req.headers['content-length'])
  if (!(declared > 0) && req.headers['transfer-encoding'] === undefined) return
  if (declared > contract.maxBodyBytes) return
  const body = collect(req, contract.maxBodyBytes)
  // A client that goes away mid-body fails the body only for a handler that asks for it.
  body.catch(() => undefined)
  bodies.set(req, body)
}

/**
 * Reads at most `limit` bytes of the request body. A `Content-Length` above
 * the limit is refused before a byte is read; a stream that passes it is
 * stopped there. A client that aborts mid-body is a 400, not a server fault;
 * so is a body in more than {@link maxBodyPieces} pieces, whose connection
 * is then read no further (see {@link stopReading}).
 */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | 'too_large'> {
  const declared = Number(req.headers['content-length'])
  if (declared > limit) return Promise.resolve(refuse(req))
  const body = bodies.get(req) ?? (req.readableEnded ? Promise.resolve(new Uint8Array(0)) : collect(req, limit))
  return body.then(
    (bytes) => (bytes === 'too_large' || bytes.byteLength > limit ? refuse(req) : bytes),
    (error: unknown) => {
      if (error === tooManyPieces) {
        // Nothing more of the connection is read (see stopReading), so nothing pipelined behind runs.
        closing.add(req.socket)
        tarpitted.add(req)
        throw new PlantStoreError(
          'invalid_request',
          `The request body came in more than ${maxBodyPieces} pieces (chunks); send it in fewer, larger ones.`,
        )
      }
      throw error
    },
  )
}

/**
 * Reads nothing more of a connection, for good (Node resumes a connection
 * to drain a body once its answer is sent: paused again at once): each piece
 * of a body in one-byte chunks would cost a call of its own until the
 * connection closes. The connection is answered (400), then kept, unread,
 * until it has been silent {@link tarpitMs} (see {@link sendCoreResponse}):
 * closed at once, it would be opened again at once, and each 64 KiB read of
 * one-byte chunks costs the server ~11,000 calls (issue 35, F2).
 */
function stopReading(socket: Socket): void {
  socket.pause()
  socket.on('resume', () => socket.pause())
}

/** Requests refused for a body in too many pieces: their connection closes after {@link tarpitMs} of silence. */
const tarpitted = new WeakSet<IncomingMessage>()

/** How long a connection refused for a body in too many pieces is kept (the request timeout). */
const tarpitMs = 30_000

/** Connections kept, unread, after a body in too many pieces: their own timeout closes them, not the keep-alive. */
const tarpits = new WeakSet<Socket>()

/**
 * Whether a connection is kept, unread, until it has been silent
 * {@link tarpitMs} (a body in too many pieces, see {@link stopReading}):
 * the connection gate's keep-alive leaves it to that timeout, since
 * closing it sooner only makes its client open another sooner.
 */
export function tarpitting(socket: Socket): boolean {
  return tarpits.has(socket)
}

/** What {@link collect} rejects with for a body in too many pieces. */
const tooManyPieces = Symbol('too many pieces')

/**
 * Collects a request's body into a {@link LimitedBody}. Past `limit` it
 * stops reading (the connection kept, to answer 413 on it); past
 * {@link maxBodyPieces} it rejects with {@link tooManyPieces} and drops what
 * else comes until the connection closes.
 */
function collect(req: IncomingMessage, limit: number): Promise<Uint8Array | 'too_large'> {
  return new Promise((resolve, reject) => {
    const body = new LimitedBody(limit)
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('aborted', onError)
    }
    const onData = (chunk: Buffer) => {
      if (!body.push(chunk)) {
        cleanup()
        req.pause()
        resolve('too_large')
      } else if (body.pieces > maxBodyPieces) {
        cleanup()
        // Flowing with no listener: the rest of what was read is dropped, not kept chunk by chunk;
        // and nothing more is read of the connection.
        req.resume()
        stopReading(req.socket)
        reject(tooManyPieces)
      }
    }
    const onEnd = () => {
      cleanup()
      resolve(body.bytes())
    }
    const onError = () => {
      cleanup()
      reject(new PlantStoreError('invalid_request', 'The request body could not be read completely.'))
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('aborted', onError)
  })
}

/** Answers of bytes up to this long are copied into one buffer and written at once. */
const oneWriteBytes = 16_384

/**
 * What a transport adds to the answers it writes for the core (the
 * standalone server's fast path): the request's id, headers of its own
 * written with the answer's, and whom to tell once the answer is written.
 */
export interface Transport {
  /** The request's id (the request log's), for the core's journal. */
  readonly id?: string | undefined
  /** Headers of the transport's own (CORS, `X-Request-Id`) as name, value pairs, written with the answer's. */
  readonly headers?: readonly string[] | undefined
  /** Called with the status once the answer is written whole (not when its connection was closed instead). */
  readonly written?: ((status: number) => void) | undefined
}

/**
 * Writes a {@link CoreResponse} to a Node/Express response: status, headers
 * and the JSON text, with nothing added but `Content-Length` (and the
 * `transport`'s own headers), in one `writeHead` and one `end`, which Node
 * sends in one write (headers and body corked together). When the body
 * was refused unread (413) the connection is closed rather than drained.
 * With an `unsent` budget, an answer is written only if it admits it (else
 * its connection was closed), and counted after only if the system did not
 * take it whole.
 *
 * @example
 * sendCoreResponse(req, res, renderError(new PlantStoreError('not_found', 'No such page.')))
 */
export function sendCoreResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: CoreResponse,
  unsent?: UnsentBytes,
  transport?: Transport,
): void {
  if (res.headersSent) return
  if (response.fault) {
    failTransport(res, response, transport)
    return
  }
  const { status, headers } = response
  // One list for writeHead: no setHeader (each validates and stores its header on its own) on the way.
  const lines: string[] = transport?.headers ? transport.headers.slice() : []
  for (const name in headers) lines.push(name, headers[name] as string)
  if (refused.has(req)) lines.push('connection', 'close')
  // After Node's own listener, which gives a kept-alive connection 6 s.
  else if (tarpitted.has(req)) {
    tarpits.add(req.socket)
    res.once('finish', () => req.socket.setTimeout(tarpitMs))
  }
  let length = 0
  if (response.chunks) {
    // Bytes the core keeps (a long list): written as they are, never encoded (nor decoded) anew.
    const { chunks } = response
    for (const chunk of chunks) length += chunk.byteLength
    if (unsent && !unsent.admit(res, length)) return
    lines.push('content-length', String(length))
    res.writeHead(status, lines)
    // A short answer in one piece (copying it costs less than a write per chunk).
    if (length <= oneWriteBytes) res.end(Buffer.concat(chunks, length))
    else {
      res.cork()
      for (const chunk of chunks) res.write(chunk)
      res.uncork()
      res.end()
    }
  } else if (response.body === null) {
    res.writeHead(status, lines)
    res.end()
  } else {
    const { body } = response
    length = Buffer.byteLength(body)
    if (unsent && !unsent.admit(res, length)) return
    lines.push('content-length', String(length))
    res.writeHead(status, lines)
    res.end(body)
  }
  unsent?.written(res, length)
  transport?.written?.(status)
}

/**
 * Fails the connection as a {@link CoreResponse.fault} asks: a TCP reset, a
 * close before any byte, or the status, the headers and half of the body
 * that `Content-Length` promises, then a close.
 */
function failTransport(
  res: ServerResponse,
  { status, headers, body, fault }: CoreResponse,
  transport: Transport | undefined,
): void {
  const socket = res.socket
  if (fault === 'reset') socket?.resetAndDestroy()
  else if (fault === 'empty') socket?.destroy()
  else {
    const bytes = Buffer.from(body ?? '')
    const lines: string[] = transport?.headers ? transport.headers.slice() : []
    for (const name in headers) lines.push(name, headers[name] as string)
    lines.push('content-length', String(bytes.byteLength), 'connection', 'close')
    res.writeHead(status, lines)
    res.write(bytes.subarray(0, bytes.byteLength >> 1), () => socket?.destroy())
  }
}

/**
 * Wraps a transport-neutral handler as Express middleware: every request that
 * reaches it is answered by the handler, whatever its path.
 *
 * @example
 * app.use(toMiddleware(createCore(store)))
 */
export function toMiddleware(handle: PlantStoreHandler, unsent?: UnsentBytes, clientOf?: ClientAddress) {
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void =>
    answer(handle, req, res, next, unsent, clientOf, undefined)
}

/**
 * Wraps a transport-neutral handler as a Node request listener that answers
 * every request it gets; a failure is the core's 500 Error body. The
 * `transport`, when given, adds its id, headers and `written` to the answer
 * (see {@link Transport}).
 *
 * @example
 * createServer(toListener(createCore(store))).listen(4010)
 */
export function toListener(
  handle: PlantStoreHandler,
  unsent?: UnsentBytes,
  clientOf?: ClientAddress,
): (req: IncomingMessage, res: ServerResponse, transport?: Transport) => void {
  return (req, res, transport) =>
    answer(
      handle,
      req,
      res,
      (error) => {
        ;(req as { log?: { error(details: object, message: string): void } }).log?.error(
          { err: error },
          'request failed',
        )
        if (res.headersSent) res.destroy()
        else sendCoreResponse(req, res, renderError(error), undefined, transport)
      },
      unsent,
      clientOf,
      transport,
    )
}

/**
 * Answers a request with the handler's answer, sync or async; `fail` gets
 * what the handler threw. A request pipelined behind one whose answer is
 * still being made waits for it; behind a refused body it never runs.
 */
function answer(
  handle: PlantStoreHandler,
  req: IncomingMessage,
  res: ServerResponse,
  fail: (error: unknown) => void,
  unsent: UnsentBytes | undefined,
  clientOf: ClientAddress | undefined,
  transport: Transport | undefined,
) {
  const earlier = pending.get(req.socket)
  if (!earlier) answerNow(handle, req, res, fail, unsent, clientOf, transport)
  else {
    const run = () => answerNow(handle, req, res, fail, unsent, clientOf, transport)
    track(req.socket, earlier.then(run, run))
  }
}

function answerNow(
  handle: PlantStoreHandler,
  req: IncomingMessage,
  res: ServerResponse,
  fail: (error: unknown) => void,
  unsent: UnsentBytes | undefined,
  clientOf: ClientAddress | undefined,
  transport: Transport | undefined,
): Promise<void> | undefined {
  // The connection closes after an earlier refused body: left unanswered, this goes with it.
  if (closing.has(req.socket)) return undefined
  gatherBody(req)
  let response: ReturnType<PlantStoreHandler>
  try {
    response = handle(toCoreRequest(req, res, clientOf, transport))
  } catch (error) {
    fail(error)
    return undefined
  }
  if (!(response instanceof Promise)) {
    sendCoreResponse(req, res, response, unsent, transport)
    return undefined
  }
  const answered = response.then((made) => sendCoreResponse(req, res, made, unsent, transport)).catch(fail)
  track(req.socket, answered)
  return answered
}

/** Notes the answer being made on a connection until it is made. */
function track(socket: Socket, answered: Promise<unknown>): void {
  pending.set(socket, answered)
  const done = () => {
    if (pending.get(socket) === answered) pending.delete(socket)
  }
  answered.then(done, done)
}
