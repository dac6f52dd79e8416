/**
 * The sandbox contract's schemas that restate the Plant Store's routes (the
 * methods a fault rule may name, which method goes with which path, the
 * templates a journal query takes), filled in from `contracts/openapi.yaml`
 * by `npm run generate`, so that adding an operation to the Plant Store
 * contract changes them by itself. In `contracts/sandbox.openapi.yaml` such
 * a schema carries `x-plant-store-routes: <what>`; the generated document
 * (what `GET /__sandbox/openapi.json` serves) has the keywords instead. The
 * routes are the core's own router's (`src/core/router.ts`: HEAD wherever
 * GET is), the ones the sandbox checks fault rules against.
 */
import { type OpenApiDocument, operationsOf } from '../src/core/openapi.ts'
import { ContractRouter, type Route } from '../src/core/router.ts'

/** What a `x-plant-store-routes` marker asks for. */
export type RoutesMarker = 'methods' | 'methods-any-case' | 'templates' | 'routed-paths' | 'methods-by-path'

const marker = 'x-plant-store-routes'

/** A literal part of a path, escaped for a regular expression. */
const escaped = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\/]/g, (char) => (char === '/' ? '/' : `\\${char}`))

/** `GET` → `[Gg][Ee][Tt]`: a method in any case. */
const anyCase = (method: string) =>
  [...method].map((char) => (/[A-Za-z]/.test(char) ? `[${char.toUpperCase()}${char.toLowerCase()}]` : char)).join('')

const either = (alternatives: readonly string[]) => `^(?:${alternatives.join('|')})$`

/**
 * A request path routed to a template, as fault rules take it: the template
 * itself, or a literal path with each `{param}` one segment (not starting
 * with `:`, msw's and Express's syntax, and without spaces, `?`, `#`, `{`,
 * `}`); a template without parameters also with one trailing slash.
 */
function routedPaths(path: string): string[] {
  const literal = path
    .split(/(\{[^}]+\})/)
    .map((part, index) => (index % 2 === 0 ? escaped(part) : '[^/\\s?#{}:][^/\\s?#{}]*'))
    .join('')
  return path.includes('{') ? [escaped(path), literal] : [`${literal}/?`]
}

/** Any path the router sends to this route (each `{param}` one whole segment): what an `if` tells a path by. */
function routePattern(path: string): string {
  const parts = path.split(/(\{[^}]+\})/).map((part, index) => (index % 2 === 0 ? escaped(part) : '[^/]+'))
  return `^${parts.join('')}${path.includes('{') ? '' : '/?'}$`
}

/** The keywords each marker stands for, from the routes. */
function keywords(what: RoutesMarker, routes: readonly Route<string>[]): Record<string, unknown> | unknown[] {
  const methods = [...new Set(routes.flatMap(({ methods: byMethod }) => [...byMethod.keys()]))]
  switch (what) {
    case 'methods':
      return { enum: methods }
    case 'methods-any-case':
      return { pattern: either(methods.map(anyCase)) }
    case 'templates':
      return { enum: routes.map(({ path }) => path) }
    case 'routed-paths':
      return { pattern: either(routes.flatMap(({ path }) => routedPaths(path))) }
    case 'methods-by-path':
      // Items of the enclosing allOf: with both method and path, the method is one the path has.
      return routes.map(({ path, methods: byMethod }) => ({
        if: { required: ['method', 'path'], properties: { path: { pattern: routePattern(path) } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's then keyword, data that is never awaited
        then: { properties: { method: { pattern: either([...byMethod.keys()].map(anyCase)) } } },
      }))
  }
}

/**
 * The sandbox contract with every `x-plant-store-routes` marker replaced by
 * the keywords it stands for, derived from the Plant Store contract's operations; a
 * `methods-by-path` marker is an item of an `allOf` and becomes one `if`/`then`
 * item per path. An unknown marker is an error naming it.
 *
 * @example
 * fillPlantStoreRoutes({ type: 'string', 'x-plant-store-routes': 'methods' }, plantStoreDocument)
 * // { type: 'string', enum: ['GET', 'HEAD', 'POST', 'DELETE'] }
 */
export function fillPlantStoreRoutes(sandbox: unknown, plantStore: OpenApiDocument): unknown {
  const operations = operationsOf(plantStore).map(({ operationId, method, path }) => [operationId, { method, path }])
  const { routes } = new ContractRouter(Object.fromEntries(operations))
  const known: readonly string[] = ['methods', 'methods-any-case', 'templates', 'routed-paths', 'methods-by-path']
  const markerOf = (node: unknown): RoutesMarker | undefined => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined
    const what = (node as Record<string, unknown>)[marker]
    if (what === undefined) return undefined
    if (typeof what !== 'string' || !known.includes(what)) {
      throw new Error(`contracts/sandbox.openapi.yaml: unknown ${marker}: ${JSON.stringify(what)}`)
    }
    return what as RoutesMarker
  }
  const fill = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      return node.flatMap((item) => {
        if (markerOf(item) !== 'methods-by-path') return [fill(item)]
        return keywords('methods-by-path', routes) as unknown[]
      })
    }
    if (node === null || typeof node !== 'object') return node
    const what = markerOf(node)
    if (what === 'methods-by-path') throw new Error(`${marker}: methods-by-path is an item of an allOf`)
    const { [marker]: _marker, ...rest } = node as Record<string, unknown>
    const filled = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, fill(value)]))
    return what === undefined ? filled : { ...filled, ...(keywords(what, routes) as Record<string, unknown>) }
  }
  return fill(sandbox)
}
