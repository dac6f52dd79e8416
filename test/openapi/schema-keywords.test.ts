/**
 * A rule the contract declares on an input is enforced, or `npm run generate`
 * refuses it: codegen (`contracts/codegen-inputs.ts`) keeps the keywords the
 * core enforces and fails, naming the keyword and the schema, on any other.
 * Each enforced keyword is put on a parameter and on a body field of a copy
 * of the contract, generated, and the core's checks of the result
 * (`src/core/inputs.ts`) are compared with ajv's reading of the same schema:
 * what ajv refuses, the core refuses.
 */
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { generateInputs } from '../../contracts/codegen-inputs.ts'
import { acceptedTexts, formatSamples, refusedTexts, refusedValues } from '../../src/contract-testing/boundaries.ts'
import { bodySchema, fieldSchema } from '../../src/core/body-schemas.ts'
import { type ObjectSchema, type ParameterSpec, parameterParser } from '../../src/core/inputs.ts'
import type { OpenApiDocument } from '../../src/core/openapi.ts'

const contractText = readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8')
type Schema = Record<string, unknown>
interface Reduced {
  operations: Record<string, { parameters: ParameterSpec[] }>
  schemas: Record<string, ObjectSchema>
}

/** The contract with a query parameter `probe` on the list and a body field `probe` on `NewPlant`, both of `schema`. */
function contractWith(schema: Schema, objectKeywords: Schema = {}): OpenApiDocument {
  const document = parse(contractText) as {
    paths: Record<string, Record<string, { parameters: unknown[] }>>
    components: { schemas: Record<string, { properties: Record<string, unknown> }> }
  }
  document.paths['/plants']?.get?.parameters.push({ name: 'probe', in: 'query', required: false, schema })
  const newPlant = document.components.schemas.NewPlant
  if (newPlant) {
    newPlant.properties.probe = schema
    Object.assign(newPlant, objectKeywords)
  }
  return document as unknown as OpenApiDocument
}

/** What codegen makes of a contract: the data of `contract-inputs.ts`. */
function reducedInputs(document: OpenApiDocument): Reduced {
  const text = generateInputs(document, '')
  const json = text.slice(text.indexOf('= ') + 2, text.lastIndexOf(' as const'))
  return JSON.parse(json) as Reduced
}

function generated(schema: Schema): { parameter: ParameterSpec; field: ObjectSchema } {
  const inputs = reducedInputs(contractWith(schema))
  const parameter = inputs.operations.listPlants?.parameters.find(({ name }) => name === 'probe')
  const field = inputs.schemas.NewPlant
  if (!parameter || !field) throw new Error('codegen dropped the probe')
  return { parameter, field }
}

const ajv = new Ajv({ strict: false })

/** Whether the core's parser takes a parameter's text. */
function parameterTakes(parameter: ParameterSpec, text: string): boolean {
  try {
    parameterParser(parameter, '/plants')(decodeURIComponent(text))
    return true
  } catch {
    return false
  }
}

