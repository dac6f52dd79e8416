/**
 * The sandbox's admin key, kept as a digest and compared in constant time:
 * what `POST /__sandbox/tenants` asks for in `X-Admin-Key` when the sandbox
 * was started with `--admin-key`. Failed attempts are limited per client
 * address, so that the key cannot be guessed at the rate requests arrive.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { PlantStoreError } from '../../core/errors.ts'
import type { CoreRequest } from '../../core/http.ts'
import { ClientBuckets, clientOf } from './provisioning-rate.ts'

/**
 * Failed `X-Admin-Key` attempts one client address may make (issue 44, 7):
 * a burst of 10, then one a second. Past it every attempt of that address,
 * the right key included, is answered 429 with `Retry-After` before the key
 * is compared, so that a guesser learns nothing from it.
 */
export const adminKeyFailures = { burst: 10, perSecond: 1 } as const

/** A fixed-length digest, so that comparing keys in constant time does not depend on their lengths. */
function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest()
}

/**
 * A check of requests against an admin key: it throws 401 with the
 * `X-Admin-Key` challenge unless the request presents the key, and 429 with
 * `Retry-After` while the request's client address has used up its failed
 * attempts ({@link adminKeyFailures}).
 *
 * @example
 * const requireKey = adminKeyCheck('s3cret-of-16-chars', Date.now)
 * requireKey(request) // throws unless X-Admin-Key: s3cret-of-16-chars
 */
export function adminKeyCheck(adminKey: string, now: () => number = Date.now): (request: CoreRequest) => void {
  const expected = digest(adminKey)
  const failures = new ClientBuckets(adminKeyFailures.perSecond, adminKeyFailures.burst, now)
  return (request) => {
    const bucket = failures.of(clientOf(request.client))
    const at = now()
    if (bucket.tokens(at) < 1) {
      throw new PlantStoreError(
        'too_many_requests',
        `Too many wrong admin keys from this address (at most ${adminKeyFailures.perSecond} a second after ` +
          `${adminKeyFailures.burst}); retry later with the right one.`,
        { 'retry-after': String(bucket.secondsToNext(at)) },
      )
    }
    const presented = request.header('x-admin-key')
    if (presented !== null && timingSafeEqual(expected, digest(presented))) return
    bucket.take()
    throw new PlantStoreError('unauthorized', 'Creating tenants needs the sandbox admin key in "X-Admin-Key".', {
      'www-authenticate': 'X-Admin-Key realm="plant-store-sandbox"',
    })
  }
}
