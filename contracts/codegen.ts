/**
 * Generates `src/generated/*` from `contracts/openapi.yaml`: the request and
 * response types (openapi-typescript), the contract's numbers (scopes,
 * ranges, lengths, body size, quota) that the core enforces, and the whole
 * document as data, which the conformance command validates answers against
 * (no YAML to find and parse at run time, in the package or the CLI bundle).
 * From `contracts/sandbox.openapi.yaml`, the sandbox control API's contract:
 * its types, its operations, and the document as data with its references
 * into `contracts/openapi.yaml` resolved (what `GET /__sandbox/openapi.json`
 * serves).
 *
 * Run `npm run generate` after editing a contract; `test/contract/openapi.test.ts`
 * fails while the committed files are stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import { parse } from 'yaml'

const contractUrl = new URL('./openapi.yaml', import.meta.url)
const sandboxContractUrl = new URL('./sandbox.openapi.yaml', import.meta.url)
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
  parameters?: Array<{ name: string; in: string; schema: Schema } | { $ref: string }>
  requestBody?: { 'x-max-body-bytes'?: number }
}

interface Document {
  info: { version: string }
  paths: Record<string, Record<string, Operation>>
  components: {
    parameters: Record<string, { name: string; in: string; schema: Schema }>
    securitySchemes: { bearerAuth: { 'x-scopes': Record<string, string> } }
    schemas: Record<string, Schema>
    responses: Record<string, { 'x-default-quota'?: number }>
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`contracts/openapi.yaml does not state ${what}`)
  return value
}

/** Every operation of the contract, whatever its path and method. */
function allOperations(document: Document): Operation[] {
  return Object.values(document.paths).flatMap((methods) => Object.values(methods))
}

/** The schema of a parameter by name and place, wherever the contract declares it (the first one found). */
function parameter(document: Document, name: string, place: 'path' | 'query'): Schema {
  const resolved = allOperations(document).flatMap((operation) =>
    (operation.parameters ?? []).map((p) =>
      '$ref' in p ? document.components.parameters[p.$ref.replace('#/components/parameters/', '')] : p,
    ),
  )
  const found = resolved.find((p) => p?.name === name && p.in === place)
  return required(found?.schema, `the "${name}" ${place} parameter`)
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
  const newPlant = required(document.components.schemas.NewPlant?.properties, 'NewPlant')
  const name = required(newPlant.name, 'NewPlant.name')
  const tag = required(newPlant.tag, 'NewPlant.tag')
  const id = required(newPlant.id, 'NewPlant.id')
  const pathId = parameter(document, 'id', 'path')
  const limit = parameter(document, 'limit', 'query')
  const bodyLimits = allOperations(document).flatMap(({ requestBody }) => requestBody?.['x-max-body-bytes'] ?? [])

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
    maxBodyBytes: required(bodyLimits[0], 'x-max-body-bytes'),
    defaultQuota: required(document.components.responses.QuotaExceeded?.['x-default-quota'], 'x-default-quota'),
  }

  return {
    ...(await generateSandbox(document)),
    'openapi.ts': banner + types,
    'contract.ts': `${banner}/** The numbers and scopes of the contract, as the core enforces them. */\nexport const contract = ${JSON.stringify(constants, null, 2)} as const\n`,
    'contract-document.ts': `${banner}/** contracts/openapi.yaml as data: what the conformance rules validate answers against. */\nexport const contractDocument = ${JSON.stringify(document, null, 2)}\n`,
  }
}

const sandboxBanner = '// Generated from contracts/sandbox.openapi.yaml by contracts/codegen.ts. Do not edit.\n'

/** Where the sandbox contract points into the Plant Store's: `./openapi.yaml#/components/…`. */
const plantStoreRef = './openapi.yaml#'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** The value at a JSON pointer (`/components/schemas/Error`) of a document. */
function pointed(document: Json, pointer: string, what: string): Json {
  let node: Json | undefined = document
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~')
    node = node !== null && typeof node === 'object' && !Array.isArray(node) ? node[key] : undefined
  }
  return required(node, what)
}

