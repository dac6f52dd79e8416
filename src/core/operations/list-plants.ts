import { bytesResponse, jsonHeaders } from '../http.ts'
import type { Operation } from './operation.ts'

/**
 * `GET /plants` (and its HEAD): the caller's tenant's plants, oldest first,
 * cut to the first `limit` when it is given.
 */
export const listPlants: Operation<'listPlants'> = (store, principal, { query: { limit } }, request) => {
  // The tenant's list as JSON bytes, kept up to date by its writes: a list is views of them.
  const list = store.encodedList(principal.tenantId)
  if (request.method === 'HEAD') {
    return { status: 200, headers: { ...jsonHeaders, 'content-length': String(list.byteLength(limit)) }, body: null }
  }
  // The list goes out as the bytes the tenant keeps: encoding it per answer made megabytes of garbage each time.
  return bytesResponse(200, jsonHeaders, list.chunks(limit))
}
