import type { contract } from '../../generated/contract.ts'
import { contractAnswers } from '../../generated/contract-answers.ts'
import type { operations as contractOperations } from '../../generated/openapi.ts'
import type { CoreRequest, CoreResponse } from '../http.ts'
import type { Inputs } from '../inputs.ts'
import type { HeadOperationId } from '../router.ts'
import type { StoredPlant } from '../schemas.ts'
import type { PlantStore, Principal } from '../store.ts'
import type { TenantMemory } from '../tenant-memory.ts'

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
 * - `listed`: the answer's body is the tenant's plants in order, from
 *   position `skip` of its list (absent: 0, the first), at most `cut` of them
 *   (absent: all the rest): the slice its operation's `defineSlicing` reads
 *   from the request (`slice.ts`);
 * - `room` / `full`: the tenant had room for one more plant / held its quota;
 * - `wrote`: after it, the plant with this `id` is `plant`, or (`undefined`)
 *   there is none: the generic change every persistence layer applies;
 * - `remembers`: before the request, the tenant remembered (at least)
 *   `memory` (`src/core/tenant-memory.ts`: an answer a rule with memory gives,
 *   e.g. `{ deleted: [3] }`); replay and `worldFromHar` put it in the
 *   tenant's memory, the pact recorder names `the tenant remembers {memory}`.
 */
export type Evidence =
  | {
      readonly kind: 'exists'
      readonly id: number
      readonly otherwise: number
      /** What the answer shows the plant was before the request, field by field (a partial update's fields it did not send; `tag: null`: it had none). */
      readonly was?: { readonly name?: string; readonly tag?: string | null } | undefined
    }
  | { readonly kind: 'missing'; readonly id: number; readonly otherwise: number }
  | {
      readonly kind: 'listed'
      readonly plants: unknown
      readonly skip?: number | undefined
      readonly cut?: number | undefined
    }
  | { readonly kind: 'room' }
  | { readonly kind: 'full' }
  | { readonly kind: 'wrote'; readonly id: number; readonly plant: StoredPlant | undefined }
  | { readonly kind: 'remembers'; readonly memory: TenantMemory; readonly otherwise: number }

/**
 * Every status the contract declares for an operation (from the generated
 * types: a status added to the contract is a key here at once).
 */
export type DeclaredStatus<Id extends CoreOperationId> = keyof contractOperations[Id]['responses'] & number

/**
 * The statuses the core answers for any operation before or instead of
 * running it (its inputs, auth, body size and type, storage): they say
 * nothing of the tenant's plants, so no operation reads them back.
 */
export const coreStatuses = [400, 401, 403, 413, 415, 503] as const

/** A status the operation answers itself: each one it declares, but {@link coreStatuses}. */
export type OwnStatus<Id extends CoreOperationId> = Exclude<DeclaredStatus<Id>, (typeof coreStatuses)[number]>

/** A recorded answer to read back: its status, the request, and the JSON body (`undefined` when none). */
export interface RecordedAnswer {
  readonly status: number
  readonly request: RecordedRequest
  readonly body: unknown
}

/**
 * Why an answer says nothing sure after all (an id that is not one, a body
 * that is not the contract's, a parameter nothing reads back): the one way
 * for an answer the operation gives itself to say nothing, and it must say why.
 *
 * @example
 * if (id === undefined) return notSure('the path id is not an integer')
 */
export interface NotSure {
  readonly notSure: string
}

/** @example return notSure('the path id is not an integer') */
export function notSure(why: string): NotSure {
  return { notSure: why }
}

/** What one of an operation's own answers says: at least one {@link Evidence}, or why nothing. */
export type ReadBackAnswer = readonly [Evidence, ...Evidence[]] | NotSure

/**
 * How each status the operation answers itself reads back: one entry per
 * {@link OwnStatus} of the contract, each answering evidence or a reason.
 * A status the contract gains is a missing key (`tsc` fails in the
 * operation's file), and no entry can answer nothing without saying why.
 */
export type ReadBacks<Id extends CoreOperationId> = {
  readonly [Status in OwnStatus<Id>]: (answer: RecordedAnswer) => ReadBackAnswer
}

/** What an operation's file writes: its handler and its {@link ReadBacks}; see {@link defineOperation}. */
export interface OperationDefinition<Id extends CoreOperationId> {
  readonly handle: Operation<Id>
  readonly readBacks: ReadBacks<Id>
}

/**
 * Everything an operation means, in its own file (`<operation-id>.ts`): its
 * handler, and how a recorded answer of it reads back ({@link Evidence}).
 * Every layer that needs to know what an operation did (replay,
 * `worldFromHar`, the pact recorder and provider states, conformance's
 * clean-up) calls `readBack`, so none can miss one; the table of them
 * lists every operation of the contract.
 */
export interface OperationDescriptor<Id extends CoreOperationId> extends OperationDefinition<Id> {
  /**
   * What an answer with this status (and JSON body, when it has one) says of
   * the caller's tenant, for a request that passed auth; `[]`: nothing sure
   * (a status of the core's, one the operation does not declare, or an
   * entry's {@link NotSure}).
   */
  readBack(answer: RecordedAnswer): readonly Evidence[]
}

/**
 * An operation's descriptor from its definition: `readBack` answers each
 * own status from its entry of `readBacks`, anything else nothing.
 *
 * @example
 * export const deletePlant = defineOperation<'deletePlant'>({
 *   handle: (store, principal, { path: { id } }) => …,
 *   readBacks: { 204: ({ request }) => …, 404: ({ request }) => … },
 * })
 */
export function defineOperation<Id extends CoreOperationId>(
  definition: OperationDefinition<Id>,
): OperationDescriptor<Id> {
  const entries: Readonly<Record<number, (answer: RecordedAnswer) => ReadBackAnswer>> = definition.readBacks
  return {
    ...definition,
    readBack(answer) {
      const entry = Object.hasOwn(entries, answer.status) ? entries[answer.status] : undefined
      const read = entry?.(answer)
      return read === undefined || 'notSure' in read ? [] : read
    },
  }
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
