// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.

/**
 * The core's operations by operationId, one file each: `src/core/operations/<operation-id>.ts`
 * exports the operation's descriptor (step 2 of docs/maintainers/adding-an-operation.md). A missing file fails
 * `npm run check` on its import below: create it there.
 */
import type { OperationDescriptors } from '../core/operations/operation.ts'
import { listPlants } from '../core/operations/list-plants.ts' // step 2 of docs/maintainers/adding-an-operation.md: its descriptor
import { addPlant } from '../core/operations/add-plant.ts' // step 2 of docs/maintainers/adding-an-operation.md: its descriptor
import { deletePlant } from '../core/operations/delete-plant.ts' // step 2 of docs/maintainers/adding-an-operation.md: its descriptor

export const operations: OperationDescriptors = { listPlants, addPlant, deletePlant }
