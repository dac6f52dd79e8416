/**
 * Each operation of the Plant Store contract as one well-formed request, read
 * from `contracts/openapi.yaml` (through the one reader, `src/core/openapi.ts`):
 * its path with every parameter filled in, the request body's `example` when
 * it takes one, the scope it needs and the one success status it declares.
 * What tests that hold every operation to the same rules vary (the hostile
 * corpus, the operations test), so a new operation is among them by itself.
 */

import { type OperationId, writesPlants } from '../../src/core/core.ts'
import { operationsOf, type RequestBodyObject, resolve } from '../../src/core/openapi.ts'
import { contractDocument } from '../../src/generated/contract-document.ts'

export interface OperationRequest {
  readonly operationId: OperationId
  /** Upper case: `DELETE`. */
  readonly method: string
  /** The contract's path template: `/plants/{id}`. */
  readonly path: string
  /** The path as sent, every `{param}` filled with the id given. */
  readonly target: string
  /** Whether the path has a parameter (a plant's id). */
  readonly takesId: boolean
  /** The request body's example as JSON, for an operation that takes a body. */
  readonly body: string | undefined
  /** Whether it needs `plants:write`. */
  readonly writes: boolean
  /** The one 2xx status it declares. */
  readonly success: number
}

const document = contractDocument as unknown as Parameters<typeof operationsOf>[0]

/**
 * Every operation of the contract (HEADs too) as a request, its path ids
 * `id`. Throws, naming the operation, when one takes a body without an
 * `example` or declares no single 2xx status.
 *
 * @example
 * operationRequests(1).map(({ method, target }) => `${method} ${target}`) // ['GET /plants', …, 'DELETE /plants/1']
 */
export function operationRequests(id: number | string = 1): OperationRequest[] {
  return operationsOf(document).map(({ operationId, method, path, operation }) => {
    const name = `${method} ${path} (${operationId}) in contracts/openapi.yaml`
    const [success, ...more] = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status))
    if (success === undefined || more.length > 0) throw new Error(`${name} must declare one 2xx status`)
    let body: string | undefined
    if (operation.requestBody) {
      const example = resolve<RequestBodyObject>(document, operation.requestBody).content['application/json']?.example
      if (example === undefined) {
        throw new Error(`${name} takes a body: give its application/json content an example (tests send it)`)
      }
      body = JSON.stringify(example)
    }
    return {
      operationId: operationId as OperationId,
      method,
      path,
      target: path.replaceAll(/\{\w+\}/g, String(id)),
      takesId: path.includes('{'),
      body,
      writes: writesPlants(operationId as OperationId),
      success: Number(success),
    }
  })
}
