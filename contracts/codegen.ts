/**
 * Generates `src/generated/*` from `contracts/openapi.yaml`: the request and
 * response types (openapi-typescript), the contract's numbers (scopes,
 * ranges, lengths, body size, quota) that the core enforces, and the whole
 * document as data, which the conformance command validates answers against
 * (no YAML to find and parse at run time, in the package or the CLI bundle).
 *
 * Run `npm run generate` after editing the contract; `test/contract/codegen.test.ts`
 * fails while the committed files are stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import { parse } from 'yaml'

const contractUrl = new URL('./openapi.yaml', import.meta.url)
const generatedDir = new URL('../src/generated/', import.meta.url)

const banner = '// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.\n'

interface Schema {
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  properties?: Record<string, Schema>
}

interface Operation {
  operationId: string
  'x-required-scopes': string[]
  parameters?: Array<{ name: string; schema: Schema } | { $ref: string }>
  requestBody?: { 'x-max-body-bytes'?: number }
}

interface Document {
  info: { version: string }
  paths: Record<string, Record<string, Operation>>
  components: {
    parameters: Record<string, { name: string; schema: Schema }>
    securitySchemes: { bearerAuth: { 'x-scopes': Record<string, string> } }
    schemas: Record<string, Schema>
    responses: Record<string, { 'x-default-quota'?: number }>
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`contracts/openapi.yaml does not state ${what}`)
  return value
}

function parameter(document: Document, operation: Operation | undefined, name: string): Schema {
  const resolved = (operation?.parameters ?? []).map((p) =>
    '$ref' in p ? document.components.parameters[p.$ref.replace('#/components/parameters/', '')] : p,
  )
  const found = resolved.find((p) => p?.name === name)
  return required(found?.schema, `the "${name}" parameter`)
}

/** Returns the generated files as `{ fileName: contents }`, without writing them. */
export async function generate(): Promise<Record<string, string>> {
  const text = await readFile(contractUrl, 'utf8')
  const document = parse(text) as Document

  const types = astToString(await openapiTS(text))

  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      scopes: op['x-required-scopes'],
    })),
  )
  const list = document.paths['/plants']?.get
  const create = document.paths['/plants']?.post
  const remove = document.paths['/plants/{id}']?.delete
  const newPlant = required(document.components.schemas.NewPlant?.properties, 'NewPlant')
  const name = required(newPlant.name, 'NewPlant.name')
  const tag = required(newPlant.tag, 'NewPlant.tag')
  const id = required(newPlant.id, 'NewPlant.id')
  const pathId = parameter(document, remove, 'id')
  const limit = parameter(document, list, 'limit')

  const constants = {
    version: document.info.version,
    scopes: Object.keys(required(document.components.securitySchemes.bearerAuth['x-scopes'], 'x-scopes')),
    operations: Object.fromEntries(operations.map(({ operationId, ...rest }) => [operationId, rest])),
    name: {
      minLength: required(name.minLength, 'name.minLength'),
      maxLength: required(name.maxLength, 'name.maxLength'),
    },
    tag: { maxLength: required(tag.maxLength, 'tag.maxLength') },
    id: { minimum: required(id.minimum, 'id.minimum'), maximum: required(id.maximum, 'id.maximum') },
    pathId: {
      minimum: required(pathId.minimum, 'path id minimum'),
      maximum: required(pathId.maximum, 'path id maximum'),
    },
    limit: { minimum: required(limit.minimum, 'limit.minimum'), maximum: required(limit.maximum, 'limit.maximum') },
    maxBodyBytes: required(create?.requestBody?.['x-max-body-bytes'], 'x-max-body-bytes'),
    defaultQuota: required(document.components.responses.QuotaExceeded?.['x-default-quota'], 'x-default-quota'),
  }

  return {
    'openapi.ts': banner + types,
    'contract.ts': `${banner}/** The numbers and scopes of the contract, as the core enforces them. */\nexport const contract = ${JSON.stringify(constants, null, 2)} as const\n`,
    'contract-document.ts': `${banner}/** contracts/openapi.yaml as data: what the conformance rules validate answers against. */\nexport const contractDocument = ${JSON.stringify(document, null, 2)}\n`,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, contents] of Object.entries(await generate())) {
    await writeFile(new URL(file, generatedDir), contents)
  }
}
