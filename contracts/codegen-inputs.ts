/**
 * The inputs of every operation of a contract, as data the core checks
 * requests against (`src/core/inputs.ts`): each parameter with its place,
 * whether it is required and its schema, the request body with its schema's
 * name, and the component schemas those bodies name. Nothing here knows a
 * parameter or a field by name: a parameter added to the contract comes out
 * here, and is enforced, by itself. A schema the core cannot check (a type
 * it has no parser for) is refused here, at generate time, naming it.
 */
import {
  type ContractOperation,
  isReference,
  type OpenApiDocument,
  operationsOf,
  type Reference,
  type RequestBodyObject,
  resolve,
  type SchemaObject,
} from '../src/core/openapi.ts'
import type { Json } from './codegen-shared.ts'

/**
 * What the core does with each keyword of an input's schema, by the schema's type: the keywords it enforces
 * (`src/core/inputs.ts`), and the ones that only describe (an `x-` extension too). Any other keyword is refused
 * at generate time, naming it and the schema: a rule the contract declares is never silently dropped.
 */
const annotations = ['description', 'example', 'examples', 'title', 'deprecated', 'externalDocs']
const enforced: Readonly<Record<string, readonly string[]>> = {
  integer: [
    'type',
    'format',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'enum',
    'const',
    'nullable',
  ],
  string: ['type', 'format', 'minLength', 'maxLength', 'pattern', 'enum', 'const', 'nullable'],
  object: ['type', 'required', 'properties', 'minProperties', 'maxProperties'],
}

/** The formats the core enforces, by type: an integer's range (exact in JavaScript), a string's form (zod's checks). */
export const enforcedFormats: Readonly<Record<string, readonly string[]>> = {
  integer: ['int32', 'int64'],
  string: ['date-time', 'date', 'email', 'uuid'],
}

/** The range of an integer format, within what JavaScript represents exactly. */
const formatRange: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
}

/** The types the core parses a parameter or a body field as (`src/core/inputs.ts`). */
const parameterTypes = ['integer', 'string']
const fieldTypes = ['integer', 'string']

