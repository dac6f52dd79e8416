/**
 * Random identifiers from the platform's CSPRNG (Web Crypto: the same in Node
 * and browsers), and labels that need none.
 */

/**
 * `bytes` random bytes as base64url: URL-safe, and valid RFC 6750 token characters.
 *
 * @example
 * `psm_${randomId(24)}` // 'psm_3q2-7wEAAAB…'
 */
export function randomId(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/**
 * `bytes` bytes of `Math.random` as base64url, like {@link randomId}: for a
 * label that only tells processes apart (a request id's prefix), never for
 * anything a guess could abuse. It loads no Web Crypto, which costs a
 * process's start ~4 ms.
 *
 * @example
 * `${nonSecretId(6)}-${counter}` // 'q2-7wEAA-0'
 */
export function nonSecretId(bytes: number): string {
  return base64url(Uint8Array.from({ length: bytes }, () => Math.floor(Math.random() * 256)))
}

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
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
