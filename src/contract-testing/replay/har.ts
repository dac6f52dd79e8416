/**
 * Reading HAR 1.2 files (what browsers' "Save all as HAR", Playwright's
 * `recordHar` and proxies write) one entry at a time: the file is scanned as
 * bytes for the elements of `log.entries`, and each element alone is handed
 * to `JSON.parse`. Memory holds one entry and one read chunk, never the file.
 *
 * No streaming JSON library: the only structure needed is where each element
 * of one array starts and ends, which a scan of strings, escapes and
 * brackets tells (the bytes that matter are ASCII, so UTF-8 needs no
 * decoding to find them); V8's own `JSON.parse` then reads each entry, far
 * faster than a tokenizer written in JavaScript would, and a dependency
 * would bring a tokenizer and its upkeep for what a hundred lines do.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { jsonDepthProblem, maxJsonDepth } from '../../core/bounded-json.ts'

/** A name/value pair of a HAR request or response (headers, query, cookies). */
export interface HarNameValue {
  readonly name: string
  readonly value: string
}

/** One HAR 1.2 entry, as far as a replay reads it. */
export interface HarEntry {
  readonly startedDateTime?: string
  readonly request: {
    readonly method: string
    readonly url: string
    readonly headers?: readonly HarNameValue[]
    readonly postData?: { readonly mimeType?: string; readonly text?: string; readonly encoding?: string }
  }
  readonly response: {
    readonly status: number
    readonly headers?: readonly HarNameValue[]
    readonly content?: {
      readonly size?: number
      readonly mimeType?: string
      readonly text?: string
      readonly encoding?: string
    }
  }
}

/** A HAR 1.2 document (its `log.entries`, which is all a replay reads). */
export interface Har {
  readonly log: { readonly entries: readonly HarEntry[] }
}

/**
 * Input a replay cannot read: not a HAR, too big, unreadable. Its message
 * is one line, what the command prints before exiting with 2.
 *
 * @example
 * throw new ReplayInputError('not a HAR: it has no log.entries array.')
 */
export class ReplayInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReplayInputError'
  }
}

/** The largest HAR file a replay reads by default: 256 MiB. */
export const defaultMaxHarBytes = 256 * 1024 * 1024

const quote = 0x22
const backslash = 0x5c
const colon = 0x3a
const openBrace = 0x7b
const closeBrace = 0x7d
const openBracket = 0x5b
const closeBracket = 0x5d
/** Keys longer than this are never `log` or `entries`: not kept. */
const maxKeptString = 16

/**
 * Whether an entry has what a replay needs: a request with a method and URL,
 * and a response with a status.
 */
function isEntry(value: unknown): value is HarEntry {
  if (typeof value !== 'object' || value === null) return false
  const { request, response } = value as { request?: unknown; response?: unknown }
  return (
    typeof request === 'object' &&
    request !== null &&
    typeof (request as { method?: unknown }).method === 'string' &&
    typeof (request as { url?: unknown }).url === 'string' &&
    typeof response === 'object' &&
    response !== null &&
    typeof (response as { status?: unknown }).status === 'number'
  )
}

/** The entry parsed from its JSON text, or a {@link ReplayInputError} naming its index. */
function parseEntry(text: string, index: number): HarEntry {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ReplayInputError(`not a HAR: log.entries[${index}] is not JSON (${(error as Error).message}).`)
  }
  return checkedEntry(value, index)
}

/**
 * An entry with what a replay needs, whose bodies (read as JSON later) nest
 * within `maxJsonDepth`; else a {@link ReplayInputError} naming its index.
 */
function checkedEntry(value: unknown, index: number): HarEntry {
  if (!isEntry(value)) {
    throw new ReplayInputError(`not a HAR: log.entries[${index}] has no request (method, url) and response (status).`)
  }
  for (const [side, body] of [
    ['request', value.request.postData],
    ['response', value.response.content],
  ] as const) {
    if (typeof body?.text !== 'string') continue
    const text = body.encoding === 'base64' ? Buffer.from(body.text, 'base64') : body.text
    const problem = jsonDepthProblem(text)
    if (problem !== undefined) throw new ReplayInputError(`log.entries[${index}]'s ${side} body: ${problem}.`)
  }
  return value
}

/**
 * The scan of a HAR's bytes: where the elements of `log.entries` start and
 * end. Fed chunk by chunk; each complete element's bytes are passed on.
 */
class EntryScanner {
  /** `{` or `[` for each open container. */
  readonly #stack: number[] = []
  /** The key of each open object, by depth (`undefined` for an array). */
  readonly #keys: Array<string | undefined> = []
  #inString = false
  #escaped = false
  /** The string being read, when it may be a key worth keeping. */
  #string: number[] | undefined
  #lastString: string | undefined
  #sawRoot = false
  #sawEntries = false
  /** The bytes of the entry being read, from earlier chunks. */
  #parts: Uint8Array[] = []
  #inEntry = false
  /** Entries read so far. */
  #count = 0

