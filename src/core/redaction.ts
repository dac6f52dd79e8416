/**
 * What `recordMswPact` writes instead of a credential it did not inject
 * itself: pacts are committed and published to brokers, so a token, a
 * password, a cookie or an API key sent by the code under test never
 * reaches one.
 */

/**
 * The bearer token a recorded request sends instead of one the mock did
 * not accept (unknown or expired): a value no provider issues, so it is
 * refused with the same 401 at verification. It matches the bearer syntax
 * of RFC 6750, so the provider reads it as a token (`invalid_token`), not as
 * a malformed header.
 *
 * @example
 * `Bearer ${redactedToken}` // what a pact sends for `Bearer psm_leaked…`
 */
export const redactedToken = 'redacted-by-plant-store-mock'

/** What a redacted value (a query parameter, a body field, a cookie, another scheme's credentials) becomes. */
export const redactedValue = 'redacted'

/** The words of a name that mark its value as a secret, whatever the separators or case. */
const secretWords = new Set([
  'key',
  'apikey',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'cookie',
  'session',
  'sessionid',
  'signature',
  'sig',
  'jwt',
  'otp',
])

/** Names whose value is a secret even when written as one word: `apiKey`, `client_secret`, `X-Auth-Token`. */
const secretSuffix =
  /((api|access|secret|private|auth|session|client|signing|master)key|token|password|passwd|secret|credentials?|cookie|signature)$/

/**
 * Whether a query parameter, header or body field with this name carries a
 * secret: `api_key`, `token`, `access_token`, `password`, `client_secret`,
 * `X-Api-Key`, `sessionId`… but not `limit`, `name` or `tag`.
 *
 * @example
 * isSecretName('api_key') // true
 * isSecretName('limit') // false
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
  if (words.some((word) => secretWords.has(word))) return true
  const last = words.at(-1)
  return last !== undefined && last.length > 3 && secretSuffix.test(last)
}

/**
 * An `Authorization` value as a pact may carry it: a bearer token the mock
 * accepted stays (the mock's own token, sent by provider-state injection or
 * for the fixture world), any other bearer token becomes
 * {@link redactedToken}, and any other scheme keeps only its name.
 *
 * @example
 * redactedAuthorization('Bearer psm_leaked', () => false) // 'Bearer redacted-by-plant-store-mock'
 * redactedAuthorization('Basic YWxpY2U6aHVudGVyMg==', () => false) // 'Basic redacted'
 */
export function redactedAuthorization(value: string, accepted: (token: string) => boolean): string {
  const [scheme = '', ...rest] = value.trim().split(/ +/)
  const credentials = rest.join(' ')
  if (/^bearer$/i.test(scheme))
    return credentials !== '' && accepted(credentials) ? value : `${scheme} ${redactedToken}`
  return credentials === '' ? redactedValue : `${scheme} ${redactedValue}`
}

/**
 * A `Cookie` (or `Set-Cookie`) value with every cookie's value redacted,
 * its names (and a `Set-Cookie`'s attributes) kept.
 *
 * @example
 * redactedCookie('sid=abc; theme=dark') // 'sid=redacted; theme=redacted'
 */
export function redactedCookie(value: string, setCookie = false): string {
  const parts = value.split(';')
  return parts
    .map((part, index) => {
      if (setCookie && index > 0) return part
      const at = part.indexOf('=')
      return at === -1 ? part : `${part.slice(0, at)}=${redactedValue}`
    })
    .join(';')
}

/**
 * A header's value as a pact may carry it: `Authorization` as
 * {@link redactedAuthorization} says, cookies redacted, any header whose
 * name looks secret (`X-Api-Key`) redacted; others as they are.
 */
export function redactedHeader(name: string, value: string, accepted: (token: string) => boolean): string {
  const lower = name.toLowerCase()
  if (lower === 'authorization' || lower === 'proxy-authorization') return redactedAuthorization(value, accepted)
  if (lower === 'cookie') return redactedCookie(value)
  if (lower === 'set-cookie') return redactedCookie(value, true)
  return isSecretName(lower) ? redactedValue : value
}

