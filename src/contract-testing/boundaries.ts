/**
 * The values a parameter's schema refuses and takes, derived from the schema
 * alone: the one source of the bad (and the boundary) inputs that the
 * conformance rules, the hostile corpus and the behaviour tests send. A
 * parameter added to the contract gets its values here with no table of its
 * own; nothing here knows a parameter by name.
 */
import type { ObjectSchema, ParameterSpec, ValueSchema } from '../core/inputs.ts'
import { contractInputs } from '../generated/contract-inputs.ts'

/**
 * Integer texts a lenient parser would read as the sample (or as a number):
 * signs, fractions, exponents, other bases, spaces, separators, other
 * digits, words. Every one is refused by a schema of type integer.
 */
function lenientIntegers(sample: number): string[] {
  const s = String(Math.abs(sample))
  return [
    'abc',
    'ten',
    `${s}a`,
    `${s}abc`,
    `${s}.5`,
    `${s}.0`,
    '.5',
    `${s}e0`,
    `${s}e3`,
    `${s}E3`,
    `0x${Math.abs(sample).toString(16)}`,
    '0X10',
    '0b1',
    '0o7',
    `+${s}`,
    `%2B${s}`,
    `%20${s}`,
    `${s}%20`,
    `%09${s}`,
    `${s}%0A`,
    '%00',
    `${s}%00`,
    '-',
    `--${s}`,
    `${s}-`,
    `${s}_000`,
    `${s},2`,
    `${s};2`,
    `${s}%2F2`,
    '%EF%BC%91',
    '%D9%A1',
    `%E2%80%8B${s}`,
    `%5B${s}%5D`,
    '[]',
    'NaN',
    'Infinity',
    '-Infinity',
    'null',
    'true',
    'undefined',
    '__proto__',
    'constructor',
    '%',
    '%ZZ',
    '%FF',
    '1'.repeat(400),
  ]
}

/** Integer texts just outside a schema's bounds, exact however large (`2147483648`, `-9007199254740992`). */
function outOfRange({ minimum, maximum }: ValueSchema): string[] {
  const texts: string[] = []
  if (maximum !== undefined) {
    const max = BigInt(maximum)
    texts.push(String(max + 1n), String(max + 2n), String(2n ** 64n), `${max}0`)
  }
  if (minimum !== undefined) {
    const min = BigInt(minimum)
    texts.push(String(min - 1n), String(min - 2n))
    if (minimum >= 0) texts.push('-0', `-${minimum + 1}`)
  }
  return texts
}

/**
 * Integers within a schema's bounds that it still refuses: one that is not a multiple of its `multipleOf`,
 * one beside its `enum`.
 */
function refusedInRange(schema: ValueSchema): number[] {
  const values: number[] = []
  const { minimum = 0, maximum = Number.MAX_SAFE_INTEGER, multipleOf } = schema
  if (multipleOf !== undefined && multipleOf > 1) {
    const off = Math.ceil(minimum / multipleOf) * multipleOf + 1
    if (off <= maximum) values.push(off)
  }
  if (schema.enum !== undefined) {
    const beside = Math.max(...schema.enum.map(Number)) + 1
    if (beside <= maximum) values.push(beside)
  }
  return values
}

/** A text of each string format the core enforces (JSON Schema's forms). */
export const formatSamples: Readonly<Record<string, string>> = {
  'date-time': '2024-01-02T03:04:05Z',
  date: '2024-01-02',
  email: 'fern@example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
}

/** String texts a string schema refuses: too short, too long (in ASCII and in astral code points), not in its enum. */
function refusedStrings(schema: ValueSchema): string[] {
  const texts: string[] = []
  if ((schema.minLength ?? 0) > 0) texts.push('', 'x'.repeat(schema.minLength! - 1))
  if (schema.maxLength !== undefined) {
    texts.push('x'.repeat(schema.maxLength + 1), encodeURIComponent('\u{1F331}'.repeat(schema.maxLength + 1)))
  }
  if (schema.enum !== undefined) texts.push(`not-${schema.enum.join('-')}`)
  if (schema.format !== undefined) texts.push(`not-a-${schema.format}`)
  return [...new Set(texts)]
}

/**
 * The texts (as sent: percent-encoded where they must be) that a
 * parameter's schema refuses: every one a 400 naming the parameter. For an
 * integer, forms a lenient parser reads as `sample` and values just beyond
 * its bounds; for a string, lengths beyond its bounds. In a path, no empty
 * text (an empty segment is another path).
 *
 * @example
 * refusedTexts({ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }, 7) // ['abc', '7.5', …]
 */
