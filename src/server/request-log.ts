import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Writable } from 'node:stream'
import type { DestinationStream } from 'pino'
import { nonSecretId } from '../core/random.ts'
import type { SandboxLogger } from './json-lines-log.ts'

/**
 * What a client's `X-Request-Id` must look like to be kept (echoed in the
 * request log, used as the journal entry's id): 1 to 128 word characters,
 * dots, colons and dashes.
 *
 * @example
 * requestIdSyntax.test('checkout-42') // true
 */
export const requestIdSyntax = /^[\w.:-]{1,128}$/

/**
 * Request ids unique to this process without a random draw per request: a
 * random prefix chosen at start, then a counter. The prefix only tells
 * processes apart: `Math.random` is enough, and loads no Web Crypto.
 */
const idPrefix = nonSecretId(6)
let idCounter = 0

/**
 * Starts the request log of one request: takes the client's `X-Request-Id`
 * when well-formed (else issues one), echoes it in the answer, and writes one
 * structured line when the answer is finished (pino's `req`/`res` shape):
 * request id, method, URL as sent, status and time taken. Credentials are
 * only noted as present and redacted, never logged. No child logger per
 * request: the hot path pays for one log line. Connect-style: calls `next`
 * when given, so Express can mount it.
 *
 * @example
 * app.use(requestLog(pino()))
 * // or, without Express:
 * const log = requestLog(pino())
 * createServer((req, res) => { log(req, res); handle(req, res) })
 */
export function requestLog(
  logger: SandboxLogger,
): (req: IncomingMessage, res: ServerResponse, next?: () => void) => void {
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
    ;(req as { log?: SandboxLogger }).log = logger
    // The URL as sent, before any router strips its mount point.
    const url = req.url ?? ''
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
      logger[level](requestLogObject(fields), requestLogMessage)
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
