import { PlantStoreError } from './errors.ts'

/**
 * The transport-neutral shape of a request, as an adapter (MSW or Express)
 * hands it to the core. Nothing here knows about either transport.
 */
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
  /** Reads a request header by its lower-case name; `null` when absent. */
  header(name: string): string | null
  /**
   * Reads the body, at most `limit` bytes: resolves to the bytes, or to
   * `'too_large'` as soon as the body is known to be larger.
   */
  readBody(limit: number): Promise<Uint8Array | 'too_large'>
}

/** The transport-neutral answer: a status, headers and a JSON text body or none. */
export interface CoreResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | null
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
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    // A body that fails midway (the client went away) is the client's fault, never a 500.
    const { done, value } = await reader.read().catch(() => {
      throw new PlantStoreError('invalid_request', 'The request body could not be read completely.')
    })
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => undefined)
      return 'too_large'
    }
    chunks.push(value)
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0]
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
