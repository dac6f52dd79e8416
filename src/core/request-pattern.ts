/**
 * What requests are matched by, as fault rules and journal queries take it:
 * a method the contract has, a path pattern (a literal path or one of the
 * contract's templates), both checked against the core's own routes.
 */

import { closest } from './closest.ts'
import { matchRoute, routes } from './core.ts'
import { quote } from './errors.ts'
import { lazy, z } from './zod.ts'

/** The contract's path templates, e.g. `/plants/{id}`: a pattern with a `{param}` must be one of them. */
export const pathTemplates: readonly string[] = routes.map(({ path }) => path)

/** The methods the contract has on any path, e.g. `GET, HEAD, POST, DELETE`. */
const contractMethods: readonly string[] = [...new Set(routes.flatMap(({ methods }) => [...methods.keys()]))]
const methodMessage = `must be one of ${contractMethods.join(', ')}`

/**
 * An HTTP method to match requests by, in any case, one the contract has;
 * answered in upper case. What fault rules take: a rule for another method
 * could never fire.
 *
 * @example
 * methodSchema.parse('delete') // 'DELETE'
 */
export const methodSchema = lazy(() =>
  z
    .pipe(
      z.string({ error: methodMessage }),
      z.transform((method: string) => method.toUpperCase()),
    )
    .check(z.refine((method) => contractMethods.includes(method), { error: methodMessage })),
)

/** The longest method name a journal query takes (Node's longest is 11 characters). */
const maxMethodLength = 32
const anyMethodMessage = `must be an HTTP method such as GET, PUT or PATCH: letters and "-", at most ${maxMethodLength} characters`

/**
 * Any HTTP method, in any case, answered in upper case: what journal queries
 * take, since the journal keeps requests whatever their method (a `PUT` is
 * journaled as a 405). Letters and `-` (`M-SEARCH`), at most 32 characters.
 *
 * @example
 * anyMethodSchema.parse('put') // 'PUT'
 */
export const anyMethodSchema = lazy(() =>
  z.pipe(
    z
      .string({ error: anyMethodMessage })
      .check(
        z.maxLength(maxMethodLength, { error: anyMethodMessage }),
        z.regex(/^[A-Za-z][A-Za-z-]*$/, { error: anyMethodMessage }),
      ),
    z.transform((method: string) => method.toUpperCase()),
  ),
)

const patternMessage = `must be a path such as /plants/42, or one of the contract's templates: ${pathTemplates.join(', ')}`

/** The longest pattern taken. */
const maxPatternLength = 256

/**
 * The contract route a pattern of {@link pathPatternSchema} stands for: a
 * template's own route, or the route a literal path is routed to;
 * `undefined` when the contract has none.
 *
 * @example
 * routeOfPattern('/plants/42')?.path // '/plants/{id}'
 */
export function routeOfPattern(pattern: string): (typeof routes)[number] | undefined {
  if (pattern.includes('{')) return routes.find(({ path }) => path === pattern)
  // msw's and Express's `:param` is not a path anyone sends: never a literal to match.
  if (/\/:/.test(pattern) || !/^\/[^\s?#{}]*$/.test(pattern)) return undefined
  return matchRoute(pattern)?.route
}

/**
 * Why a pattern is not one of the contract's paths, with a hint where one
 * helps (`/plants/:id` → `/plants/{id}`, `/plant` → `/plants`); `undefined`
 * for a good pattern.
 */
function patternProblem(pattern: string): string | undefined {
  if (pattern.length <= maxPatternLength && routeOfPattern(pattern)) return undefined
  const template = pattern.replaceAll(/:(\w+)/g, '{$1}')
  const hint = pathTemplates.includes(template) ? template : closest(pattern, pathTemplates)
  return hint ? `${patternMessage} (did you mean ${quote(hint)}?)` : patternMessage
}

/**
 * A path to match requests by: a literal path as sent (`/plants/42`), or one
 * of the contract's templates (`/plants/{id}`), which matches every path the
 * core routes to it. At most 256 characters. What journal queries take: the
 * journal also keeps requests to paths the contract lacks.
 *
 * @example
 * pathPatternSchema.parse('/plants/{id}') // '/plants/{id}'
 */
export const pathPatternSchema = lazy(() =>
  z.string({ error: patternMessage }).check(
    z.maxLength(maxPatternLength, { error: patternMessage }),
    z.refine((pattern) => (pattern.includes('{') ? pathTemplates.includes(pattern) : /^\/[^\s?#{}]*$/.test(pattern)), {
      error: patternMessage,
    }),
  ),
)

/**
 * A {@link pathPatternSchema} pattern that the contract routes: one of its
 * templates, or a literal path routed to one (`/plants/42`). What fault
 * rules take, since a rule for any other path could never fire; refused
 * with a hint where one helps: `/plants/:id` (msw's and Express's syntax) →
 * `/plants/{id}`, `/plant` → `/plants`.
 *
 * @example
 * contractPathSchema.parse('/plants/42') // '/plants/42'
 * contractPathSchema.parse('/plants/:id') // throws: … (did you mean "/plants/{id}"?)
 */
export const contractPathSchema = lazy(() =>
  z.string({ error: patternMessage }).check(
    z.superRefine((pattern, context) => {
      const problem = patternProblem(pattern)
      if (problem) context.addIssue({ code: 'custom', message: problem })
    }),
  ),
)

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
