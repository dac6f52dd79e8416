import type { contract } from '../../generated/contract.ts'
import { contractAnswers } from '../../generated/contract-answers.ts'
import type { CoreRequest, CoreResponse } from '../http.ts'
import type { Inputs } from '../inputs.ts'
import type { HeadOperationId } from '../router.ts'
import type { StoredPlant } from '../schemas.ts'
import type { PlantStore, Principal } from '../store.ts'

/** The id of an operation of the contract, e.g. `listPlants`. */
export type OperationId = keyof typeof contract.operations

/** The operations the core answers itself: every one of the contract but its HEADs, which the router derives from GET. */
export type CoreOperationId = Exclude<OperationId, HeadOperationId<typeof contract.operations>>

/** What an operation learns while it runs, for the core's `Outcome`. */
export interface Trace {
  operation?: OperationId
  principal?: Principal
  requestBody?: Uint8Array
  plant?: StoredPlant
}

/**
 * An operation: what its inputs mean, and nothing else. Its inputs come
 * checked against the contract (`src/core/inputs.ts`): parameters by place
 * and name, typed by their schemas, and the body, parsed; an operation never
 * checks a value again. One file each, named after its operationId
 * (`list-plants.ts`): what is the operation's own lives there.
 */
export type Operation<Id extends CoreOperationId> = (
  store: PlantStore,
  principal: Principal,
  inputs: Inputs<Id>,
  request: CoreRequest,
  trace: Trace,
) => CoreResponse | Promise<CoreResponse>

/**
 * A request as a recording holds it, for reading back what its answer says:
 * raw text, since a recorded request may be anything.
 */
export interface RecordedRequest {
  /** The path's parameters by name, as sent (still percent-encoded). */
  readonly path: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  /** The JSON body, `undefined` when there is none or it is not JSON. */
  readonly body: unknown
}

/**
 * What one answer of an operation says of the caller's tenant's plants. Read
 * back by replay and `worldFromHar` (the state the answer implies), the pact
 * recorder (the provider states it names), and conformance's clean-up (what a
 * run left behind):
 *
 * - `exists` / `missing`: before the request, a plant with this `id` was
 *   there / was not (`otherwise`: the status the operation answers when it
 *   is not so, for a report);
 * - `listed`: the answer's body is the tenant's plants in order (`cut`: only
 *   the first ones, at most `cut`);
 * - `room` / `full`: the tenant had room for one more plant / held its quota;
 * - `wrote`: after it, the plant with this `id` is `plant`, or (`undefined`)
 *   there is none: the generic change every persistence layer applies.
 */
export type Evidence =
  | { readonly kind: 'exists'; readonly id: number; readonly otherwise: number }
  | { readonly kind: 'missing'; readonly id: number; readonly otherwise: number }
  | { readonly kind: 'listed'; readonly plants: unknown; readonly cut?: number | undefined }
  | { readonly kind: 'room' }
  | { readonly kind: 'full' }
  | { readonly kind: 'wrote'; readonly id: number; readonly plant: StoredPlant | undefined }

/**
 * Everything an operation means, in its own file (`<operation-id>.ts`): its
 * handler, and how a recorded answer of it reads back ({@link Evidence}).
 * Every layer that needs to know what an operation did iterates these (the
 * type lists every operation of the contract), so none can miss one.
 *
 * @example
 * export const deletePlant: OperationDescriptor<'deletePlant'> = {
 *   handle: (store, principal, { path: { id } }) => …,
 *   readBack: ({ status, request }) => …,
 * }
 */
export interface OperationDescriptor<Id extends CoreOperationId> {
  readonly handle: Operation<Id>
  /**
   * What an answer with this status (and JSON body, when it has one) says of
   * the caller's tenant, for a request that passed auth; `[]`: nothing sure.
   * A status the operation does not declare, or a parameter it does not read
   * back, must say nothing.
   */
  readBack(answer: {
    readonly status: number
    readonly request: RecordedRequest
    readonly body: unknown
  }): readonly Evidence[]
}

/** Every operation the core answers, by operationId, as its descriptor: a missing one fails `tsc`. */
export type OperationDescriptors = { readonly [Id in CoreOperationId]: OperationDescriptor<Id> }

/**
 * A whole id as a recording sends it (in a path or a JSON body): an integer
 * JavaScript represents exactly, else `undefined`.
 *
 * @example
 * recordedId('42') // 42
 * recordedId(7) // 7
 * recordedId('4x') // undefined
 */
export function recordedId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value
  return typeof id === 'number' && Number.isSafeInteger(id) ? id || 0 : undefined
}

/**
 * The one success status the contract declares for an operation.
 *
 * @example
 * successStatus('deletePlant') // 204
 */
export function successStatus(operation: CoreOperationId): number {
  const status = contractAnswers.operations[operation].statuses.find((code) => code >= 200 && code < 300)
  if (status === undefined) throw new Error(`The contract declares no success status for ${operation}.`)
  return status
}
