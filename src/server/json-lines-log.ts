/**
 * The sandbox's logs: what it logs through ({@link SandboxLogger}, which a
 * pino logger is), and the bin's own logger, which writes pino's JSON lines
 * byte for byte without loading pino (pino's modules cost the bin's start
 * ~8 ms and 2 MB of memory).
 */
import type { DestinationStream, Level, LevelWithSilent, Logger } from 'pino'
import { err as serializeError } from 'pino-std-serializers'

/**
 * What the sandbox logs through: its levels' methods, called with an object
 * of fields and a message (or a message alone), and `isLevelEnabled`. A
 * pino logger is one; so is the bin's {@link JsonLinesLogger}.
 */
export type SandboxLogger = Pick<Logger, Level | 'isLevelEnabled'>

/** pino's level numbers. */
const levelValues: Readonly<Record<LevelWithSilent, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
}

export interface JsonLinesLoggerOptions {
  /** The `name` field of every line. */
  name: string
  /** Lines below this level are not written (default `info`; `silent`: none). */
  level?: LevelWithSilent
  /** The clock of the `time` field, in ms since the epoch (default `Date.now`). */
  now?: () => number
}

/**
 * A logger that writes each line as pino with default settings writes it:
 * `{"level":30,"time":…,"pid":…,"hostname":…,"name":…,<fields>,"msg":…}`.
 * Fields are written in their order, undefined and function values left
 * out, non-finite numbers as `null`, an error under `err` through pino's
 * own error serializer. Only what the sandbox logs: an object of fields with
 * an optional message, or a message alone (no `%s` arguments, no child
 * bindings).
 *
 * @example
 * const log = new JsonLinesLogger({ name: 'plant-store-mock', level: 'info' }, process.stdout)
 * log.info({ url: 'http://127.0.0.1:4010' }, 'listening')
 */
export class JsonLinesLogger implements SandboxLogger {
  readonly #options: JsonLinesLoggerOptions
  readonly #threshold: number
  /** `,"pid":…,"hostname":…,"name":…`: the same on every line. */
  readonly #bindings: string
  readonly #destination: DestinationStream
  readonly #now: () => number

  constructor(options: JsonLinesLoggerOptions, destination: DestinationStream) {
    this.#options = options
    this.#threshold = levelValues[options.level ?? 'info']
    const { hostname } = process.getBuiltinModule('node:os')
    this.#bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"name":${JSON.stringify(options.name)}`
    this.#destination = destination
    this.#now = options.now ?? Date.now
  }

  /**
   * The same logger (name, destination, clock) at another level.
   *
   * @example
   * const requests = log.atLevel('warn')
   */
  atLevel(level: LevelWithSilent): JsonLinesLogger {
    return new JsonLinesLogger({ ...this.#options, level }, this.#destination)
  }

  isLevelEnabled(level: string): boolean {
    return (levelValues[level as LevelWithSilent] ?? Number.NaN) >= this.#threshold
  }

  readonly trace = (fields: unknown, message?: string): void => this.#write(levelValues.trace, fields, message)
  readonly debug = (fields: unknown, message?: string): void => this.#write(levelValues.debug, fields, message)
  readonly info = (fields: unknown, message?: string): void => this.#write(levelValues.info, fields, message)
  readonly warn = (fields: unknown, message?: string): void => this.#write(levelValues.warn, fields, message)
  readonly error = (fields: unknown, message?: string): void => this.#write(levelValues.error, fields, message)
  readonly fatal = (fields: unknown, message?: string): void => this.#write(levelValues.fatal, fields, message)

  #write(level: number, fields: unknown, message: string | undefined): void {
    if (level < this.#threshold) return
    let line = `{"level":${level},"time":${this.#now()}${this.#bindings}`
    if (typeof fields === 'string') message = fields
    else if (typeof fields === 'object' && fields !== null) line += fieldsJson(fields as Record<string, unknown>)
    if (message !== undefined) line += `,"msg":${JSON.stringify(message)}`
    this.#destination.write(`${line}}\n`)
  }
}

/** The fields of a line as pino writes them: `,"name":value` for each own field that has a value. */
function fieldsJson(fields: Record<string, unknown>): string {
  let json = ''
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue
    let value = fields[key]
    if (key === 'err') value = serializeError(value as Error)
    if (value === undefined || typeof value === 'function') continue
    if (typeof value === 'number' && !Number.isFinite(value)) value = null
    json += `,${JSON.stringify(key)}:${JSON.stringify(value)}`
  }
  return json
}
