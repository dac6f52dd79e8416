import { methodNotAllowed, PlantStoreError, quote } from './errors.ts'
import type { CoreResponse } from './http.ts'
import { normalizePath, templatePattern } from './path-template.ts'
import { utf8Length } from './tenant-plants.ts'

/** An operation as the generated contracts list it: its method and path template. */
export interface RoutedOperation {
  readonly method: string
  readonly path: string
}

/** The ids of a contract's operations that are HEADs (derived from GET, never handled on their own). */
export type HeadOperationId<Operations extends Readonly<Record<string, RoutedOperation>>> = {
  [Id in keyof Operations]: Operations[Id]['method'] extends 'HEAD' ? Id : never
}[keyof Operations] &
  string

/** One path of a contract, with its operations by method. */
export interface Route<Id extends string> {
  /** The contract's path template, e.g. `/plants/{id}`. */
  readonly path: string
  /**
   * Matches a request path (still percent-encoded, below the mount point),
   * capturing each `{param}` by name; a path without parameters also
   * matches with one trailing slash. Compiled once.
   */
  readonly pattern: RegExp
  /** The operation of each method the path has, HEAD included wherever GET is. */
  readonly methods: ReadonlyMap<string, Id>
  /** The `Allow` header of a 405 here: the contract's methods, HEAD right after GET. */
  readonly allow: string
}

/** Where a request goes: its operation and path parameters, and whether its answer's body is dropped (HEAD). */
export interface Dispatch<Id extends string> {
  /** The operation the request is reported under: a HEAD's own when the contract declares one, else its GET's. */
  readonly operation: Id
  /** The operation whose handler answers: a HEAD runs its GET's. */
  readonly handler: Id
  readonly params: Readonly<Record<string, string>>
  /** A HEAD: answer as the GET would, without the body. */
  readonly head: boolean
}

export interface RouterOptions {
  /** Where the paths are mounted, cut from each contract path (`/__sandbox`); none by default. */
  readonly mount?: string
  /** The 404 message for a request no path matches. */
  readonly notFound?: (method: string, path: string) => string
}

/**
 * The one dispatcher of the Plant Store API and the sandbox control API
 * (hono-like): routes compiled once from a contract's generated operations,
 * HEAD derived from GET on every path that has a GET (a HEAD runs the GET's
 * handler and drops the body, keeping its `Content-Length`; a HEAD the
 * contract declares is reported under its own operation id), and one 404 and
 * one 405 with `Allow`, thrown as `PlantStoreError`s for the one renderer.
 *
 * @example
 * const router = new ContractRouter(contract.operations)
 * router.dispatch('HEAD', '/plants') // { operation: 'headPlants', handler: 'listPlants', params: {}, head: true }
 * router.dispatch('PUT', '/plants') // throws 405 with Allow: GET, HEAD, POST
 */
export class ContractRouter<Id extends string> {
  /** The contract's paths in contract order, each with its methods. */
  readonly routes: readonly Route<Id>[]
  /** The GET behind each HEAD operation (declared or derived). */
  readonly #getOf: ReadonlyMap<Id, Id>
  readonly #notFound: (method: string, path: string) => string

  constructor(operations: Readonly<Record<Id, RoutedOperation>>, options: RouterOptions = {}) {
    const mount = options.mount ?? ''
    const byPath = new Map<string, Map<string, Id>>()
    for (const [id, { method, path }] of Object.entries(operations) as Array<[Id, RoutedOperation]>) {
      if (!path.startsWith(mount)) throw new Error(`${method} ${path} is not below ${mount}.`)
      const below = path.slice(mount.length)
      byPath.set(below, (byPath.get(below) ?? new Map<string, Id>()).set(method, id))
    }
    const getOf = new Map<Id, Id>()
    this.routes = [...byPath].map(([path, declared]) => {
      const get = declared.get('GET')
      const head = declared.get('HEAD')
      if (head !== undefined && get === undefined) throw new Error(`HEAD ${mount}${path} has no GET to derive it from.`)
      // HEAD right after GET, whether the contract declares it or not.
      const methods = new Map<string, Id>()
      for (const [method, id] of declared) {
        if (method === 'HEAD') continue
        methods.set(method, id)
        if (method === 'GET') methods.set('HEAD', head ?? id)
      }
      if (get !== undefined) getOf.set(head ?? get, get)
      return {
        path,
        pattern: templatePattern(path, { trailingSlash: true }),
        methods,
        allow: [...methods.keys()].join(', '),
      }
    })
    this.#getOf = getOf
    this.#notFound = options.notFound ?? ((method, path) => `No route for ${quote(`${method} ${path}`, 80)}.`)
  }

  /**
   * The route a request path matches, and its path parameters; `undefined`
   * for a path the contract does not have. The path is read once through
   * `normalizePath`: `/plants/%31` is `/plants/1` (RFC 3986), while `%2F`
   * stays inside its segment.
   *
   * @example
   * router.match('/plants/42') // { route: { path: '/plants/{id}', … }, params: { id: '42' } }
   */
  match(path: string): { route: Route<Id>; params: Record<string, string> } | undefined {
    const normalized = normalizePath(path)
    for (const route of this.routes) {
      const match = route.pattern.exec(normalized)
      if (match) return { route, params: match.groups ?? {} }
    }
    return undefined
  }

  /**
   * Where a request goes; throws `not_found` (404) for an unknown path and
   * `method_not_allowed` (405, with `Allow`) for a method the path lacks.
   */
  dispatch(method: string, path: string): Dispatch<Id> {
    const found = this.match(path)
    if (!found) throw new PlantStoreError('not_found', this.#notFound(method, path))
    const operation = found.route.methods.get(method)
    if (operation === undefined) throw methodNotAllowed(method, found.route.allow)
    const head = method === 'HEAD'
    return {
      operation,
      handler: head ? (this.#getOf.get(operation) ?? operation) : operation,
      params: found.params,
      head,
    }
  }
}

/**
 * A GET's answer as its HEAD: the same status and headers, no body, and the
 * `Content-Length` the body would have had (kept when the answer states it).
 *
 * @example
 * headOf({ status: 200, headers: {}, body: '[]' }) // { status: 200, headers: { 'content-length': '2' }, body: null }
 */
export function headOf(response: CoreResponse): CoreResponse {
  if (response.body === null || response.fault) return response
  const headers =
    'content-length' in response.headers
      ? response.headers
      : { ...response.headers, 'content-length': String(utf8Length(response.body)) }
  return { status: response.status, headers, body: null }
}