/**
 * A URL's query parameters with every secret-looking one's value redacted.
 *
 * @example
 * redactedSearch(new URLSearchParams('limit=2&api_key=k1')).toString() // 'limit=2&api_key=redacted'
 */
export function redactedSearch(params: URLSearchParams): URLSearchParams {
  const redacted = new URLSearchParams()
  for (const [name, value] of params) redacted.append(name, isSecretName(name) ? redactedValue : value)
  return redacted
}

/**
 * A JSON value with the value of every secret-looking field redacted, at
 * any depth.
 *
 * @example
 * redactedJson({ username: 'ann', password: 'hunter2' }) // { username: 'ann', password: 'redacted' }
 */
export function redactedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactedJson)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, isSecretName(name) ? redactedValue : redactedJson(field)]),
  )
}

/**
 * A body as a pact may carry it: JSON and form fields redacted by name; a
 * text body of another type redacted whole when it names a secret field
 * (`password=…` in a body not declared as a form).
 */
export function redactedBodyText(text: string, contentType: string): string {
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    return redactedSearch(new URLSearchParams(text)).toString()
  }
  const secretField = /(^|[\s&;,{"'])[\w.-]*(key|token|password|passwd|secret|credentials?)["']?\s*[=:]/i
  return secretField.test(text) ? redactedValue : text
}

/**
 * A cheap first look: text that may name a secret field (any word of
 * {@link secretWords} or the suffixes of {@link isSecretName}). Text
 * without one (most plants, most queries) is kept as it is, never parsed.
 */
const secretHint = /key|token|pass|pwd|secret|credential|auth|cookie|session|sig|jwt|otp/i

/**
 * A raw query string (without `?`) with the value of every secret-looking
 * parameter replaced by {@link redactedValue}; every other parameter kept
 * byte for byte, as sent.
 *
 * @example
 * redactedQuery('limit=2&api_key=k1') // 'limit=2&api_key=redacted'
 */
export function redactedQuery(query: string): string {
  if (!secretHint.test(query)) return query
  return query
    .split('&')
    .map((part) => {
      const at = part.indexOf('=')
      const rawName = at === -1 ? part : part.slice(0, at)
      let name = rawName
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '))
      } catch {} // a malformed escape: judged as written
      return isSecretName(name) ? `${rawName}=${redactedValue}` : part
    })
    .join('&')
}

/**
 * A URL as sent (a path and maybe a query) with its query's secrets
 * redacted ({@link redactedQuery}).
 *
 * @example
 * redactedUrl('/plants?access_token=t1&limit=2') // '/plants?access_token=redacted&limit=2'
 */
export function redactedUrl(url: string): string {
  const at = url.indexOf('?')
  return at === -1 ? url : `${url.slice(0, at + 1)}${redactedQuery(url.slice(at + 1))}`
}

/**
 * A body's text as a shared record may keep it (the sandbox's journal): a
 * JSON body with every secret-looking field's value redacted at any depth
 * (as {@link redactedJson}), any other as {@link redactedBodyText} says.
 * Text that names no secret is returned as it is.
 *
 * @example
 * redactedBody('{"name":"Fern","password":"hunter2"}', 'application/json') // '{"name":"Fern","password":"redacted"}'
 */
export function redactedBody(text: string, contentType: string): string {
  if (!secretHint.test(text)) return text
  if (/^application\/(.+\+)?json/i.test(contentType)) {
    try {
      const value: unknown = JSON.parse(text)
      const redacted = redactedJson(value)
      const redactedText = JSON.stringify(redacted)
      return redactedText === JSON.stringify(value) ? text : redactedText
    } catch {
      // Not JSON after all (or cut short): judged as text.
    }
  }
  return redactedBodyText(text, contentType)
}