  /** Scans a chunk; calls `onEntry` with the bytes of each element of `log.entries` that ends in it. */
  push(chunk: Uint8Array, onEntry: (bytes: Uint8Array) => void): void {
    let entryStart = this.#inEntry ? 0 : -1
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false
        else if (byte === backslash) this.#escaped = true
        else if (byte === quote) {
          this.#inString = false
          if (this.#string) this.#lastString = String.fromCharCode(...this.#string)
          this.#string = undefined
          continue
        }
        if (this.#string) {
          if (this.#string.length < maxKeptString) this.#string.push(byte)
          else this.#string = undefined
        }
        continue
      }
      switch (byte) {
        case quote:
          if (this.#stack.length === 3 && this.#isEntries()) this.#notAnObject()
          this.#inString = true
          this.#lastString = undefined
          // Only the keys of the first two levels (`log`, `entries`) matter.
          this.#string = this.#stack.length <= 2 ? [] : undefined
          break
        case colon:
          this.#keys[this.#stack.length - 1] = this.#lastString
          break
        case openBrace:
        case openBracket: {
          const depth = this.#stack.length
          if (depth === 0) {
            if (byte !== openBrace || this.#sawRoot)
              throw new ReplayInputError('not a HAR: expected one JSON object with log.entries.')
            this.#sawRoot = true
          }
          if (depth === 3 && this.#isEntries()) {
            if (byte !== openBrace) this.#notAnObject()
            this.#inEntry = true
            entryStart = i
          }
          if (depth === 2 && this.#keys[0] === 'log' && this.#keys[1] === 'entries') {
            if (byte !== openBracket) throw new ReplayInputError('not a HAR: log.entries is not an array.')
            this.#sawEntries = true
          }
          // Bounded before anything is kept or parsed: millions of nested arrays are a few bytes each.
          if (depth >= maxJsonDepth)
            throw new ReplayInputError(`not a HAR: it nests deeper than ${maxJsonDepth} levels.`)
          this.#stack.push(byte)
          this.#keys[depth] = undefined
          break
        }
        case closeBrace:
        case closeBracket: {
          if ((this.#stack.pop() ?? 0) + 2 !== byte) throw new ReplayInputError('not a HAR: the JSON is malformed.')
          if (this.#stack.length === 3 && this.#inEntry) {
            this.#parts.push(chunk.subarray(entryStart, i + 1))
            const bytes = this.#parts.length === 1 ? (this.#parts[0] as Uint8Array) : Buffer.concat(this.#parts)
            this.#parts = []
            this.#inEntry = false
            entryStart = -1
            this.#count++
            onEntry(bytes)
          }
          break
        }
        default:
          if (this.#stack.length === 0 && byte > 0x20 && !this.#sawRoot) {
            throw new ReplayInputError('not a HAR: expected a JSON object with log.entries.')
          }
          // A number, `true`, `false` or `null` among the entries.
          if (this.#stack.length === 3 && byte > 0x20 && byte !== 0x2c && this.#isEntries()) this.#notAnObject()
      }
    }
    if (this.#inEntry && entryStart !== -1) this.#parts.push(chunk.subarray(entryStart))
  }

  /** An element of `log.entries` that is not an object. */
  #notAnObject(): never {
    throw new ReplayInputError(`not a HAR: log.entries[${this.#count}] is not an object.`)
  }

  /** Whether the containers open now are the root, `log` and its `entries` array. */
  #isEntries(): boolean {
    return (
      this.#stack[0] === openBrace &&
      this.#stack[1] === openBrace &&
      this.#stack[2] === openBracket &&
      this.#keys[0] === 'log' &&
      this.#keys[1] === 'entries'
    )
  }

  /** Checks the document is complete and had `log.entries`. */
  end(): void {
    if (!this.#sawRoot) throw new ReplayInputError('not a HAR: the file is empty.')
    if (this.#stack.length > 0 || this.#inString) throw new ReplayInputError('not a HAR: the JSON ends too early.')
    if (!this.#sawEntries) throw new ReplayInputError('not a HAR: it has no log.entries array.')
  }
}

/**
 * The entries of a HAR file, one at a time, in order, as it is read: at
 * most one entry and one chunk of the file (`chunkBytes`, 256 KiB) in memory. Throws a
 * {@link ReplayInputError} for a file that cannot be read, is larger than
 * `maxBytes`, or is not a HAR (found out as soon as the scan sees it).
 *
 * @example
 * for await (const entry of readHarEntries('staging.har')) console.info(entry.request.url)
 */
export async function* readHarEntries(
  path: string,
  { maxBytes = defaultMaxHarBytes, chunkBytes = 256 * 1024 }: { maxBytes?: number; chunkBytes?: number } = {},
): AsyncGenerator<HarEntry> {
  let size: number
  try {
    const stats = await stat(path)
    if (!stats.isFile()) throw new Error('not a file')
    size = stats.size
  } catch (error) {
    throw new ReplayInputError(`cannot read ${path} (${(error as Error).message}).`)
  }
  if (size > maxBytes) {
    throw new ReplayInputError(`${path} is ${size} bytes, over the bound of ${maxBytes} bytes (--max-size).`)
  }
  const scanner = new EntryScanner()
  const decoder = new TextDecoder()
  let index = 0
  let first = true
  const ready: HarEntry[] = []
  const stream = createReadStream(path, { highWaterMark: chunkBytes })
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // A byte-order mark (some tools write one) is not JSON.
      const bytes = first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? chunk.subarray(3) : chunk
      first = false
      scanner.push(bytes, (entry) => ready.push(parseEntry(decoder.decode(entry), index++)))
      yield* ready.splice(0)
    }
  } catch (error) {
    if (error instanceof ReplayInputError) throw error
    throw new ReplayInputError(`cannot read ${path} (${(error as Error).message}).`)
  } finally {
    stream.destroy()
  }
  scanner.end()
}

/**
 * The entries of a HAR already in memory (e.g. `JSON.parse`d), checked as
 * {@link readHarEntries} checks a file's.
 *
 * @example
 * for (const entry of harEntries(JSON.parse(text))) console.info(entry.request.method)
 */
export function* harEntries(har: unknown): Generator<HarEntry> {
  const entries = (har as { log?: { entries?: unknown } } | null)?.log?.entries
  if (!Array.isArray(entries)) throw new ReplayInputError('not a HAR: it has no log.entries array.')
  for (const [index, entry] of entries.entries()) yield checkedEntry(entry, index)
}
