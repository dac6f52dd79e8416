/**
 * Judges an answer against `contracts/openapi.yaml` with the one contract
 * checker (`src/contract-testing/contract-checker.ts`).
 */
import { type ContractOperation, plantStoreContract } from '../contract-checker.ts'
import type { Answer } from './exchange.ts'

/**
 * What is wrong with an answer according to the contract: `[]` when it
 * matches, one sentence per problem otherwise, `undefined` when the request
 * reaches no operation of the contract.
 *
 * @example
 * contractProblems('POST', '/plants', answer) // ['addPlant declares no status 201 (it declares 200, 400, …)']
 */
export function contractProblems(method: string, path: string, answer: Answer): string[] | undefined {
  return plantStoreContract.problems(method, path, answer)
}

/**
 * The operation of the contract a request reaches, e.g. `DELETE /plants/abc`
 * → `deletePlant`; `undefined` for an unknown path or method, which the
 * contract cannot attach an answer to.
 *
 * @example
 * operationOf('GET', '/plants?limit=2')?.operationId // 'listPlants'
 */
export function operationOf(method: string, path: string): ContractOperation | undefined {
  return plantStoreContract.operationOf(method, path)
}