/** Each enforced keyword, on a schema of its type, with values either side of it. */
const enforcedCases: Array<{ keyword: string; schema: Schema; takes: unknown[]; refuses: unknown[] }> = [
  { keyword: 'minimum', schema: { type: 'integer', minimum: 3 }, takes: [3, 4], refuses: [2] },
  { keyword: 'maximum', schema: { type: 'integer', maximum: 3 }, takes: [3, -4], refuses: [4] },
  {
    keyword: 'exclusiveMinimum',
    schema: { type: 'integer', minimum: 3, exclusiveMinimum: true },
    takes: [4],
    refuses: [3],
  },
  {
    keyword: 'exclusiveMaximum',
    schema: { type: 'integer', maximum: 3, exclusiveMaximum: true },
    takes: [2],
    refuses: [3],
  },
  { keyword: 'exclusiveMinimum', schema: { type: 'integer', exclusiveMinimum: 3 }, takes: [4], refuses: [3] },
  { keyword: 'exclusiveMaximum', schema: { type: 'integer', exclusiveMaximum: 3 }, takes: [2], refuses: [3] },
  { keyword: 'multipleOf', schema: { type: 'integer', multipleOf: 5 }, takes: [0, 10, -5], refuses: [7, 1] },
  { keyword: 'enum', schema: { type: 'integer', enum: [1, 2] }, takes: [1, 2], refuses: [3] },
  { keyword: 'const', schema: { type: 'integer', const: 2 }, takes: [2], refuses: [1] },
  { keyword: 'format', schema: { type: 'integer', format: 'int32' }, takes: [2 ** 31 - 1], refuses: [2 ** 31] },
  { keyword: 'minLength', schema: { type: 'string', minLength: 2 }, takes: ['ab'], refuses: ['a'] },
  { keyword: 'maxLength', schema: { type: 'string', maxLength: 2 }, takes: ['ab'], refuses: ['abc'] },
  { keyword: 'pattern', schema: { type: 'string', pattern: '^[a-z]+$' }, takes: ['fern'], refuses: ['Fern', '1'] },
  { keyword: 'enum', schema: { type: 'string', enum: ['fern', 'moss'] }, takes: ['moss'], refuses: ['ivy'] },
  { keyword: 'const', schema: { type: 'string', const: 'fern' }, takes: ['fern'], refuses: ['moss'] },
  {
    keyword: 'format',
    schema: { type: 'string', format: 'date-time' },
    takes: ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05+02:00'],
    refuses: ['2024-01-02', 'yesterday'],
  },
  { keyword: 'format', schema: { type: 'string', format: 'date' }, takes: ['2024-01-02'], refuses: ['2024-13-02'] },
  { keyword: 'format', schema: { type: 'string', format: 'email' }, takes: ['a@example.com'], refuses: ['a@', 'a'] },
  {
    keyword: 'format',
    schema: { type: 'string', format: 'uuid' },
    takes: ['123e4567-e89b-12d3-a456-426614174000'],
    refuses: ['123e4567'],
  },
]

describe('codegen keeps each keyword the core enforces, and the core enforces it', () => {
  test.each(enforcedCases.map((c) => [c.keyword, JSON.stringify(c.schema), c] as const))(
    '%s (%s): on a query parameter and on a body field',
    (_, __, { schema, takes, refuses }) => {
      const { parameter, field } = generated(schema)
      const body = bodySchema('NewPlant', field)
      const plant = { id: 1, name: 'Fern' }
      // Formats and OpenAPI 3.0's boolean exclusive bounds are not ajv's (JSON Schema's) own: those cases say what
      // they mean; the rest agree with ajv.
      const ownReading =
        schema.format !== undefined || typeof (schema.exclusiveMinimum ?? schema.exclusiveMaximum) === 'boolean'
      const validate = ownReading ? undefined : ajv.compile(schema)
      for (const value of takes) {
        if (validate) expect(validate(value), `ajv takes ${value}`).toBe(true)
        expect(parameterTakes(parameter, String(value)), `the parameter takes ${value}`).toBe(true)
        expect(body.safeParse({ ...plant, probe: value }).success, `the field takes ${value}`).toBe(true)
      }
      for (const value of refuses) {
        if (validate) expect(validate(value), `ajv refuses ${value}`).toBe(false)
        expect(parameterTakes(parameter, String(value)), `the parameter refuses ${value}`).toBe(false)
        expect(body.safeParse({ ...plant, probe: value }).success, `the field refuses ${value}`).toBe(false)
      }
    },
  )

  test.each(enforcedCases.map((c) => [c.keyword, JSON.stringify(c.schema), c] as const))(
    'boundaries.ts derives values %s (%s) refuses and takes, as the core reads them',
    (_, __, { schema }) => {
      const { parameter, field } = generated(schema)
      for (const text of refusedTexts(parameter)) expect(parameterTakes(parameter, text), text).toBe(false)
      for (const text of acceptedTexts(parameter)) expect(parameterTakes(parameter, text), text).toBe(true)
      const probe = field.properties.probe
      if (!probe) throw new Error('no probe field')
      const check = fieldSchema('probe', probe)
      for (const value of refusedValues(probe)) expect(check.safeParse(value).success, String(value)).toBe(false)
    },
  )

  test('a format sample for every string format the core enforces', () => {
    for (const [format, sample] of Object.entries(formatSamples)) {
      const { parameter } = generated({ type: 'string', format })
      expect(parameterTakes(parameter, sample), format).toBe(true)
    }
  })

  test.each([
    ['minProperties', { minProperties: 3 }, [{ id: 1, name: 'Fern', tag: 'fern' }], [{ id: 1, name: 'Fern' }]],
    [
      'maxProperties',
      { maxProperties: 2 },
      [{ id: 1, name: 'Fern' }],
      [
        { id: 1, name: 'Fern', tag: 'fern' },
        { id: 1, name: 'Fern', probe: 'x' },
      ],
    ],
  ] as const)('%s on a body schema: only its fields are counted', (keyword, keywords, takes, refuses) => {
    const inputs = reducedInputs(contractWith({ type: 'string' }, keywords))
    const schema = inputs.schemas.NewPlant
    if (!schema) throw new Error('no NewPlant')
    expect(schema[keyword]).toBe(Object.values(keywords)[0])
    const body = bodySchema('NewPlant', schema)
    for (const value of takes)
      expect(body.safeParse({ ...value, unknown: 1 }).success, JSON.stringify(value)).toBe(true)
    for (const value of refuses) {
      const result = body.safeParse(value)
      expect(result.success, JSON.stringify(value)).toBe(false)
      expect(result.error?.issues[0]?.path).toEqual(['body'])
      expect(result.error?.issues[0]?.message).toMatch(/^The NewPlant must give at (least|most) \d of its fields/)
    }
  })
})