/**
 * The sandbox contract with every reference into `contracts/openapi.yaml`
 * resolved, so that it stands alone (served as JSON, typed, validated). A
 * component that is only such a reference (`schemas.Error: {$ref:
 * ./openapi.yaml#/components/schemas/Error}`) is copied in once, and every
 * other reference to the same target, in the sandbox contract or inside
 * what is copied, points at that component: one definition, no copies.
 */
function resolvePlantStoreRefs(sandbox: Json, plantStore: Json): Json {
  const aliases = new Map<string, string>()
  const components = pointed(sandbox, '/components', 'components')
  for (const [kind, entries] of Object.entries(components as Record<string, Json>)) {
    for (const [name, value] of Object.entries(entries as Record<string, Json>)) {
      const ref = (value as { $ref?: Json }).$ref
      if (typeof ref === 'string' && ref.startsWith(plantStoreRef)) {
        aliases.set(ref.slice(plantStoreRef.length), `#/components/${kind}/${name}`)
      }
    }
  }
  /** Copies a node; `local` says whether its internal refs are the sandbox contract's (else the Plant Store's). */
  const copy = (node: Json, local: boolean, at: string): Json => {
    if (Array.isArray(node)) return node.map((item, index) => copy(item, local, `${at}/${index}`))
    if (node === null || typeof node !== 'object') return node
    const ref = node.$ref
    if (typeof ref === 'string' && (!local || ref.startsWith(plantStoreRef))) {
      const pointer = local ? ref.slice(plantStoreRef.length) : ref.slice(1)
      const alias = aliases.get(pointer)
      if (alias !== undefined && alias.slice(1) !== at) return { $ref: alias }
      return copy(pointed(plantStore, pointer, `${ref} (from the sandbox contract)`), false, at)
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, copy(value, local, `${at}/${key}`)]))
  }
  return copy(sandbox, true, '')
}

interface SandboxDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string
        'x-required-scopes'?: string[]
        parameters?: Array<{ in: string; name: string }>
      }
    >
  >
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** The sandbox contract's generated files, given the Plant Store's document it refers to. */
async function generateSandbox(plantStore: Document): Promise<Record<string, string>> {
  const sandbox = resolvePlantStoreRefs(
    parse(await readFile(sandboxContractUrl, 'utf8')) as Json,
    plantStore as unknown as Json,
  )
  const types = astToString(await openapiTS(JSON.stringify(sandbox)))
  const { paths } = sandbox as unknown as SandboxDocument
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => httpMethods.has(method))
      .map(([method, op]) => [
        required(op.operationId, `the operationId of ${method.toUpperCase()} ${path}`),
        {
          method: method.toUpperCase(),
          path,
          scopes: required(op['x-required-scopes'], `the x-required-scopes of ${method.toUpperCase()} ${path}`),
          query: (op.parameters ?? []).filter((parameter) => parameter.in === 'query').map(({ name }) => name),
        },
      ]),
  )
  return {
    'sandbox-openapi.ts': sandboxBanner + types,
    'sandbox-contract.ts': `${sandboxBanner}/** The sandbox control API's operations: method, path as clients call it, scopes, query parameters. */\nexport const sandboxContract = ${JSON.stringify({ operations: Object.fromEntries(operations) }, null, 2)} as const\n`,
    'sandbox-contract-document.ts': `${sandboxBanner}/** contracts/sandbox.openapi.yaml as data, its references into contracts/openapi.yaml resolved: what GET /__sandbox/openapi.json serves. */\nexport const sandboxContractDocument = ${JSON.stringify(sandbox, null, 2)}\n`,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, contents] of Object.entries(await generate())) {
    await writeFile(new URL(file, generatedDir), contents)
  }
  // The default world's plants (not from a contract): see fixtures/codegen.ts.
  const { generateFixtures } = await import('../fixtures/codegen.ts')
  for (const [file, contents] of Object.entries(generateFixtures())) {
    await writeFile(new URL(file, generatedDir), contents)
  }
}
