/**
 * One request to the provider and its answer, as the rules send and judge
 * them. Tokens travel by role and are never written into an exchange: what
 * a report shows is `Bearer ‹read-only token (--read-token)›`.
 */
/** Whose token a request carries. */
export type Role = 'readWrite' | 'readOnly' | 'foreign' | 'expired'

/**
 * Roles as reports name them: never the token itself.
 *
 * @example
 * `Bearer ‹${roleLabels.readOnly}›` // 'Bearer ‹read-only token (--read-token)›'
 */
export const roleLabels: Readonly<Record<Role, string>> = {
  readWrite: 'read-write token (--token)',
  readOnly: 'read-only token (--read-token)',
  foreign: "another tenant's token (--foreign-token)",
  expired: 'expired token (--expired-token)',
}

/** The tokens a run works with; only `readWrite` is required. */
export interface ConformanceTokens {
  /** A token with `plants:read` and `plants:write`. */
  readonly readWrite: string
  /** A token of the same tenant with `plants:read` only: enables the scope rules. */
  readonly readOnly?: string
  /** A read-write token of another tenant: enables the isolation rules. */
  readonly foreign?: string
  /** A token that has expired: enables `auth.expired-token`. */
  readonly expired?: string
}

/** A request as a rule describes it. */
export interface Probe {
  readonly method: string
  /** Below the base address, query included, e.g. `/plants?limit=2`. */
  readonly path: string
  /** The role whose token to send (default `readWrite`); `null` sends no `Authorization`. */
  readonly as?: Role | null
  /** A literal `Authorization` value instead of a role's token (never a real secret). */
  readonly authorization?: string
  /** A body to send as JSON. */
  readonly json?: unknown
  /** A body sent as it is. */
  readonly body?: string
  /** The `Content-Type`: `application/json` by default when there is a body; `null` sends none. */
  readonly contentType?: string | null
}

/** A request as it was sent, tokens replaced by their role. */
export interface SentRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
}

/** What the provider answered. */
export interface Answer {
  readonly status: number
  /** Case-insensitive, as fetch gives them. */
  readonly headers: Headers
  /** The body as read; when it was longer than {@link cutAt}, its first 4 KiB (what a report shows). */
  readonly text: string
  /** The parsed body, when it is JSON. */
  readonly json?: { readonly value: unknown }
  /**
   * Set when the body was longer than the contract allows this answer (plus
   * a margin): the read stopped there, and the rest was never read.
   */
  readonly cutAt?: number
  /**
   * Set on an answer the run keeps after its body was dropped (it was
   * longer than the run keeps): what the run-wide rules would have judged
   * from the body, judged when it came.
   */
  readonly judged?: {
    /** How many characters its body had ({@link text} keeps the first of them). */
    readonly textLength: number
    /** What `contractProblems` said of it. */
    readonly contractProblems: readonly string[] | undefined
    /** Whether it was an Error body. */
    readonly errorBody: boolean
  }
}

/** A request and its answer, or the reason there is none. */
export interface Exchange {
  /** The id of the rule that sent it (`preflight` and `cleanup` for the run's own). */
  readonly rule: string
  readonly role: Role | null
  readonly request: SentRequest
  readonly answer?: Answer
  /** Why there is no answer (refused connection, timeout…). */
  readonly error?: string
}

export interface Transport {
  readonly baseUrl: string
  readonly tokens: ConformanceTokens
  readonly fetch: typeof globalThis.fetch
  readonly timeoutMs: number
}

/**
 * Sends a probe and reads its answer, at most `maxBytes` of its body (the
 * rest is never read: the answer says where it was cut). Redirects are not
 * followed (a `POST` must not turn into a `GET`); a failed request resolves
 * to an exchange with an `error` instead of an answer.
 *
 * @example
 * const exchange = await sendProbe(transport, 'list.shape', { method: 'GET', path: '/plants' })
 * exchange.answer?.status // 200
 */
