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
 * {@link templatePattern}.
 *
 * @example
 * templateOf(['/plants', '/plants/{id}'], '/plants/7') // '/plants/{id}'
 */
export function templateOf(
  templates: Iterable<string>,
  path: string,
  options: { trailingSlash?: boolean } = {},
): string | undefined {
  for (const template of templates) if (templatePattern(template, options).test(path)) return template
  return undefined
}
