import type { IncomingMessage, ServerResponse } from 'node:http'
import { type DestinationStream, type Logger, symbols } from 'pino'
import { requestIdSyntax } from '../../core/http.ts'
import { nonSecretId } from '../../core/random.ts'
import { redactedUrl } from '../../core/redaction.ts'

export { requestIdSyntax } from '../../core/http.ts'

/**
 * Request ids unique to this process without a random draw per request: a
 * random prefix chosen at start, then a counter.
 */
const idPrefix = nonSecretId(6)
let idCounter = 0

/** A request being answered, as its log line will tell it: taken when it arrives. */
export interface LoggedRequest {
  /** The client's well-formed `X-Request-Id`, else one issued here: echoed in the answer, journaled, logged. */
  readonly id: string
  readonly method: string
  /** The URL as sent, before any router strips its mount point (its query's secrets redacted when the line is made). */
  readonly url: string
  /** Whether the request carried `Authorization` (logged as `[redacted]`). */
  readonly authorization: boolean
  /** Whether the request carried `X-Admin-Key` (logged as `[redacted]`). */
  readonly adminKey: boolean
  /** `performance.now()` when it arrived. */
  readonly started: number
}

/** What a request's log line says: the request's own object, its answer noted in it (no copy per request). */
interface RequestLineFields extends LoggedRequest {
  statusCode: number
  responseTime: number
}

/** Request logs with lines not yet written, for {@link flushRequestLogs}. */
const unwritten = new Set<RequestLog>()

/**
 * Writes at once every request-log line still waiting for its batch, in
 * every request log of the process: what an exit calls before it flushes
 * the log's destination, so that nothing logged is lost.
 *
 * @example
 * flushRequestLogs()
 * destination.flushSync()
 */
export function flushRequestLogs(): void {
  for (const log of unwritten) log.flush()
}

/**
 * The request log: one structured pino line per answered request (request
 * id, method, URL as sent, status, time taken; credentials only noted as
 * present and redacted, never logged). Off the answer's path: an answer
 * only notes its fields ({@link end}); the lines of every request answered
 * in one turn of the event loop are made and written together on the next
 * (`setImmediate`), in one write to the logger's stream when the logger has
 * plain settings ({@link lineWriter}: the same bytes pino writes), else
 * through pino line by line. {@link flushRequestLogs} writes what waits.
 *
 * @example
 * const log = new RequestLog(pino())
 * const logged = log.begin(req)
 * res.end('{}')
 * log.end(logged, res.statusCode)
 */
export class RequestLog {
  readonly #logger: Logger
  readonly #lines: ((batch: readonly RequestLineFields[]) => void) | undefined
  #batch: RequestLineFields[] = []

  constructor(logger: Logger) {
    this.#logger = logger
    this.#lines = lineWriter(logger)
  }

  /** Takes what the line of a request that just arrived will say, and gives it its id. */
  begin(req: IncomingMessage): LoggedRequest {
    // `performance` is read once the first connection comes (the connection gate's clock), not at start.
    const started = performance.now()
    const headers = req.headers
    const presented = headers['x-request-id']
    const fields: RequestLineFields = {
      id:
        typeof presented === 'string' && requestIdSyntax.test(presented)
          ? presented
          : `${idPrefix}-${(idCounter++).toString(36)}`,
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: headers.authorization !== undefined,
      adminKey: headers['x-admin-key'] !== undefined,
      started,
      // Noted by `end`: the same object goes into the batch.
      statusCode: 0,
      responseTime: 0,
    }
    return fields
  }

