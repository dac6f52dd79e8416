import { jsonResponse } from '../http.ts'
import { toPlant } from '../schemas.ts'
import type { Operation } from './operation.ts'

/**
 * `POST /plants`: stores the `NewPlant` in the caller's tenant (its id
 * unique there, within the tenant's quota) and answers it as a `Plant`.
 */
export const addPlant: Operation<'addPlant'> = async (store, principal, { body }, _request, trace) => {
  trace.plant = await store.addPlant(principal.tenantId, body)
  return jsonResponse(200, toPlant(trace.plant))
}
