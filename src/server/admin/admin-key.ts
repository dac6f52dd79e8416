/**
 * The sandbox's admin key, kept as a digest and compared in constant time:
 * what `POST /__sandbox/tenants` asks for in `X-Admin-Key` when the sandbox
 * was started with `--admin-key`.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { PlantStoreError } from '../../core/errors.ts'
import type { CoreRequest } from '../../core/http.ts'

/** A fixed-length digest, so that comparing keys in constant time does not depend on their lengths. */
function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest()
}

/**
 * A check of requests against an admin key: it throws 401 with the
 * `X-Admin-Key` challenge unless the request presents the key.
 *
 * @example
 * const requireKey = adminKeyCheck('s3cret')
 * requireKey(request) // throws unless X-Admin-Key: s3cret
 */
export function adminKeyCheck(adminKey: string): (request: CoreRequest) => void {
  const expected = digest(adminKey)
  return (request) => {
    const presented = request.header('x-admin-key')
    if (presented !== null && timingSafeEqual(expected, digest(presented))) return
    throw new PlantStoreError('unauthorized', 'Creating tenants needs the sandbox admin key in "X-Admin-Key".', {
      'www-authenticate': 'X-Admin-Key realm="plant-store-sandbox"',
    })
  }
}
