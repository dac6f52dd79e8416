import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Writable } from 'node:stream'
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

/**
 * Starts the request log of one request: takes the client's `X-Request-Id`
 * when well-formed (else issues one), echoes it in the answer, and writes one
 * structured pino line when the answer is finished: request id, method, URL
 * as sent (secret-looking query parameters redacted), status and time taken. Credentials are only noted as present and
 * redacted, never logged. No child logger per request: the hot path pays for
 * one log line, which a logger of plain settings gets written directly
 * ({@link requestLine}, the same bytes pino writes). Connect-style: calls
 * `next` when given, so Express can mount it.
 *
 * @example
 * app.use(requestLog(pino()))
 * // or, without Express:
 * const log = requestLog(pino())
 * createServer((req, res) => { log(req, res); handle(req, res) })
 */
export function requestLog(logger: Logger): (req: IncomingMessage, res: ServerResponse, next?: () => void) => void {
  const write = lineWriter(logger)
  return (req, res, next) => {
    // hrtime, not `performance.now()`: the first read of `performance` loads perf_hooks (1 ms of a start).
    const started = process.hrtime.bigint()
    const presented = req.headers['x-request-id']
    const id =
      typeof presented === 'string' && requestIdSyntax.test(presented)
        ? presented
        : `${idPrefix}-${(idCounter++).toString(36)}`
    res.setHeader('x-request-id', id)
    // For the app's error handler: where to log a failure's detail.
    ;(req as { log?: Logger }).log = logger
    // The URL as sent, before any router strips its mount point; secrets in its query redacted (issue 44, 7).
    const url = redactedUrl(req.url ?? '')
    // `on`, not `once`: 'finish' comes once, and `once` wraps the listener in one more closure per request.
    res.on('finish', () => {
      const { statusCode } = res
      const level = statusCode >= 500 ? 'error' : 'info'
      if (!logger.isLevelEnabled(level)) return
      const headers = req.headers
      const fields: RequestLineFields = {
        id,
        method: req.method ?? '',
        url,
        authorization: headers.authorization !== undefined,
        adminKey: headers['x-admin-key'] !== undefined,
        statusCode,
        responseTime: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
      }
      if (write) write(level, fields)
      else logger[level](requestLogObject(fields), requestLogMessage)
    })
    next?.()
  }
}

/** What a request's log line says. */
interface RequestLineFields {
  id: string
  method: string
  url: string
  /** Whether the request carried `Authorization` (logged as `[redacted]`). */
  authorization: boolean
  /** Whether the request carried `X-Admin-Key` (logged as `[redacted]`). */
  adminKey: boolean
  statusCode: number
  responseTime: number
}

const requestLogMessage = 'request completed'

/** The object a request's line logs (pino's `req`/`res` shape). */
function requestLogObject(fields: RequestLineFields) {
  const { id, method, url, authorization, adminKey, statusCode, responseTime } = fields
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
 * For a pino logger of plain settings (no mixin, hooks, log formatter,
 * serializers or redaction of these fields, nested key or message prefix),
 * a writer of the request's line as pino would make it, byte for byte: its
 * cached level prefix, time, bindings, then the fields, built without pino's
 * generic walk over a merge object. Any other logger gets `undefined` and
 * logs through pino itself. The level is still checked on each line.
 */
function lineWriter(logger: Logger): ((level: 'info' | 'error', fields: RequestLineFields) => void) | undefined {
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
  return (level, fields) => {
    const { id, method, url, authorization, adminKey, statusCode, responseTime } = fields
    const redacted =
      authorization && adminKey
        ? '"authorization":"[redacted]","x-admin-key":"[redacted]"'
        : authorization
          ? '"authorization":"[redacted]"'
          : adminKey
            ? '"x-admin-key":"[redacted]"'
            : ''
    // Read per line, as pino does: a logger's stream and bindings are its own, its time function may be too.
    pino[symbols.streamSym].write(
      `${pino[symbols.lsCacheSym][levels[level] as number]}${pino[symbols.timeSym]()}${pino[symbols.chindingsSym]}` +
        `,"req":{"id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"url":${JSON.stringify(url)},` +
        `"headers":{${redacted}}},"res":{"statusCode":${statusCode}},"responseTime":${responseTime},` +
        `"msg":"${requestLogMessage}"${pino[symbols.endSym]}`,
    )
  }
}

/**
 * A pino destination that writes its lines in batches: every line logged in
 * one turn of the event loop goes out in one write, instead of one write (and
 * one system call) each. `flushSync()` writes what is pending at once (on
 * exit); on Linux, writes to files and pipes are synchronous, so nothing
 * logged before an exit is lost.
 *
 * @example
 * const destination = new BatchedDestination(process.stdout)
 * const logger = pino({ level: 'info' }, destination)
 * process.on('exit', () => destination.flushSync())
 */
export class BatchedDestination implements DestinationStream {
  readonly #out: Writable
  #pending = ''
  #scheduled = false

  constructor(out: Writable) {
    this.#out = out
  }

  write(line: string): void {
    this.#pending += line
    if (this.#pending.length >= 65_536) this.flushSync()
    else if (!this.#scheduled) {
      this.#scheduled = true
      setImmediate(this.#flush)
    }
  }

  /** Writes every pending line now. */
  flushSync(): void {
    if (this.#pending === '') return
    const batch = this.#pending
    this.#pending = ''
    this.#out.write(batch)
  }

  readonly #flush = (): void => {
    this.#scheduled = false
    this.flushSync()
  }
}
