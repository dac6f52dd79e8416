/**
 * What the contracts say a 405 answers, for tests: the `Allow` of a path, and
 * the methods a path lacks. Derived from the generated contracts through the
 * one router the core and the sandbox dispatch with, never written by hand,
 * so a new operation changes the tables by itself.
 */
import { wrongMethods } from '../../src/contract-testing/conformance/rules/protocol.ts'
import { ContractRouter } from '../../src/core/router.ts'
import { contract } from '../../src/generated/contract.ts'
import { sandboxContract } from '../../src/generated/sandbox-contract.ts'

/** Every path of both contracts, the Plant Store's and the sandbox control API's, as the router sees them. */
const { routes } = new ContractRouter({ ...contract.operations, ...sandboxContract.operations })

/** The Plant Store API's paths (`/plants`, `/plants/{id}`). */
export const plantStorePaths: readonly string[] = [
  ...new Set(Object.values(contract.operations).map(({ path }) => path)),
]

/** Every path of both contracts, as clients call them (`/plants/{id}`, `/__sandbox/faults`). */
export const contractPaths: readonly string[] = routes.map(({ path }) => path)

/**
 * The `Allow` of a contract path: its methods in contract order, HEAD right
 * after GET whether the contract declares it or not (HEAD is derived from GET).
 *
 * @example
 * allowOf('/plants') // 'GET, HEAD, POST'
 */
export function allowOf(path: string): string {
  const route = routes.find((candidate) => candidate.path === path)
  if (!route) throw new Error(`No contract has the path ${path}.`)
  return route.allow
}

/**
 * Each path of both contracts with each probed method it lacks, and the
 * `Allow` its 405 names; `{…}` parameters filled with `id`.
 *
 * @example
 * wrongMethodCases('1') // [['PUT', '/plants', 'GET, HEAD, POST'], …]
 */
export function wrongMethodCases(id: string, paths = contractPaths): Array<[string, string, string]> {
  return wrongMethods(routes)
    .filter(({ path }) => paths.includes(path))
    .map(({ method, path, allow }): [string, string, string] => [method, path.replaceAll(/\{\w+\}/g, id), allow])
}

/**
 * Methods no contract may declare: WebDAV's (RFC 4918), which are not among
 * OpenAPI's (`get`, `put`, `post`, `delete`, `options`, `head`, `patch`,
 * `trace`), so every path of every contract answers them 405 whatever
 * operations are added. What tests send as "a method the contract lacks",
 * never one an operation may take (`PUT`, `PATCH`). Not a made-up token such
 * as `BREW`: Node's HTTP parser knows a fixed list of methods and answers any
 * other 400 before the sandbox sees it.
 *
 * @example
 * fetch(`${base}/plants`, { method: undeclarableMethods[0] }) // 405, Allow: GET, HEAD, POST
 */
export const undeclarableMethods = ['MKCOL', 'PROPPATCH'] as const
