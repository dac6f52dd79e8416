import { errorStatus, PlantStoreError } from '../errors.ts'
import { noContent } from '../http.ts'
import type { StoredPlant } from '../schemas.ts'
import { type OperationDescriptor, recordedId, successStatus } from './operation.ts'

/**
 * `DELETE /plants/{id}`: removes the plant with this id from the caller's
 * tenant; 404 when the tenant has none (whether or not another tenant has it).
 */
export const deletePlant: OperationDescriptor<'deletePlant'> = {
  handle(store, principal, { path: { id } }, _request, trace) {
    const deleted = (plant: StoredPlant | undefined) => {
      trace.plant = plant
      if (!plant) throw new PlantStoreError('not_found', `No plant with id ${id} exists.`)
      return noContent
    }
    return store.deletePlant(principal.tenantId, id).then(deleted)
  },
  readBack({ status, request }) {
    const id = recordedId(request.path.id)
    if (id === undefined) return []
    const ok = successStatus('deletePlant')
    if (status === ok)
      return [
        { kind: 'exists', id, otherwise: errorStatus.not_found },
        { kind: 'wrote', id, plant: undefined },
      ]
    if (status === errorStatus.not_found) return [{ kind: 'missing', id, otherwise: ok }]
    return []
  },
}
