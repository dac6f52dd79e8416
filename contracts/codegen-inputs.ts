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

/** The keywords of a schema that the core enforces, and the ones that shape it; no others are generated. */
const kept = ['type', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'enum', 'nullable'] as const

/** The types the core parses a parameter or a body field as (`src/core/inputs.ts`). */
const parameterTypes = ['integer', 'string']
const fieldTypes = ['integer', 'string']

/** A schema reduced to what the core enforces, `$ref`s resolved (an object's properties too). */
function reduced(document: OpenApiDocument, value: SchemaObject | Reference, where: string, types: string[]): Json {
  const schema = resolve(document, value)
  const type = schema.type
  if (type === 'object' && types.length === 0) {
    const properties = Object.entries(schema.properties ?? {}).map(([field, property]) => [
      field,
      reduced(document, property, `${where}, field "${field}"`, fieldTypes),
    ])
    return { type, required: [...(schema.required ?? [])], properties: Object.fromEntries(properties) }
  }
  if (typeof type !== 'string' || !types.includes(type)) {
    throw new Error(
      `contracts/openapi.yaml: ${where} has the type ${JSON.stringify(type)}, which src/core/inputs.ts cannot check (it checks ${types.join(', ')}): add a parser for it there`,
    )
  }
  return Object.fromEntries(kept.flatMap((key) => (schema[key] === undefined ? [] : [[key, schema[key] as Json]])))
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
