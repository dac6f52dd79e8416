/**
 * Generates `src/generated/contract.ts` (called by `contracts/codegen.ts`): the contract's version, scopes and
 * operations (method, path, scopes), each `NewPlant` field's bounds, the body size and the default quota: the
 * numbers the core and the sandbox read. The parameters' schemas are `contract-inputs.ts`'s.
 */
import { type OpenApiDocument, operationsOf, resolve, type SchemaObject } from '../src/core/openapi.ts'
import { required } from './codegen-shared.ts'

/** The contract's extensions that codegen reads, beyond OpenAPI itself. */
export interface Document extends OpenApiDocument {
  readonly components: {
    readonly securitySchemes: { readonly bearerAuth: { readonly 'x-scopes': Record<string, string> } }
    readonly schemas: Record<string, SchemaObject>
    readonly responses: Record<string, { readonly 'x-default-quota'?: number }>
  }
}

/** The bounds of a schema that the core enforces, those the schema states and no others. */
const boundKeys = ['minimum', 'maximum', 'minLength', 'maxLength'] as const

function boundsOf(schema: SchemaObject): Partial<Record<(typeof boundKeys)[number], number>> {
  return Object.fromEntries(boundKeys.flatMap((key) => (schema[key] === undefined ? [] : [[key, schema[key]]])))
}

/**
 * The contents of `contract.ts`.
 *
 * @example
 * generateConstants(document, banner) // '// Generated … export const contract = { "version": "1.0.0", …'
 */
export function generateConstants(document: Document, banner: string): string {
  const operations = operationsOf(document)
  // Each property of NewPlant with the bounds the core enforces on it: a new field of the body comes out here by
  // itself; a field named like one of the other constants below is refused. Parameters are contract-inputs.ts's.
  const newPlant = required(document.components.schemas.NewPlant?.properties, 'NewPlant')
  const fields = Object.fromEntries(
    Object.entries(newPlant).map(([field, schema]) => [field, boundsOf(resolve(document, schema))]),
  )
  const bodyLimits = operations.flatMap(({ operation }) =>
    operation.requestBody ? (resolve(document, operation.requestBody)['x-max-body-bytes'] ?? []) : [],
  )

  const others = {
    version: document.info.version,
    scopes: Object.keys(required(document.components.securitySchemes.bearerAuth['x-scopes'], 'x-scopes')),
    operations: Object.fromEntries(
      operations.map(({ operationId, method, path, scopes }) => [operationId, { method, path, scopes }]),
    ),
    maxBodyBytes: required(bodyLimits[0], 'x-max-body-bytes'),
    defaultQuota: required(document.components.responses.QuotaExceeded?.['x-default-quota'], 'x-default-quota'),
  }
  const clash = Object.keys(fields).find((field) => Object.hasOwn(others, field))
  const constants = { ...others, ...fields }
  if (clash)
    throw new Error(`NewPlant's field "${clash}" clashes with a generated constant: rename the constant in codegen`)

  return `${banner}/** The numbers and scopes of the contract, as the core enforces them. */\nexport const contract = ${JSON.stringify(constants, null, 2)} as const\n`
}
