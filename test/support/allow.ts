/**
 * What the contracts say a 405 answers, for tests: the `Allow` of a path, and
 * the methods a path lacks. Derived from the generated contracts, never
 * written by hand, so a new operation changes the tables by itself.
 */
import { contract } from '../../src/generated/contract.ts'
import { sandboxContract } from '../../src/generated/sandbox-contract.ts'

/** Every operation of both contracts: the Plant Store's and the sandbox control API's. */
const operations = [...Object.values(contract.operations), ...Object.values(sandboxContract.operations)]

/** The methods a wrong-method test tries (a HEAD's 405 has no body to check). */
export const probedMethods = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'] as const

/** The Plant Store API's paths (`/plants`, `/plants/{id}`). */
export const plantStorePaths: readonly string[] = [
  ...new Set(Object.values(contract.operations).map(({ path }) => path)),
]

/** Every path of both contracts, as clients call them (`/plants/{id}`, `/__sandbox/faults`). */
export const contractPaths: readonly string[] = [...new Set(operations.map(({ path }) => path))]

/**
 * The `Allow` of a contract path: its methods in contract order, HEAD right
 * after GET whether the contract declares it or not (HEAD is derived from GET).
 *
 * @example
 * allowOf('/plants') // 'GET, HEAD, POST'
 */
export function allowOf(path: string): string {
  const methods: string[] = []
  for (const operation of operations) {
    if (operation.path !== path || operation.method === 'HEAD') continue
    methods.push(operation.method)
    if (operation.method === 'GET') methods.push('HEAD')
  }
  if (methods.length === 0) throw new Error(`No contract has the path ${path}.`)
  return methods.join(', ')
}

/**
 * Each path of both contracts with each probed method it lacks, and the
 * `Allow` its 405 names; `{…}` parameters filled with `id`.
 *
 * @example
 * wrongMethodCases('1') // [['PUT', '/plants', 'GET, HEAD, POST'], …]
 */
export function wrongMethodCases(id: string, paths = contractPaths): Array<[string, string, string]> {
  return paths.flatMap((path) => {
    const allow = allowOf(path)
    const has = allow.split(', ')
    return probedMethods
      .filter((method) => !has.includes(method))
      .map((method): [string, string, string] => [method, path.replaceAll(/\{\w+\}/g, id), allow])
  })
}
