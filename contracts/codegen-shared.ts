/**
 * What every generator of `contracts/codegen.ts` shares: the first line of a
 * generated file, and the one error for a contract that leaves out what a
 * generator needs.
 */

/**
 * The first line of every file generated from a contract.
 *
 * @example
 * bannerOf('contracts/openapi.yaml') // '// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.\n'
 */
export const bannerOf = (contractFile: string): string =>
  `// Generated from ${contractFile} by contracts/codegen.ts. Do not edit.\n`

/**
 * The value, or an error saying that the contract does not state it.
 *
 * @example
 * required(document.info.version, 'info.version')
 */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`contracts/openapi.yaml does not state ${what}`)
  return value
}

/** A JSON value, as a contract document is made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
