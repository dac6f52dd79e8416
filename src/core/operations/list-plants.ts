import { bytesResponse, jsonHeaders } from '../http.ts'
import { type OperationDescriptor, successStatus } from './operation.ts'

/** The query parameters whose meaning a recorded list is read back with: anything else, and it says nothing sure. */
const readBackParameters = new Set(['limit'])

/**
 * `GET /plants` (and its HEAD): the caller's tenant's plants, oldest first,
 * cut to the first `limit` when it is given.
 */
export const listPlants: OperationDescriptor<'listPlants'> = {
  handle(store, principal, { query: { limit } }, request) {
    // The tenant's list as JSON bytes, kept up to date by its writes: a list is views of them.
    const list = store.encodedList(principal.tenantId)
    if (request.method === 'HEAD') {
      return { status: 200, headers: { ...jsonHeaders, 'content-length': String(list.byteLength(limit)) }, body: null }
    }
    // The list goes out as the bytes the tenant keeps: encoding it per answer made megabytes of garbage each time.
    return bytesResponse(200, jsonHeaders, list.chunks(limit))
  },
  readBack({ status, request: { query }, body }) {
    if (status !== successStatus('listPlants') || !Array.isArray(body)) return []
    // A parameter read back by nothing (an offset, a filter) may leave out any plant: the list says nothing sure.
    if ([...query.keys()].some((name) => !readBackParameters.has(name))) return []
    const limits = query.getAll('limit')
    if (limits.length === 0) return [{ kind: 'listed', plants: body }]
    const [limit] = limits
    if (limits.length > 1 || limit === undefined || !/^\d+$/.test(limit)) return []
    return [{ kind: 'listed', plants: body, cut: Number(limit) }]
  },
}
