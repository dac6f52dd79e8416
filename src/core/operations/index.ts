/**
 * The operations the core answers, by operationId: one file each
 * (`<operation-id>.ts`), holding what the operation means. Routing, auth,
 * the checks of its inputs and the Error rendering are the core's
 * (`src/core/core.ts`), from the contract.
 */
import { addPlant } from './add-plant.ts'
import { deletePlant } from './delete-plant.ts'
import { listPlants } from './list-plants.ts'
import type { Operations } from './operation.ts'

export type { CoreOperationId, Operation, OperationId, Trace } from './operation.ts'

export const operations: Operations = { listPlants, addPlant, deletePlant }