export function refusedTexts(parameter: ParameterSpec, sample = 1): string[] {
  const { schema } = parameter
  const texts =
    schema.type === 'integer'
      ? [
          ...lenientIntegers(sample),
          ...outOfRange(schema),
          ...refusedInRange(schema).map(String),
          ...(parameter.in === 'path' ? [] : ['']),
        ]
      : refusedStrings(schema)
  return [...new Set(texts)].filter((text) => !(parameter.in === 'path' && text === ''))
}

/**
 * The texts at a parameter's bounds that its schema takes: its minimum and
 * maximum (with leading zeros), its shortest and longest string.
 *
 * @example
 * acceptedTexts({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: 9 } })
 * // ['0', '9', '00', '09']
 */
export function acceptedTexts({ schema }: ParameterSpec): string[] {
  if (schema.enum !== undefined) return schema.enum.map(String)
  if (schema.type === 'integer') {
    const step = schema.multipleOf ?? 1
    const bounds = [
      ...(schema.minimum === undefined ? [] : [String(Math.ceil(schema.minimum / step) * step)]),
      ...(schema.maximum === undefined ? [] : [String(Math.floor(schema.maximum / step) * step)]),
    ].map((bound) => (bound === '-0' ? '0' : bound))
    return [...bounds, ...bounds.filter((bound) => !bound.startsWith('-')).map((bound) => `0${bound}`)]
  }
  if (schema.format !== undefined) return [formatSamples[schema.format] ?? schema.format]
  const min = schema.minLength ?? 0
  return [
    ...new Set([
      'x'.repeat(Math.max(min, 1)),
      ...(schema.maxLength === undefined ? [] : ['x'.repeat(schema.maxLength)]),
    ]),
  ]
}

/** An operation of the Plant Store contract, by id. */
export type ContractOperationId = keyof typeof contractInputs.operations

/**
 * A parameter an operation of the Plant Store contract declares, by name,
 * as `npm run generate` reduced it; throws when the contract has no such
 * parameter.
 *
 * @example
 * parameterOf('deletePlant', 'id').schema.maximum // 9007199254740991
 */
export function parameterOf(operation: ContractOperationId, name: string): ParameterSpec {
  const parameters: readonly ParameterSpec[] = contractInputs.operations[operation].parameters
  const found = parameters.find((parameter) => parameter.name === name)
  if (!found) throw new Error(`contracts/openapi.yaml declares no parameter "${name}" for ${operation}.`)
  return found
}

/**
 * Every parameter of every operation of the Plant Store contract that has
 * a value to check (a header the msw handlers never see, such as `Prefer`,
 * included), each with its operation.
 *
 * @example
 * declaredParameters().map(({ operation, parameter }) => `${operation} ${parameter.name}`) // ['listPlants limit', …]
 */
export function declaredParameters(): Array<{ operation: ContractOperationId; parameter: ParameterSpec }> {
  return Object.entries(contractInputs.operations).flatMap(([operation, { parameters }]) =>
    parameters.map((parameter: ParameterSpec) => ({ operation: operation as ContractOperationId, parameter })),
  )
}

/**
 * The JSON values a body field's schema refuses: other types (`null` too,
 * unless it is nullable), and values just beyond its bounds (for an integer
 * a fraction and 1e300; for a string, lengths past its bounds, in ASCII and
 * in astral code points). Every one is a 400 naming the field.
 *
 * @example
 * refusedValues({ type: 'string', minLength: 1, maxLength: 3 }) // [42, true, [], {}, ['x'], null, '', 'xxxx', '🌱🌱🌱🌱']
 */
export function refusedValues(schema: ValueSchema, sample = 1): unknown[] {
  const others = [true, [], {}, ...(schema.nullable ? [] : [null])]
  if (schema.type === 'integer') {
    const beyond = [schema.maximum, schema.minimum].flatMap((bound, index) =>
      bound === undefined ? [] : [index === 0 ? bound + 1 : bound - 1],
    )
    return [String(sample), sample + 0.5, ...beyond, ...refusedInRange(schema), 1e300, ...others]
  }
  const lengths =
    schema.maxLength === undefined ? [] : ['x'.repeat(schema.maxLength + 1), '\u{1F331}'.repeat(schema.maxLength + 1)]
  return [
    42,
    ...others,
    ['x'],
    ...((schema.minLength ?? 0) > 0 ? [''] : []),
    ...lengths,
    ...(schema.enum === undefined ? [] : [`not-${schema.enum.join('-')}`]),
    ...(schema.format === undefined ? [] : [`not-a-${schema.format}`]),
  ]
}

/** A schema of the Plant Store contract's request bodies, by name (`NewPlant`), as the core checks it. */
export function bodySchemaOf(name: keyof typeof contractInputs.schemas): ObjectSchema {
  return contractInputs.schemas[name]
}
