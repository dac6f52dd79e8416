import { errorStatus } from '../errors.ts'
import { jsonResponse } from '../http.ts'
import { toPlant } from '../schemas.ts'
import { defineOperation, notSure, recordedId, successStatus } from './operation.ts'

/** The plant id a create sends in its body, if it is one. */
const bodyId = (body: unknown) => recordedId((body as { id?: unknown } | undefined)?.id)

/**
 * `POST /plants`: stores the `NewPlant` in the caller's tenant (its id
 * unique there, within the tenant's quota) and answers it as a `Plant`.
 */
export const addPlant = defineOperation<'addPlant'>({
  async handle(store, principal, { body }, _request, trace) {
    trace.plant = await store.addPlant(principal.tenantId, body)
    return jsonResponse(200, toPlant(trace.plant))
  },
  readBacks: {
    200({ request, body }) {
      const id = bodyId(request.body)
      if (id === undefined) return notSure('the body sends no integer id')
      const { name, tag } = (body ?? {}) as { name?: unknown; tag?: unknown }
      const plant = typeof name === 'string' ? { id, name, ...(typeof tag === 'string' ? { tag } : {}) } : undefined
      return [
        { kind: 'missing', id, otherwise: errorStatus.conflict },
        { kind: 'room' },
        ...(plant ? [{ kind: 'wrote', id, plant } as const] : []),
      ]
    },
    409({ request }) {
      const id = bodyId(request.body)
      if (id === undefined) return notSure('the body sends no integer id')
      return [{ kind: 'exists', id, otherwise: successStatus('addPlant') }]
    },
    507: () => [{ kind: 'full' }],
  },
})
