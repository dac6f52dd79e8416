/**
 * The operations the core answers, by operationId: one file each
 * (`<operation-id>.ts`), holding what the operation means everywhere: its
 * handler, and how its answers read back (replay, `worldFromHar`, the pact
 * recorder, provider states, conformance's clean-up). Their table is
 * generated from the contract's operationIds (`src/generated/operations.ts`,
 * by `npm run generate`). Routing, auth, the checks of its inputs and the
 * Error rendering are the core's (`src/core/core.ts`), from the contract.
 */

export { operations } from '../../generated/operations.ts'
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