export async function sendProbe(
  transport: Transport,
  rule: string,
  probe: Probe,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Exchange> {
  const role = probe.authorization === undefined ? (probe.as === undefined ? 'readWrite' : probe.as) : null
  const headers: Record<string, string> = {}
  const shown: Record<string, string> = {}
  if (role !== null) {
    const token = transport.tokens[role]
    if (token === undefined) throw new Error(`A rule sent a request as ${role} without that token.`)
    headers.authorization = `Bearer ${token}`
    shown.authorization = `Bearer ‹${roleLabels[role]}›`
  } else if (probe.authorization !== undefined) {
    headers.authorization = probe.authorization
    shown.authorization = probe.authorization
  }
  const text = probe.json === undefined ? probe.body : JSON.stringify(probe.json)
  const contentType =
    probe.contentType === undefined ? (text === undefined ? null : 'application/json') : probe.contentType
  if (contentType !== null) {
    headers['content-type'] = contentType
    shown['content-type'] = contentType
  }
  const request: SentRequest = {
    method: probe.method,
    path: probe.path,
    headers: shown,
    ...(text === undefined ? {} : { body: text }),
  }
  try {
    const response = await transport.fetch(`${transport.baseUrl}${probe.path}`, {
      method: probe.method,
      headers,
      // Bytes, not a string: fetch would add `Content-Type: text/plain` to a string body.
      ...(text === undefined ? {} : { body: new TextEncoder().encode(text) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(transport.timeoutMs),
    })
    const { text: body, cut } = await readAtMost(response, maxBytes)
    return {
      rule,
      role,
      request,
      answer: cut
        ? { status: response.status, headers: response.headers, text: body, cutAt: maxBytes }
        : { status: response.status, headers: response.headers, text: body, ...parsed(body) },
    }
  } catch (error) {
    return { rule, role, request, error: describeFailure(error, transport.timeoutMs) }
  }
}

/** What a cut answer keeps of its body: enough for a report's preview. */
const cutPreviewBytes = 4096

/**
 * A body read up to `maxBytes`: the reading stops (and the stream is
 * cancelled) past it, and only its first bytes are kept then.
 */
async function readAtMost(response: Response, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: '', cut: false }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) {
    // Declared too long: not one byte of it is read.
    await response.body.cancel()
    return { text: '', cut: true }
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let length = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (length + value.byteLength > maxBytes) {
      chunks.push(value)
      await reader.cancel()
      return { text: decoded(firstBytes(chunks, cutPreviewBytes)), cut: true }
    }
    chunks.push(value)
    length += value.byteLength
  }
  return { text: decoded(chunks), cut: false }
}

/** The first `count` bytes of these chunks, as chunks. */
function firstBytes(chunks: readonly Uint8Array[], count: number): Uint8Array[] {
  const first: Uint8Array[] = []
  for (let left = count, index = 0; left > 0 && index < chunks.length; index++) {
    const piece = chunks[index]?.subarray(0, left) ?? new Uint8Array()
    first.push(piece)
    left -= piece.byteLength
  }
  return first
}

function decoded(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder()
  return chunks.map((chunk, index) => decoder.decode(chunk, { stream: index < chunks.length - 1 })).join('')
}

function parsed(text: string): { json?: { value: unknown } } {
  try {
    return { json: { value: JSON.parse(text) } }
  } catch {
    return {}
  }
}

/** A failed fetch in words: the cause's code (ECONNREFUSED…) when there is one. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const detail = cause?.code ?? cause?.message
  const message = error instanceof Error ? error.message : String(error)
  return detail ? `${message} (${detail})` : message
}

/**
 * The ids a create request may have stored, so that cleanup can delete them
 * even when a provider accepted a body it should have refused: an integer
 * id, both neighbours of a fractional one, a numeric string, or (for raw
 * bodies) whatever follows `"id":`.
 *
 * @example
 * idsIn({ method: 'POST', path: '/plants', json: { id: 7.5, name: 'Fern' } }) // [7, 8]
 */
export function idsIn(probe: Probe): number[] {
  let candidate: unknown
  if (probe.json !== undefined) {
    candidate = typeof probe.json === 'object' && probe.json !== null ? (probe.json as { id?: unknown }).id : undefined
  } else if (probe.body !== undefined) {
    candidate = /"id"\s*:\s*"?(-?\d+)/.exec(probe.body)?.[1]
  }
  const id = typeof candidate === 'string' && /^-?\d+$/.test(candidate) ? Number(candidate) : candidate
  if (typeof id !== 'number' || !Number.isFinite(id) || !Number.isSafeInteger(Math.trunc(id))) return []
  return Number.isInteger(id) ? [id] : [Math.floor(id), Math.ceil(id)]
}

/**
 * The media type of an answer, lower case and without parameters (`''` when absent).
 *
 * @example
 * mediaTypeOf(answer) // 'application/json' for 'Application/JSON; charset=utf-8'
 */
export function mediaTypeOf(answer: Answer): string {
  return (answer.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}
