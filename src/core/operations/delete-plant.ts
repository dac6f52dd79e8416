import { PlantStoreError } from '../errors.ts'
import { noContent } from '../http.ts'
import type { StoredPlant } from '../schemas.ts'
import type { Operation } from './operation.ts'

/**
 * `DELETE /plants/{id}`: removes the plant with this id from the caller's
 * tenant; 404 when the tenant has none (whether or not another tenant has it).
 */
export const deletePlant: Operation<'deletePlant'> = (store, principal, { path: { id } }, _request, trace) => {
  const deleted = (plant: StoredPlant | undefined) => {
    trace.plant = plant
    if (!plant) throw new PlantStoreError('not_found', `No plant with id ${id} exists.`)
    return noContent
  }
  return store.deletePlant(principal.tenantId, id).then(deleted)
}
