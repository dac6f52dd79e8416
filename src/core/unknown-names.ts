import type { $ZodError } from 'zod/v4/core'
import { closest } from './closest.ts'
import { invalidRequest, maxEchoedLength, type PlantStoreError, quote } from './errors.ts'

/** Unknown names listed in one message at most; the rest are counted. */
const maxListed = 5

/**
 * The one message for names a client sent that are not taken here: every
 * unknown name (quoted and cut to a short length, at most five, the rest
 * counted), each with a "did you mean" when a known name is close, then the
 * names taken: `Unknown field "sede" (did you mean "seed"?); use plants, seed.`
 * `kind` names what they are ("field", "query parameter"); `prefix` where
 * they sit (`plants.0.`). Without `known` (names not known here), no hint
 * and no list.
 *
 * @example
 * unknownNamesMessage(['limt'], ['limit'], 'query parameter')
 * // 'Unknown query parameter "limt" (did you mean "limit"?); use limit.'
 */
export function unknownNamesMessage(
  unknown: readonly string[],
  known: readonly string[] | undefined,
  kind = 'field',
  prefix = '',
): string {
  const described = unknown.slice(0, maxListed).map((name) => {
    const hint = known && closest(name, known)
    return `${quote(prefix + name, prefix.length + maxEchoedLength)}${hint === undefined ? '' : ` (did you mean ${quote(prefix + hint)}?)`}`
  })
  const more = unknown.length > maxListed ? ` and ${unknown.length - maxListed} more` : ''
  const plural = unknown.length > 1 ? 's' : ''
  const accepted =
    known === undefined ? '' : known.length === 0 ? '; none is accepted here' : `; use ${known.join(', ')}`
  return `Unknown ${kind}${plural} ${described.join(', ')}${more}${accepted}.`
}

/**
 * Throws `invalid_request` (400) naming every name not in `known` (see
 * {@link unknownNamesMessage}). Does nothing when all are known.
 *
 * @example
 * refuseUnknownNames(Object.keys(body), ['plants', 'seed', 'quota', 'ttlSeconds'])
 */
export function refuseUnknownNames(
  names: Iterable<string>,
  known: readonly string[],
  kind = 'field',
  prefix = '',
): void {
  const unknown = [...new Set(names)].filter((name) => !known.includes(name))
  if (unknown.length > 0) throw invalidRequest(unknownNamesMessage(unknown, known, kind, prefix))
}

/**
 * The first problem zod found, as an `invalid_request` (400) naming the field:
 * `times must be an integer from 1 to 10000.` Unknown fields get the message
 * of {@link unknownNamesMessage}, with a "did you mean" and the list of
 * fields when `known` (the fields the object takes) is given:
 * `Unknown field "timez" (did you mean "times"?); use method, path, ….`
 *
 * @example
 * const result = faultRuleSchema.safeParse(body)
 * if (!result.success) throw invalidField(result.error, Object.keys(faultRuleSchema.shape))
 */
export function invalidField(error: $ZodError, known?: readonly string[]): PlantStoreError {
  const issue = error.issues[0]
  if (!issue) return invalidRequest('The request is invalid.')
  const field = issue.path.map(String).join('.')
  if (issue.code === 'unrecognized_keys') {
    // `known` names the top level's fields only.
    return invalidRequest(unknownNamesMessage(issue.keys, field ? undefined : known, 'field', field && `${field}.`))
  }
  const last = issue.path.at(-1)
  // Messages that already start with their field's name (the plant schema's) keep only the rest.
  const named = typeof last === 'string' && issue.message.startsWith(`${last} `)
  const message = (named ? issue.message.slice(last.length + 1) : issue.message).replace(/\.$/, '')
  return invalidRequest(field ? `${field} ${message}.` : `${message}.`)
}
