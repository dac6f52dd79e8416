/**
 * Token fingerprints and constant-time comparison.
 *
 * Tokens are indexed by a 53-bit fingerprint keyed with a random secret
 * chosen when the module loads, and a candidate is then compared with the
 * presented token in constant time. A wrong guess never reaches a byte-wise
 * comparison (its fingerprint matches nothing), and the secret key means a
 * caller cannot aim guesses at a stored token's fingerprint, so the time an
 * answer takes tells nothing about how close a guess was. Both steps are
 * synchronous and run the same in Node and in browsers.
 */

const key = crypto.getRandomValues(new Uint32Array(2))
const seed1 = key[0] ?? 0
const seed2 = key[1] ?? 0

/**
 * A keyed 53-bit fingerprint of a token (cyrb53 with a secret seed).
 *
 * @example
 * fingerprint('psm_acme_write') // e.g. 4821737198331125
 */
export function fingerprint(token: string): number {
  let h1 = 0xdeadbeef ^ seed1
  let h2 = 0x41c6ce57 ^ seed2
  for (let i = 0; i < token.length; i++) {
    const unit = token.charCodeAt(i)
    h1 = Math.imul(h1 ^ unit, 2654435761)
    h2 = Math.imul(h2 ^ unit, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/**
 * Compares two strings in time that depends only on the presented one's
 * length, never on where they first differ.
 *
 * @example
 * timingSafeEqual('abc', 'abd') // false
 */
export function timingSafeEqual(expected: string, presented: string): boolean {
  let difference = expected.length ^ presented.length
  for (let i = 0; i < presented.length; i++) {
    difference |= (expected.charCodeAt(i % (expected.length || 1)) || 0) ^ presented.charCodeAt(i)
  }
  return difference === 0
}
