import { contract } from '../generated/contract.ts'
import { PlantStoreError, type Reason } from './errors.ts'
import { utf8 } from './utf8.ts'

/**
 * The transport-neutral shape of a request, as an adapter (MSW or Express)
 * hands it to the core. Nothing here knows about either transport.
 */
/**
 * What a client's `X-Request-Id` must look like to be kept (echoed in the
 * request log, used as the journal entry's id): 1 to 128 word characters,
 * dots, colons and dashes.
 *
 * @example
 * requestIdSyntax.test('checkout-42') // true
 */
export const requestIdSyntax = /^[\w.:-]{1,128}$/

export interface CoreRequest {
  /** The method in upper case, e.g. `GET`. */
  readonly method: string
  /**
   * The path below the base address, still percent-encoded, e.g. `/plants`
   * or `/plants/42`.
   */
  readonly path: string
  /** The raw query string without the leading `?` (empty when absent). */
  readonly query: string
  /** The id the transport gave this request (e.g. the sandbox's request log), if any. */
  readonly id?: string
  /** The client's network address, when the transport has one (the sandbox; not msw). */
  readonly client?: string | undefined
  /** Reads a request header by its lower-case name; `null` when absent. */
  header(name: string): string | null
  /**
   * Reads the body, at most `limit` bytes: resolves to the bytes, or to
   * `'too_large'` as soon as the body is known to be larger.
   */
  readBody(limit: number): Promise<Uint8Array | 'too_large'>
}

/**
 * How the transport itself should fail instead of delivering an answer (a
 * sandbox fault rule asks for these; the core never does): `reset` drops the
 * connection with a TCP reset, `empty` closes it before a byte of the answer,
 * `truncated` sends the status, headers and half of the body that
 * `Content-Length` promises, then closes. Over msw, `reset` and `empty` are
 * msw's network error (`HttpResponse.error()`), and `truncated` a body stream
 * that fails midway.
 */
export type TransportFault = 'reset' | 'empty' | 'truncated'

/** The transport-neutral answer: a status, headers and a JSON text body or none. */
export interface CoreResponse {
  /** The HTTP status; `0` when a {@link TransportFault} leaves none (as fetch's network error has). */
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | null
  /**
   * The body's UTF-8 bytes, when the core keeps them already (a tenant's
   * encoded list): a transport may write these chunks instead of encoding
   * `body` anew, and should, for `body` is then decoded from them on first
   * read (see {@link bytesResponse}). Views of the tenant's list: never keep
   * them beyond the answer.
   */
  readonly chunks?: readonly Uint8Array[]
  /** When set, the adapter fails the transport this way instead of answering normally. */
  readonly fault?: TransportFault
  /** Why the core gave this Error answer, as data (coverage reads it); never sent. */
  readonly reason?: Reason
}

/** The headers of every JSON answer. */
export const jsonHeaders = { 'content-type': 'application/json' } as const

/**
 * A JSON answer.
 *
 * @example
 * jsonResponse(201, { tenant: 't_1' }) // { status: 201, headers: { 'content-type': 'application/json' }, body: '{"tenant":"t_1"}' }
 */
export function jsonResponse(status: number, value: unknown): CoreResponse {
  return { status, headers: jsonHeaders, body: JSON.stringify(value) }
}

/**
 * An answer whose body the core keeps as UTF-8 bytes (a long list): its
 * `chunks` for a transport that writes bytes, and its `body` for one that
 * needs the text, decoded from them on first read (so a transport that writes
 * the chunks never pays for the text). Each chunk holds whole characters.
 *
 * @example
 * bytesResponse(200, jsonHeaders, [new TextEncoder().encode('[]')]).body // '[]'
 */
export function bytesResponse(
  status: number,
  headers: Readonly<Record<string, string>>,
  chunks: readonly Uint8Array[],
): CoreResponse {
  let text: string | undefined
  return {
    status,
    headers,
    chunks,
    get body() {
      text ??= chunks.map((chunk) => utf8.decoder.decode(chunk)).join('')
      return text
    },
  }
}

/**
 * The answer with more headers, as it is otherwise: a body still to be
 * decoded from its bytes ({@link bytesResponse}) stays so (a spread would
 * decode it).
 *
 * @example
 * withHeaders(answer, { 'preference-applied': 'delay=100' })
 */
export function withHeaders(response: CoreResponse, headers: Readonly<Record<string, string>>): CoreResponse {
  return Object.defineProperties({} as CoreResponse, {
    ...Object.getOwnPropertyDescriptors(response),
    headers: { value: { ...response.headers, ...headers }, enumerable: true },
  })
}

/** The answer without a body: 204. */
export const noContent: CoreResponse = { status: 204, headers: {}, body: null }

/**
 * Reads a request body within the contract's limit; a larger one is
 * `payload_too_large`.
 *
 * @example
 * const bytes = await readBodyWithinLimit(request)
 */
export async function readBodyWithinLimit(request: CoreRequest): Promise<Uint8Array> {
  const body = await request.readBody(contract.maxBodyBytes)
  if (body === 'too_large') {
    throw new PlantStoreError('payload_too_large', `The request body is larger than ${contract.maxBodyBytes} bytes.`)
  }
  return body
}

/**
 * Collects body chunks up to a limit: what every adapter's body reader
 * shares, whatever stream it reads from.
 *
 * @example
 * const body = new LimitedBody(65536)
 * if (!body.push(chunk)) return 'too_large'
 * body.bytes()
 */
export class LimitedBody {
  readonly #limit: number
  readonly #chunks: Uint8Array[] = []
  #size = 0

  constructor(limit: number) {
    this.#limit = limit
  }

  /** Adds a chunk; `false` once the body is larger than the limit (the chunk is not kept then). */
  push(chunk: Uint8Array): boolean {
    this.#size += chunk.byteLength
    if (this.#size > this.#limit) return false
    this.#chunks.push(chunk)
    return true
  }

  /** The bytes collected, as one array. */
  bytes(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0]!
    const bytes = new Uint8Array(this.#size)
    let offset = 0
    for (const chunk of this.#chunks) {
      bytes.set(chunk, offset)
      offset += chunk.byteLength
    }
    return bytes
  }
}

/**
 * Reads a `ReadableStream` of bytes up to `limit`, stopping (and cancelling
 * the stream) as soon as more arrives. Used by adapters over fetch `Request`s.
 *
 * @example
 * await readLimited(request.body, 65536) // Uint8Array | 'too_large'
 */
export async function readLimited(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | 'too_large'> {
  if (!stream) return new Uint8Array(0)
  const reader = stream.getReader()
  const body = new LimitedBody(limit)
  for (;;) {
    // A body that fails midway (the client went away) is the client's fault, never a 500.
    const { done, value } = await reader.read().catch(() => {
      throw new PlantStoreError('invalid_request', 'The request body could not be read completely.')
    })
    if (done) return body.bytes()
    if (!body.push(value)) {
      await reader.cancel().catch(() => undefined)
      return 'too_large'
    }
  }
}
