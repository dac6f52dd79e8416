import type { z } from 'zod'
import { invalidRequest, type PlantStoreError } from '../core/errors.ts'

/**
 * The first problem zod found, as an `invalid_request` (400) naming the field:
 * `times must be an integer from 1 to 10000.`
 *
 * @example
 * const result = faultRuleSchema.safeParse(body)
 * if (!result.success) throw invalidField(result.error)
 */
export function invalidField(error: z.ZodError): PlantStoreError {
  const issue = error.issues[0]
  if (!issue) return invalidRequest('The request is invalid.')
  if (issue.code === 'unrecognized_keys') {
    return invalidRequest(`${issue.keys.join(', ')}: unknown field.`)
  }
  const field = issue.path.map(String).join('.')
  const last = issue.path.at(-1)
  // Messages that already start with their field's name (the plant schema's) keep only the rest.
  const named = typeof last === 'string' && issue.message.startsWith(`${last} `)
  const message = (named ? issue.message.slice(last.length + 1) : issue.message).replace(/\.$/, '')
  return invalidRequest(field ? `${field} ${message}.` : `${message}.`)
}
