/**
 * Random identifiers from the platform's CSPRNG (Web Crypto: the same in Node
 * and browsers).
 */

/**
 * `bytes` random bytes as base64url: URL-safe, and valid RFC 6750 token characters.
 *
 * @example
 * `psm_${randomId(24)}` // 'psm_3q2-7wEAAAB…'
 */
export function randomId(bytes: number): string {
  let binary = ''
  for (const byte of crypto.getRandomValues(new Uint8Array(bytes))) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')
}

/**
 * A random non-negative 31-bit integer, e.g. a faker seed.
 *
 * @example
 * buildWorld({ seed: randomSeed() })
 */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1
}
