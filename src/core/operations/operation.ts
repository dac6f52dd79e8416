import type { contract } from '../../generated/contract.ts'
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

/** Every operation the core answers, by operationId: the type lists each of the contract, so a missing one fails `tsc`. */
export type Operations = { readonly [Id in CoreOperationId]: Operation<Id> }
