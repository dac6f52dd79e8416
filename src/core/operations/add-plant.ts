import { errorStatus } from '../errors.ts'
import { jsonResponse } from '../http.ts'
import { toPlant } from '../schemas.ts'
import { type OperationDescriptor, recordedId, successStatus } from './operation.ts'

/**
 * `POST /plants`: stores the `NewPlant` in the caller's tenant (its id
 * unique there, within the tenant's quota) and answers it as a `Plant`.
 */
export const addPlant: OperationDescriptor<'addPlant'> = {
  async handle(store, principal, { body }, _request, trace) {
    trace.plant = await store.addPlant(principal.tenantId, body)
    return jsonResponse(200, toPlant(trace.plant))
  },
  readBack({ status, request, body }) {
    const id = recordedId((request.body as { id?: unknown } | undefined)?.id)
    if (status === errorStatus.quota_exceeded) return [{ kind: 'full' }]
    if (id === undefined) return []
    const ok = successStatus('addPlant')
    if (status === errorStatus.conflict) return [{ kind: 'exists', id, otherwise: ok }]
    if (status !== ok) return []
    const { name, tag } = (body ?? {}) as { name?: unknown; tag?: unknown }
    const plant = typeof name === 'string' ? { id, name, ...(typeof tag === 'string' ? { tag } : {}) } : undefined
    return [
      { kind: 'missing', id, otherwise: errorStatus.conflict },
      { kind: 'room' },
      ...(plant ? [{ kind: 'wrote', id, plant } as const] : []),
    ]
  },
}
