/**
 * The one matcher of OpenAPI path templates (`/plants/{id}`): the core
 * routes with it, and the contract checkers find an answer's operation with
 * it.
 */

/** Compiled patterns by template and trailing-slash option: templates come from the contracts, never from clients. */
const compiled = new Map<string, RegExp>()

/**
 * The pattern of a path template: matches a request path (still
 * percent-encoded) whose every segment is as written, each `{param}` one
 * whole segment, captured by name. With `trailingSlash`, a template without
 * parameters also matches with one trailing slash (as the core routes).
 *
 * @example
 * templatePattern('/plants/{id}').exec('/plants/42')?.groups // { id: '42' }
 * templatePattern('/plants', { trailingSlash: true }).test('/plants/') // true
 */
export function templatePattern(template: string, { trailingSlash = false } = {}): RegExp {
  const key = `${trailingSlash ? '/' : ''}${template}`
  let pattern = compiled.get(key)
  if (!pattern) {
    const parts = template.split(/(\{[^}]+\})/).map((part, index) => {
      if (index % 2 === 0) return part.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const name = part.slice(1, -1)
      return /^[A-Za-z_]\w*$/.test(name) ? `(?<${name}>[^/]+)` : '[^/]+'
    })
    const slash = trailingSlash && !template.includes('{') ? '/?' : ''
    pattern = new RegExp(`^${parts.join('')}${slash}$`)
    compiled.set(key, pattern)
  }
  return pattern
}

/**
 * The first of these templates a request path matches, e.g. `/plants/7` →
 * `/plants/{id}`; `undefined` when none does. `trailingSlash` as for
 * {@link templatePattern}; the path is read through {@link normalizePath}
 * (`/plants/%31` is `/plants/1`), as the router reads it.
 *
 * @example
 * templateOf(['/plants', '/plants/{id}'], '/plants/7') // '/plants/{id}'
 */
export function templateOf(
  templates: Iterable<string>,
  path: string,
  options: { trailingSlash?: boolean } = {},
): string | undefined {
  const normalized = normalizePath(path)
  for (const template of templates) if (templatePattern(template, options).test(normalized)) return template
  return undefined
}

/** A percent-encoded octet of an unreserved character (RFC 3986 §2.3: letters, digits, `-`, `.`, `_`, `~`). */
const encodedUnreserved = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[dDeE]|5[fF]|7[eE])/g

/**
 * A request path (still percent-encoded) with each percent-encoded
 * unreserved character decoded, once (RFC 3986 §6.2.2.2): `%31` is `1` and
 * `%70lants` is `plants`, as every HTTP server and validator reads them.
 * Nothing else is decoded, so `%2F` inside a segment stays data and never
 * becomes a separator, and `%25` stays a percent sign (decoding twice
 * changes nothing). The router and every adapter's "is it the API's path"
 * test read paths through it, so msw, Playwright's route and the sandbox
 * agree.
 *
 * @example
 * normalizePath('/plants/%31') // '/plants/1'
 * normalizePath('/%70lants') // '/plants'
 * normalizePath('/plants/1%2F2') // '/plants/1%2F2'
 */
export function normalizePath(path: string): string {
  return path.includes('%')
    ? path.replaceAll(encodedUnreserved, (octet) => String.fromCharCode(Number.parseInt(octet.slice(1), 16)))
    : path
}