/** `an integer`, `a string`, `an object`. */
const article = (type: string) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`

/** Refuses a keyword of a schema that the core does not enforce, naming the keyword and the schema. */
function refuseUnenforced(schema: SchemaObject, type: string, where: string): void {
  const known = enforced[type] ?? []
  for (const keyword of Object.keys(schema)) {
    if (known.includes(keyword) || annotations.includes(keyword) || keyword.startsWith('x-')) continue
    throw new Error(
      `contracts/openapi.yaml: ${where} has the keyword "${keyword}", which src/core/inputs.ts does not enforce for ${article(type)} (it enforces ${known.join(', ')}): enforce it there and keep it in contracts/codegen-inputs.ts, or drop it from the contract`,
    )
  }
  const format = schema.format
  if (format !== undefined && !(enforcedFormats[type] ?? []).includes(String(format))) {
    throw new Error(
      `contracts/openapi.yaml: ${where} has the format ${JSON.stringify(format)}, which src/core/inputs.ts does not enforce for ${article(type)} (it enforces ${(enforcedFormats[type] ?? []).join(', ') || 'none'}): enforce it there, or drop it from the contract`,
    )
  }
}

/**
 * An integer schema's bounds with its format's range and its exclusive bounds folded in (OpenAPI 3.0's boolean
 * form and 3.1's number form): the one `minimum` and `maximum` the core checks.
 */
function integerBounds(schema: SchemaObject): { minimum?: number; maximum?: number } {
  const range = formatRange[String(schema.format)]
  let minimum = schema.minimum
  let maximum = schema.maximum
  if (schema.exclusiveMinimum === true && minimum !== undefined) minimum += 1
  if (typeof schema.exclusiveMinimum === 'number') minimum = Math.max(minimum ?? -Infinity, schema.exclusiveMinimum + 1)
  if (schema.exclusiveMaximum === true && maximum !== undefined) maximum -= 1
  if (typeof schema.exclusiveMaximum === 'number') maximum = Math.min(maximum ?? Infinity, schema.exclusiveMaximum - 1)
  if (range) {
    minimum = Math.max(minimum ?? range[0], range[0])
    maximum = Math.min(maximum ?? range[1], range[1])
  }
  return { ...(minimum === undefined ? {} : { minimum }), ...(maximum === undefined ? {} : { maximum }) }
}

/** A value schema as the core enforces it: `const` as a one-value `enum`, an integer's bounds folded into two. */
function valueKeywords(schema: SchemaObject, type: string): Record<string, Json> {
  const { const: only, exclusiveMinimum, exclusiveMaximum, minimum, maximum, ...rest } = schema
  const kept: Record<string, Json> = {}
  for (const key of enforced[type] ?? []) if (rest[key] !== undefined) kept[key] = rest[key] as Json
  if (type === 'integer') Object.assign(kept, integerBounds(schema))
  if (only !== undefined) {
    kept.enum = (schema.enum ?? [only]).filter((value) => JSON.stringify(value) === JSON.stringify(only)) as Json
  }
  return kept
}

/** A schema reduced to what the core enforces, `$ref`s resolved (an object's properties too). */
function reduced(document: OpenApiDocument, value: SchemaObject | Reference, where: string, types: string[]): Json {
  const schema = resolve(document, value)
  const type = schema.type
  if (type === 'object' && types.length === 0) {
    refuseUnenforced(schema, type, where)
    const properties = Object.entries(schema.properties ?? {}).map(([field, property]) => [
      field,
      reduced(document, property, `${where}, field "${field}"`, fieldTypes),
    ])
    const counts = Object.fromEntries(
      (['minProperties', 'maxProperties'] as const).flatMap((key) =>
        typeof schema[key] === 'number' ? [[key, schema[key] as number]] : [],
      ),
    )
    return { type, required: [...(schema.required ?? [])], properties: Object.fromEntries(properties), ...counts }
  }
  if (typeof type !== 'string' || !types.includes(type)) {
    throw new Error(
      `contracts/openapi.yaml: ${where} has the type ${JSON.stringify(type)}, which src/core/inputs.ts cannot check (it checks ${types.join(', ')}): add a parser for it there`,
    )
  }
  refuseUnenforced(schema, type, where)
  return valueKeywords(schema, type)
}

/** The name of the component schema a request body refers to (`NewPlant`). */
function bodySchemaName(document: OpenApiDocument, operation: ContractOperation, body: RequestBodyObject): string {
  const types = Object.keys(body.content)
  const schema = body.content['application/json']?.schema
  if (types.length !== 1 || schema === undefined || !isReference(schema)) {
    throw new Error(
      `contracts/openapi.yaml: the request body of ${operation.operationId} must be application/json only, with a $ref to a component schema`,
    )
  }
  resolve(document, schema)
  return schema.$ref.replace('#/components/schemas/', '')
}

/**
 * `contract-inputs.ts`: every operation's parameters and body, and the
 * component schemas the bodies name, reduced to what the core enforces.
 */
export function generateInputs(document: OpenApiDocument, banner: string): string {
  const schemaNames = new Set<string>()
  const operations = operationsOf(document).map((operation) => {
    const { operationId, operation: object, parameters } = operation
    const body = object.requestBody === undefined ? undefined : resolve(document, object.requestBody)
    const schemaName = body && bodySchemaName(document, operation, body)
    if (schemaName) schemaNames.add(schemaName)
    return [
      operationId,
      {
        parameters: parameters.map(({ name, in: place, required, schema }) => {
          const where = `the ${place} parameter "${name}" of ${operationId}`
          if (schema === undefined) throw new Error(`contracts/openapi.yaml: ${where} has no schema`)
          return {
            name,
            in: place,
            required: required ?? false,
            schema: reduced(document, schema, where, parameterTypes),
          }
        }),
        body: body ? { schema: schemaName, required: body.required ?? false } : null,
      },
    ]
  })
  const schemas = [...schemaNames].map((name) => [
    name,
    reduced(document, { $ref: `#/components/schemas/${name}` }, `the schema ${name}`, []),
  ])
  const data = { operations: Object.fromEntries(operations), schemas: Object.fromEntries(schemas) }
  return `${banner}/**
 * Every operation's inputs as the contract declares them (parameters with
 * their place and schema, the body's schema by name) and the schemas of the
 * bodies, reduced to what the core enforces: what src/core/inputs.ts checks
 * every request against.
 */
export const contractInputs = ${JSON.stringify(data, null, 2)} as const
`
}
