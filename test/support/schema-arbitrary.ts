/**
 * Values generated from the sandbox contract's own schemas (fast-check), as
 * `GET /__sandbox/openapi.json` serves it: what the contract tests and the
 * Prism check (`bench/prism.ts`) send to show that what the contract allows
 * is accepted.
 */
import fc from 'fast-check'
import { sandboxContract } from '../../src/contract-testing/contract-checker.ts'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'

/** A JSON Schema of the contract, as far as the generator reads one. */
export interface Schema {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: Schema[]
  oneOf?: Schema[]
  pattern?: string
  format?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
}

/** The value at a JSON pointer of the served contract (`/components/schemas/RulePath`). */
export function at(pointer: string): Schema {
  let node: unknown = sandboxContractDocument
  for (const part of pointer.split('/').slice(1)) {
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return node as Schema
}

/** Bounds the generator adds where the contract has none, to keep each request cheap (never narrower than a rule). */
export interface Bounds {
  maxInteger?: number
  maxItems?: number
}

/** An RFC 3339 instant in the forms JSON Schema's `date-time` takes: `T`/`t`, `Z`/`z` or an offset, with or without a fraction. */
const dateTime = fc
  .tuple(
    fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
    fc.constantFrom('Z', 'z', '+00:00', '-05:30', '+14:00'),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([date, zone, fraction, lower]) => {
    const text = date.toISOString().replace(fraction ? /Z$/ : /\.\d{3}Z$/, '') + zone
    return lower ? text.replace('T', 't') : text
  })

/** Values of a schema of the contract: every value it generates is one the schema accepts. */
export function arbitrary(schema: Schema, bounds: Bounds = {}): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitrary(at(schema.$ref.slice(1)), bounds)
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const choices = schema.anyOf ?? schema.oneOf
  if (choices)
    return fc.oneof(
      ...choices.map((choice) => arbitrary({ ...schema, anyOf: undefined, oneOf: undefined, ...choice }, bounds)),
    )
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitrary({ ...schema, type }, bounds)))
  switch (types[0]) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer': {
      const min = schema.minimum ?? Number.MIN_SAFE_INTEGER
      const max = Math.min(schema.maximum ?? Number.MAX_SAFE_INTEGER, bounds.maxInteger ?? Number.MAX_SAFE_INTEGER)
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }))
    }
    case 'array':
      return fc.array(arbitrary(schema.items ?? {}, bounds), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 10, bounds.maxItems ?? 10),
      })
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, arbitrary(property, bounds)]),
      )
      return fc.record(properties, { requiredKeys: schema.required ?? [] })
    }
    default: {
      if (schema.format === 'date-time') return dateTime
      const text = schema.pattern
        ? fc.stringMatching(new RegExp(schema.pattern))
        : fc.string({ unit: 'binary', minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 40 })
      return text.filter((value) => value.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY))
    }
  }
}

/**
 * Tenant recipes the contract allows, within the rules it states in words
 * (a recipe's plants fit its quota; exact plants have distinct ids), and
 * cheap to provision: at most 20 seeded or 5 exact plants, a quota up to the
 * sandbox's default (10,000).
 */
export const tenantRecipes: fc.Arbitrary<Record<string, unknown>> = arbitrary(at('/components/schemas/TenantRecipe'), {
  maxInteger: 10_000,
  maxItems: 5,
})
  .map((generated) => {
    const { plants, ...rest } = generated as { plants?: unknown; quota?: number }
    if (typeof plants === 'number') return { ...rest, plants: plants % 21 }
    if (Array.isArray(plants)) {
      const ids = new Set<unknown>()
      return { ...rest, plants: plants.filter(({ id }: { id: unknown }) => !ids.has(id) && ids.add(id)) }
    }
    return rest
  })
  .filter(({ plants, quota }: { plants?: unknown; quota?: number }) => {
    const count = Array.isArray(plants) ? plants.length : typeof plants === 'number' ? plants : 0
    return quota === undefined || count <= quota
  })

/** Fault rules the contract accepts: generated from its fields and its rule method, kept when `FaultRuleInput` accepts them. */
export const faultRules: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      ...Object.fromEntries(
        Object.entries(at('/components/schemas/FaultRuleFields').properties ?? {}).map(([name, schema]) => [
          name,
          arbitrary(schema),
        ]),
      ),
      method: arbitrary(at('/components/schemas/RuleMethod')),
    },
    { requiredKeys: [] },
  )
  .filter((rule) => sandboxContract.schemaProblems('#/components/schemas/FaultRuleInput', rule) === undefined)
