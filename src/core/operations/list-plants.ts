import { bytesResponse, jsonHeaders } from '../http.ts'
import { defineOperation, notSure } from './operation.ts'

/** The query parameters whose meaning a recorded list is read back with: anything else, and it says nothing sure. */
const readBackParameters = new Set(['limit'])

/**
 * `GET /plants` (and its HEAD): the caller's tenant's plants, oldest first,
 * cut to the first `limit` when it is given.
 */
export const listPlants = defineOperation<'listPlants'>({
  handle(store, principal, { query: { limit } }, request) {
    // The tenant's list as JSON bytes, kept up to date by its writes: a list is views of them.
    const list = store.encodedList(principal.tenantId)
    if (request.method === 'HEAD') {
      return { status: 200, headers: { ...jsonHeaders, 'content-length': String(list.byteLength(limit)) }, body: null }
    }
    // The list goes out as the bytes the tenant keeps: encoding it per answer made megabytes of garbage each time.
    return bytesResponse(200, jsonHeaders, list.chunks(limit))
  },
  readBacks: {
    200({ request: { query }, body }) {
      if (!Array.isArray(body)) return notSure('the body is not a list')
      // A parameter read back by nothing (an offset, a filter) may leave out any plant: the list says nothing sure.
      if ([...query.keys()].some((name) => !readBackParameters.has(name)))
        return notSure('a query parameter nothing reads back')
      const limits = query.getAll('limit')
      if (limits.length === 0) return [{ kind: 'listed', plants: body }]
      const [limit] = limits
      if (limits.length > 1 || limit === undefined || !/^\d+$/.test(limit)) return notSure('a limit that is not one')
      return [{ kind: 'listed', plants: body, cut: Number(limit) }]
    },
  },
})
