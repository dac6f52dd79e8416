/**
 * The zod schemas of the contract's object schemas (a request body, a stored
 * plant), built from what codegen reduced them to: what checks a body the
 * usual check does not take, for zod's message and rule. Reached through
 * `zod.ts` (`objectSchema`), so that in the browser entry's build it comes
 * with zod in the parts a page loads on demand.
 */

import { contractInputs } from '../generated/contract-inputs.ts'
import type { components } from '../generated/openapi.ts'
import { type NullAsAbsent, type ObjectSchema, stringAccepted } from './inputs.ts'
import { takes, type ValueSchema } from './takes.ts'
import { z } from './zod-mini.ts'

type Schemas = typeof contractInputs.schemas

/**
 * The zod schema of a body field, its one message from {@link takes}
 * (`name must be a string of 1 to 256 characters`) for every way it fails.
 *
 * @example
 * fieldSchema('limit', { type: 'integer', minimum: 0, multipleOf: 5 }).safeParse(7).success // false
 */
export function fieldSchema(field: string, schema: ValueSchema): z.ZodMiniType<number | string> {
  const error = `${field} must be ${takes(schema)}`
  if (schema.type === 'integer') {
    const { minimum, maximum, multipleOf, enum: values } = schema
    // Each keyword its own check, so the journal's reason names the rule it broke (`too_big`, `not_multiple_of`…).
    return z
      .number({ error })
      .check(
        z.int({ error }),
        ...(minimum === undefined ? [] : [z.minimum(minimum, { error })]),
        ...(maximum === undefined ? [] : [z.maximum(maximum, { error })]),
        ...(multipleOf === undefined ? [] : [z.multipleOf(multipleOf, { error })]),
        ...(values === undefined ? [] : [z.refine((value: unknown) => values.includes(value), { error })]),
      )
  }
  return z.string({ error }).check(z.refine(stringAccepted(schema), { error }))
}

/**
 * The zod schema of an object schema as codegen reduced it: each field from
 * its own schema, the required ones required, unknown fields dropped, and
 * as many fields as its `minProperties` and `maxProperties` say (unknown
 * fields, dropped, do not count); `null` is refused here.
 *
 * @example
 * bodySchema('NewPlant', contractInputs.schemas.NewPlant).parse({ id: 1, name: 'Fern' }) // { id: 1, name: 'Fern' }
 */
export function bodySchema(name: string, schema: ObjectSchema): z.ZodMiniType<Record<string, unknown>> {
  const shape = Object.fromEntries(
    Object.entries(schema.properties).map(([field, property]) => {
      const value = fieldSchema(field, property)
      return [field, schema.required.includes(field) ? value : z.optional(value)]
    }),
  )
  const { minProperties: least, maxProperties: most } = schema
  if (least === undefined && most === undefined) return z.object(shape)
  const fields = Object.keys(schema.properties).join(', ')
  const bounds =
    least !== undefined && most !== undefined
      ? `${least} to ${most}`
      : least !== undefined
        ? `at least ${least}`
        : `at most ${most}`
  const error = `The ${name} must give ${bounds} of its fields (${fields}).`
  return z.object(shape).check(
    z.refine(
      (value: Record<string, unknown>) => {
        const count = Object.values(value).filter((given) => given !== undefined).length
        return count >= (least ?? 0) && count <= (most ?? Number.POSITIVE_INFINITY)
      },
      { error, path: ['body'] },
    ),
  )
}

/**
 * The zod schema of a contract's object schema, by its name (`NewPlant`)
 * ({@link bodySchema}); `null` is refused here (a body's nullable field
 * reads `null` as absent before this runs). What validates a request body
 * and a stored plant alike.
 *
 * @example
 * objectSchema('NewPlant').parse({ id: 1, name: 'Fern' }) // { id: 1, name: 'Fern' }
 */
export function objectSchema<Name extends keyof Schemas & keyof components['schemas']>(
  name: Name,
): z.ZodMiniType<NullAsAbsent<components['schemas'][Name]>> {
  return bodySchema(name, contractInputs.schemas[name]) as unknown as z.ZodMiniType<
    NullAsAbsent<components['schemas'][Name]>
  >
}
