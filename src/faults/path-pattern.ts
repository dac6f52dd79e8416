import { z } from 'zod'
import { matchRoute, routes } from '../core/app.ts'

/** The contract's path templates, e.g. `/plants/{id}`: a pattern with a `{param}` must be one of them. */
export const pathTemplates: readonly string[] = routes.map(({ path }) => path)

const patternMessage = `must be a path such as /plants/42, or one of the contract's templates: ${pathTemplates.join(', ')}`

/**
 * A path to match requests by: a literal path as sent (`/plants/42`), or one
 * of the contract's templates (`/plants/{id}`), which matches every path the
 * core routes to it. At most 256 characters.
 *
 * @example
 * pathPatternSchema.parse('/plants/{id}') // '/plants/{id}'
 */
export const pathPatternSchema = z
  .string({ error: patternMessage })
  .max(256, { error: patternMessage })
  .refine((pattern) => (pattern.includes('{') ? pathTemplates.includes(pattern) : /^\/[^\s?#{}]*$/.test(pattern)), {
    error: patternMessage,
  })

/**
 * Whether a request path (still percent-encoded) matches a pattern of
 * {@link pathPatternSchema}: a template by the core's own routing, a literal
 * path exactly.
 *
 * @example
 * pathMatches('/plants/{id}', '/plants/42') // true
 * pathMatches('/plants/42', '/plants/7') // false
 */
export function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes('{')) return pattern === path
  return matchRoute(path)?.route.path === pattern
}
