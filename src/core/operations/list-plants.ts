import { bytesResponse, jsonHeaders } from '../http.ts'
import { defineOperation, notSure } from './operation.ts'
import { defineSlicing } from './slice.ts'

/**
 * The part of the tenant's list a list request asks for, from its query: the
 * handler answers it and the readBack reads a recorded list as it. A
 * parameter that cuts the list (an offset, a page) is named here and says
 * where the slice starts (`skip`) or how long it is (`limit`); a recorded list
 * sent any other parameter says nothing sure (a filter: name it in `filters`).
 */
export const listSlicing = defineSlicing('listPlants', ['limit'], ({ limit }) => ({ skip: 0, limit }))

/**
 * `GET /plants` (and its HEAD): the caller's tenant's plants, oldest first,
 * cut to the first `limit` when it is given.
 */
export const listPlants = defineOperation<'listPlants'>({
  handle(store, principal, { query }, request) {
    const { skip, limit } = listSlicing.of(query)
    // The tenant's list as JSON bytes, kept up to date by its writes: a list is views of them.
    const list = store.encodedList(principal.tenantId)
    if (request.method === 'HEAD') {
      const length = String(list.byteLength(limit, skip))
      return { status: 200, headers: { ...jsonHeaders, 'content-length': length }, body: null }
    }
    // The list goes out as the bytes the tenant keeps: encoding it per answer made megabytes of garbage each time.
    return bytesResponse(200, jsonHeaders, list.chunks(limit, skip))
  },
  readBacks: {
    200({ request: { query }, body }) {
      if (!Array.isArray(body)) return notSure('the body is not a list')
      const slice = listSlicing.recorded(query)
      if ('notSure' in slice) return slice
      return [{ kind: 'listed', plants: body, skip: slice.skip, cut: slice.limit }]
    },
  },
})
