/**
 * The operations the core answers, by operationId: one file each
 * (`<operation-id>.ts`), holding what the operation means everywhere: its
 * handler, and how its answers read back (replay, `worldFromHar`, the pact
 * recorder, provider states, conformance's clean-up). Routing, auth, the
 * checks of its inputs and the Error rendering are the core's
 * (`src/core/core.ts`), from the contract.
 */
import { addPlant } from './add-plant.ts'
import { deletePlant } from './delete-plant.ts'
import { listPlants } from './list-plants.ts'
import type { OperationDescriptors } from './operation.ts'

export type {
  CoreOperationId,
  DeclaredStatus,
  Evidence,
  NotSure,
  Operation,
  OperationDefinition,
  OperationDescriptor,
  OperationId,
  OwnStatus,
  ReadBackAnswer,
  ReadBacks,
  RecordedAnswer,
  RecordedRequest,
  Trace,
} from './operation.ts'
export { coreStatuses, defineOperation, notSure, recordedId, successStatus } from './operation.ts'

export const operations: OperationDescriptors = { listPlants, addPlant, deletePlant }
