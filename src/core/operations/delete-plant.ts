import { errorStatus, PlantStoreError } from '../errors.ts'
import { noContent } from '../http.ts'
import type { StoredPlant } from '../schemas.ts'
import { defineOperation, notSure, recordedId, successStatus } from './operation.ts'

/**
 * `DELETE /plants/{id}`: removes the plant with this id from the caller's
 * tenant; 404 when the tenant has none (whether or not another tenant has it).
 */
export const deletePlant = defineOperation<'deletePlant'>({
  handle(store, principal, { path: { id } }, _request, trace) {
    const deleted = (plant: StoredPlant | undefined) => {
      trace.plant = plant
      if (!plant) throw new PlantStoreError('not_found', `No plant with id ${id} exists.`)
      return noContent
    }
    return store.deletePlant(principal.tenantId, id).then(deleted)
  },
  readBacks: {
    204({ request }) {
      const id = recordedId(request.path.id)
      if (id === undefined) return notSure('the path id is not an integer')
      return [
        { kind: 'exists', id, otherwise: errorStatus.not_found },
        { kind: 'wrote', id, plant: undefined },
      ]
    },
    404({ request }) {
      const id = recordedId(request.path.id)
      if (id === undefined) return notSure('the path id is not an integer')
      return [{ kind: 'missing', id, otherwise: successStatus('deletePlant') }]
    },
  },
})
