import type { z } from 'zod'
import { closest, invalidRequest, type PlantStoreError, quote } from '../core/errors.ts'

/** Unknown field names an Error message names at most; the others are counted. */
const maxNamedFields = 5

/**
 * The first problem zod found, as an `invalid_request` (400) naming the field:
 * `times must be an integer from 1 to 10000.` Unknown fields are named (each
 * cut to a short length, at most five of them) with a "did you mean" hint
 * when `known` (the fields the object takes) holds a close one:
 * `"timez": unknown field (did you mean "times"?).`
 *
 * @example
 * const result = faultRuleSchema.safeParse(body)
 * if (!result.success) throw invalidField(result.error, Object.keys(faultRuleSchema.shape))
 */
export function invalidField(error: z.ZodError, known: readonly string[] = []): PlantStoreError {
  const issue = error.issues[0]
  if (!issue) return invalidRequest('The request is invalid.')
  if (issue.code === 'unrecognized_keys') return invalidRequest(unknownFields(issue.keys, issue.path, known))
  const field = issue.path.map(String).join('.')
  const last = issue.path.at(-1)
  // Messages that already start with their field's name (the plant schema's) keep only the rest.
  const named = typeof last === 'string' && issue.message.startsWith(`${last} `)
  const message = (named ? issue.message.slice(last.length + 1) : issue.message).replace(/\.$/, '')
  return invalidRequest(field ? `${field} ${message}.` : `${message}.`)
}

/** `"sede": unknown field (did you mean "seed"?).`, or several names, the first five quoted and the rest counted. */
function unknownFields(keys: readonly string[], path: readonly PropertyKey[], known: readonly string[]): string {
  const within = path.length > 0 ? ` in ${path.map(String).join('.')}` : ''
  if (keys.length === 1) {
    const [key = ''] = keys
    const hint = path.length === 0 ? closest(key, known) : undefined
    return `${quote(key)}: unknown field${within}${hint ? ` (did you mean ${quote(hint)}?)` : ''}.`
  }
  const named = keys.slice(0, maxNamedFields).map((key) => quote(key))
  const more = keys.length > maxNamedFields ? ` and ${keys.length - maxNamedFields} more` : ''
  return `${named.join(', ')}${more}: unknown fields${within}.`
}
