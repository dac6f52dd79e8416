import { contractPathSchema, methodSchema, routeOfPattern } from '../core/request-pattern.ts'
import { maxDelayMs } from '../core/time.ts'
import { invalidField } from '../core/unknown-names.ts'
import { lazy, z } from '../core/zod.ts'

/** Most times a rule may be asked to fire; most milliseconds it may stay active. */
export const ruleLimits = { times: 10_000, windowMs: 86_400_000, messageLength: 500 } as const

/** What a rule can do instead of a normal answer: fail the transport, or answer JSON that cannot be parsed. */
export const faultKinds = ['reset', 'empty', 'truncated', 'malformed'] as const

const integerFrom = (min: number, max: number) => {
  const error = `must be an integer from ${min} to ${max}`
  return z.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error }))
}

/**
 * A fault rule as a test writes it (the `POST /__sandbox/faults` body, and
 * `faults.add(tenant, rule)` over msw). It matches the caller tenant's
 * requests by `method` and `path` (both optional: any), and answers instead:
 * a `status` (400–599) with the contract's Error body, a transport `fault`,
 * or after `delayMs` the real answer (a delay may also precede a status or a
 * fault). It fires for the next `times` matching requests and/or for
 * `windowMs` from its creation; without either, until it is deleted.
 *
 * @example
 * faultRuleSchema.parse({ method: 'post', path: '/plants', status: 503, times: 1 })
 * // { method: 'POST', path: '/plants', status: 503, times: 1 }
 */
const messageError = `must be a string of 1 to ${ruleLimits.messageLength} characters`

export const faultRuleSchema = lazy(() =>
  z
    .strictObject({
      method: z.optional(methodSchema),
      path: z.optional(contractPathSchema),
      status: z.optional(integerFrom(400, 599)),
      message: z.optional(
        z
          .string({ error: messageError })
          .check(
            z.minLength(1, { error: messageError }),
            z.maxLength(ruleLimits.messageLength, { error: messageError }),
          ),
      ),
      fault: z.optional(z.enum(faultKinds, { error: `must be one of ${faultKinds.join(', ')}` })),
      delayMs: z.optional(integerFrom(1, maxDelayMs)),
      times: z.optional(integerFrom(1, ruleLimits.times)),
      windowMs: z.optional(integerFrom(1, ruleLimits.windowMs)),
    })
    .check(
      z.superRefine((rule, context) => {
        if (rule.status === undefined && rule.fault === undefined && rule.delayMs === undefined) {
          context.addIssue({ code: 'custom', message: 'A fault rule needs status, fault or delayMs' })
        } else if (rule.status !== undefined && rule.fault !== undefined) {
          context.addIssue({ code: 'custom', path: ['fault'], message: 'cannot be given together with status' })
        } else if (rule.message !== undefined && rule.status === undefined) {
          context.addIssue({ code: 'custom', path: ['message'], message: 'is only for a status answer' })
        } else if (rule.method !== undefined && rule.path !== undefined) {
          // A method the contract lacks at the path is answered 405 by the core, never by a rule.
          const route = routeOfPattern(rule.path)
          if (route && !route.methods.has(rule.method)) {
            const message = `must be one the contract has at ${route.path}: ${route.allow}`
            context.addIssue({ code: 'custom', path: ['method'], message })
          }
        }
      }),
    ),
)

/** A fault rule as written: see {@link faultRuleSchema}. */
export type FaultRuleInput = z.input<typeof faultRuleSchema>

/** A valid fault rule, method in upper case. */
export type FaultRuleSpec = z.output<typeof faultRuleSchema>

/** A fault rule as it is listed: what was written, its id, and how it has fired. */
export type FaultRule = FaultRuleSpec & {
  readonly id: string
  /** ISO 8601 instant it was added. */
  readonly createdAt: string
  /** How many requests it answered so far. */
  readonly fired: number
  /** How many more times it fires (with `times`). */
  readonly remaining?: number
  /** ISO 8601 instant it stops firing (with `windowMs`). */
  readonly expiresAt?: string
  /** Whether it still fires: neither spent nor expired. */
  readonly active: boolean
}

/**
 * Validates a fault rule: the rule, or an `invalid_request` (400) naming the field.
 *
 * @example
 * parseFaultRule({ path: '/plants/{id}', fault: 'reset' })
 * parseFaultRule({ times: 0 }) // throws: times must be an integer from 1 to 10000.
 */
export function parseFaultRule(value: unknown): FaultRuleSpec {
  const result = faultRuleSchema.safeParse(value)
  // The fields a rule takes, for the "did you mean" hint of an unknown one.
  if (!result.success) throw invalidField(result.error, Object.keys(faultRuleSchema.shape))
  return result.data
}
