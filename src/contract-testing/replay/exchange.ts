/**
 * A HAR entry as a replay reads it: one of the Plant Store's exchanges
 * (picked by a base address, or by the contract's paths), the request as the
 * core takes it and the real answer as the contract checker reads it; and
 * how a report shows an exchange without its secrets.
 */
import type { CoreRequest } from '../../core/http.ts'
import { plantStoreContract } from '../contract-checker.ts'
import type { HarEntry, HarNameValue } from './har.ts'

/** A recorded answer: status, headers (case-insensitive) and the body's text (`undefined`: not recorded). */
export interface RecordedAnswer {
  readonly status: number
  readonly headers: { get(name: string): string | null }
  readonly text: string | undefined
}

/** One Plant Store exchange of a HAR. */
export interface ReplayExchange {
  /** Its index in the HAR's `log.entries` (`jq '.log.entries[12]'` finds it). */
  readonly index: number
  /** When it started (`startedDateTime`), as the HAR says. */
  readonly time: string
  readonly method: string
  /** The path below the base address, still percent-encoded, e.g. `/plants/7`. */
  readonly path: string
  /** The query without `?` (empty when none). */
  readonly query: string
  readonly requestHeaders: ReadonlyMap<string, string>
  /** The request body's bytes (empty when none). */
  readonly requestBody: Uint8Array
  readonly answer: RecordedAnswer
}

/** Headers as a case-insensitive lookup; repeated names joined with `, ` (HTTP/2 pseudo-headers left out). */
function headerMap(headers: readonly HarNameValue[] | undefined): Map<string, string> {
  const map = new Map<string, string>()
  for (const { name, value } of headers ?? []) {
    if (typeof name !== 'string' || typeof value !== 'string' || name.startsWith(':')) continue
    const key = name.toLowerCase()
    const previous = map.get(key)
    map.set(key, previous === undefined ? value : `${previous}, ${value}`)
  }
  return map
}

const lookup = (map: ReadonlyMap<string, string>) => ({ get: (name: string) => map.get(name.toLowerCase()) ?? null })

/** A HAR text (`encoding: base64` or plain) as bytes. */
function bytesOf(text: string | undefined, encoding: string | undefined): Uint8Array {
  if (text === undefined || text === '') return new Uint8Array(0)
  return encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8')
}

/** The answer's body as text: `''` when it had none, `undefined` when the HAR left it out. */
function answerText(content: HarEntry['response']['content']): string | undefined {
  if (content?.text === undefined) return (content?.size ?? 0) > 0 ? undefined : ''
  return content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text
}

/** Where an exchange's path starts, for a base address (`https://api.example.com/v1`), or none. */
export interface Selection {
  readonly baseUrl?: string | undefined
}

/**
 * The path and query of an entry's URL when it is one of the Plant Store's
 * exchanges: below `baseUrl` when one is given, else a path of the contract
 * (`/plants`, `/plants/7`) at any origin. `undefined` for anything else, a
 * CORS preflight (`OPTIONS`), or an answer that never came (status 0).
 *
 * @example
 * plantStorePath(entry, { baseUrl: 'https://api.example.com' }) // { path: '/plants', query: 'limit=2' }
 */
export function plantStorePath(entry: HarEntry, { baseUrl }: Selection): { path: string; query: string } | undefined {
  const { method, url } = entry.request
  if (method.toUpperCase() === 'OPTIONS' || entry.response.status === 0) return undefined
  let rest: string
  if (baseUrl !== undefined) {
    const base = baseUrl.replace(/\/+$/, '')
    if (!url.startsWith(base)) return undefined
    rest = url.slice(base.length)
    if (rest !== '' && rest[0] !== '/' && rest[0] !== '?') return undefined
  } else {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return undefined
    }
    if (plantStoreContract.templateOf(parsed.pathname) === undefined) return undefined
    rest = `${parsed.pathname}${parsed.search}`
  }
  const hash = rest.indexOf('#')
  if (hash !== -1) rest = rest.slice(0, hash)
  const mark = rest.indexOf('?')
  const path = (mark === -1 ? rest : rest.slice(0, mark)) || '/'
  return { path, query: mark === -1 ? '' : rest.slice(mark + 1) }
}

/**
 * The exchange an entry is, when it is one of the Plant Store's (see
 * {@link plantStorePath}); `undefined` otherwise.
 *
 * @example
 * exchangeOf(entry, 12, { baseUrl: 'https://api.example.com' })?.path // '/plants/7'
 */
export function exchangeOf(entry: HarEntry, index: number, selection: Selection): ReplayExchange | undefined {
  const at = plantStorePath(entry, selection)
  if (!at) return undefined
  const { request, response } = entry
  const requestHeaders = headerMap(request.headers)
  if (!requestHeaders.has('content-type') && request.postData?.mimeType) {
    requestHeaders.set('content-type', request.postData.mimeType)
  }
  return {
    index,
    time: entry.startedDateTime ?? '',
    method: request.method.toUpperCase(),
    path: at.path,
    query: at.query,
    requestHeaders,
    requestBody: bytesOf(request.postData?.text, request.postData?.encoding),
    answer: {
      status: response.status,
      headers: lookup(headerMap(response.headers)),
      text: answerText(response.content),
    },
  }
}

/**
 * The exchange's request as the core takes it.
 *
 * @example
 * await createCore(store)(coreRequestOf(exchange))
 */
export function coreRequestOf(exchange: ReplayExchange): CoreRequest {
  const { method, path, query, requestHeaders, requestBody } = exchange
  return {
    method,
    path,
    query,
    header: (name) => requestHeaders.get(name) ?? null,
    readBody: async (limit) => (requestBody.byteLength > limit ? 'too_large' : requestBody),
  }
}

/**
 * Names that look like they hold a secret (a token, a password, a key, a
 * cookie, a session): their values never appear in a report.
 *
 * @example
 * looksSecret('access_token') // true
 * looksSecret('tag') // false
 */
export function looksSecret(name: string): boolean {
  return /pass(word|wd)?|secret|token|api[-_]?key|^key$|auth|cookie|session|credential|private|signature|^sig$/i.test(
    name,
  )
}

/**
 * The path and query a report shows: query values under secret-looking
 * names (`?access_token=…`) replaced by `[redacted]`.
 *
 * @example
 * shownPath({ path: '/plants', query: 'limit=2&api_key=abc' }) // '/plants?limit=2&api_key=[redacted]'
 */
export function shownPath({ path, query }: Pick<ReplayExchange, 'path' | 'query'>): string {
  if (query === '') return path
  const shown = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const name = equals === -1 ? pair : pair.slice(0, equals)
      let decoded = name
      try {
        decoded = decodeURIComponent(name)
      } catch {}
      return equals !== -1 && looksSecret(decoded) ? `${name}=[redacted]` : pair
    })
    .join('&')
  return `${path}?${shown}`
}