  /** Notes that the request was answered with `statusCode`: its line is written with the next batch. */
  end(request: LoggedRequest, statusCode: number): void {
    if (!this.#logger.isLevelEnabled(statusCode >= 500 ? 'error' : 'info')) return
    const fields = request as RequestLineFields
    fields.statusCode = statusCode
    fields.responseTime = Math.round(performance.now() - request.started)
    if (this.#batch.length === 0) {
      unwritten.add(this)
      setImmediate(this.#flushBatch)
    }
    this.#batch.push(fields)
  }

  /** Writes the lines waiting for their batch now. */
  flush(): void {
    const batch = this.#batch
    if (batch.length === 0) return
    this.#batch = []
    unwritten.delete(this)
    if (this.#lines) this.#lines(batch)
    else for (const fields of batch) this.#logger[levelOf(fields)](requestLogObject(fields), requestLogMessage)
  }

  readonly #flushBatch = (): void => this.flush()

  /**
   * The log as Connect-style middleware (Express mounts it): gives the
   * request its id, echoed in `X-Request-Id`, and logs it when its answer is
   * finished.
   *
   * @example
   * app.use(new RequestLog(pino()).middleware)
   */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    const logged = this.begin(req)
    res.setHeader('x-request-id', logged.id)
    // For the app's error handler: where to log a failure's detail.
    ;(req as { log?: Logger }).log = this.#logger
    res.on('finish', () => this.end(logged, res.statusCode))
    next?.()
  }
}

/**
 * The request log as Connect-style middleware: see {@link RequestLog}.
 *
 * @example
 * app.use(requestLog(pino()))
 * // or, without Express:
 * const log = requestLog(pino())
 * createServer((req, res) => { log(req, res); handle(req, res) })
 */
export function requestLog(logger: Logger): (req: IncomingMessage, res: ServerResponse, next?: () => void) => void {
  return new RequestLog(logger).middleware
}

const levelOf = ({ statusCode }: RequestLineFields): 'info' | 'error' => (statusCode >= 500 ? 'error' : 'info')

const requestLogMessage = 'request completed'

/** The object a request's line logs (pino's `req`/`res` shape). */
function requestLogObject(fields: RequestLineFields) {
  const { id, method, authorization, adminKey, statusCode, responseTime } = fields
  const url = redactedUrl(fields.url)
  return {
    req: {
      id,
      method,
      url,
      headers: {
        ...(authorization ? { authorization: '[redacted]' } : {}),
        ...(adminKey ? { 'x-admin-key': '[redacted]' } : {}),
      },
    },
    res: { statusCode },
    responseTime,
  }
}
/** pino's symbol of a logger's message prefix (not in its types). */
const msgPrefixSym = (symbols as unknown as Record<string, symbol>).msgPrefixSym as symbol

/** The parts of a pino logger its line is made of (pino's own symbols; see pino's `asJson`). */
interface PinoInternals {
  [symbols.lsCacheSym]: Record<number, string>
  [symbols.timeSym]: () => string
  [symbols.chindingsSym]: string
  [symbols.endSym]: string
  [symbols.streamSym]: DestinationStream & { [symbols.needsMetadataGsym]?: boolean }
  [symbols.mixinSym]?: unknown
  [symbols.messageKeySym]: string
  [symbols.nestedKeySym]?: string | null
  [symbols.serializersSym]: Record<string, unknown>
  [symbols.stringifiersSym]: Record<string | symbol, unknown>
  [symbols.formattersSym]: { log?: unknown }
  [symbols.hooksSym]: { logMethod?: unknown; streamWrite?: unknown }
}

/**
 * A character `JSON.stringify` escapes (`"`, a backslash, a control character) in a string of Node's request
 * line (latin1: no lone surrogates): anything but the characters it leaves as they are.
 */
const needsEscape = /[^\x20\x21\x23-\x5b\x5d-\uffff]/

/** A string as JSON text, `JSON.stringify`'s bytes, without calling it for the usual URL that needs no escape. */
function jsonString(text: string): string {
  return needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`
}

/**
 * For a pino logger of plain settings (no mixin, hooks, log formatter,
 * serializers or redaction of these fields, nested key or message prefix),
 * a writer of a batch of request lines as pino would make each, byte for
 * byte: its cached level prefix, time, bindings, then the fields, built
 * without pino's generic walk over a merge object, all written to its stream
 * at once. Any other logger gets `undefined` and logs through pino itself.
 */
function lineWriter(logger: Logger): ((batch: readonly RequestLineFields[]) => void) | undefined {
  const pino = logger as unknown as PinoInternals
  const serializers = pino[symbols.serializersSym] ?? {}
  const stringifiers = pino[symbols.stringifiersSym] ?? {}
  const plain =
    pino[symbols.lsCacheSym] !== undefined &&
    typeof pino[symbols.timeSym] === 'function' &&
    typeof pino[symbols.chindingsSym] === 'string' &&
    typeof pino[symbols.endSym] === 'string' &&
    !pino[symbols.mixinSym] &&
    pino[symbols.messageKeySym] === 'msg' &&
    !pino[symbols.nestedKeySym] &&
    !(logger as unknown as Record<symbol, unknown>)[msgPrefixSym] &&
    !pino[symbols.formattersSym]?.log &&
    !pino[symbols.hooksSym]?.logMethod &&
    !pino[symbols.hooksSym]?.streamWrite &&
    !pino[symbols.streamSym]?.[symbols.needsMetadataGsym] &&
    !stringifiers[symbols.wildcardFirstSym] &&
    ['req', 'res', 'responseTime', 'msg'].every((key) => !serializers[key] && !stringifiers[key])
  if (!plain) return undefined
  const levels = logger.levels.values
  return (batch) => {
    // Read per batch, as pino reads them per line: a logger's stream and bindings are its own, its time function may be too.
    const time = pino[symbols.timeSym]()
    const head = `${time}${pino[symbols.chindingsSym]},"req":{"id":"`
    const end = pino[symbols.endSym]
    let text = ''
    for (const { id, method, url: sent, authorization, adminKey, statusCode, responseTime } of batch) {
      // Secret-looking query parameters redacted (issue 44, 7): off the answer's path, with the batch.
      const url = redactedUrl(sent)
      const redacted =
        authorization && adminKey
          ? '"authorization":"[redacted]","x-admin-key":"[redacted]"'
          : authorization
            ? '"authorization":"[redacted]"'
            : adminKey
              ? '"x-admin-key":"[redacted]"'
              : ''
      // The id (requestIdSyntax or ours) and the method (an HTTP token) never need escaping.
      text +=
        `${pino[symbols.lsCacheSym][levels[statusCode >= 500 ? 'error' : 'info'] as number]}${head}${id}",` +
        `"method":"${method}","url":${jsonString(url)},"headers":{${redacted}}},"res":{"statusCode":${statusCode}},` +
        `"responseTime":${responseTime},"msg":"${requestLogMessage}"${end}`
    }
    pino[symbols.streamSym].write(text)
  }
}