describe('codegen refuses a keyword the core does not enforce, naming it and the schema', () => {
  const refusedOnValue: Array<[string, Schema]> = [
    ['uniqueItems', { type: 'string', uniqueItems: true }],
    ['minItems', { type: 'string', minItems: 1 }],
    ['default', { type: 'string', default: 'fern' }],
    ['readOnly', { type: 'string', readOnly: true }],
    ['allOf', { type: 'string', allOf: [{ minLength: 1 }] }],
    ['not', { type: 'integer', not: { const: 3 } }],
    ['minLength', { type: 'integer', minLength: 1 }],
    ['multipleOf', { type: 'string', multipleOf: 2 }],
  ]
  test.each(refusedOnValue)('%s on a parameter', (keyword, schema) => {
    expect(() => reducedInputs(contractWith(schema))).toThrow(
      `the query parameter "probe" of listPlants has the keyword "${keyword}", which src/core/inputs.ts does not enforce`,
    )
  })

  test.each(refusedOnValue)('%s on a body field', (keyword, schema) => {
    const document = contractWith({ type: 'string' })
    const newPlant = (document.components as { schemas: Record<string, { properties: Schema }> }).schemas.NewPlant
    if (newPlant) newPlant.properties.probe = schema
    expect(() => reducedInputs(document)).toThrow(
      `the schema NewPlant, field "probe" has the keyword "${keyword}", which src/core/inputs.ts does not enforce`,
    )
  })

  test.each([
    ['additionalProperties', { additionalProperties: false }],
    ['patternProperties', { patternProperties: { '^x': { type: 'string' } } }],
    ['propertyNames', { propertyNames: { maxLength: 3 } }],
  ] as const)('%s on a body schema', (keyword, keywords) => {
    expect(() => reducedInputs(contractWith({ type: 'string' }, keywords))).toThrow(
      `the schema NewPlant has the keyword "${keyword}", which src/core/inputs.ts does not enforce for an object`,
    )
  })

  test.each([
    ['integer', 'int8'],
    ['string', 'uri'],
    ['string', 'byte'],
  ])('a %s of the format %s', (type, format) => {
    expect(() => reducedInputs(contractWith({ type, format }))).toThrow(
      `the query parameter "probe" of listPlants has the format "${format}", which src/core/inputs.ts does not enforce`,
    )
  })

  test('keeps the descriptive keywords and extensions, which ask nothing of a value', () => {
    const { parameter } = generated({ type: 'string', description: 'd', example: 'x', title: 't', 'x-note': 1 })
    expect(parameter.schema).toEqual({ type: 'string' })
  })
})
