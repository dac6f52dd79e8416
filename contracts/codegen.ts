/**
 * Generates `src/generated/*` from `contracts/openapi.yaml`: the request and
 * response types (openapi-typescript), the contract's numbers (scopes,
 * ranges, lengths, body size, quota) that the core enforces, and the whole
 * document as data, which the conformance command validates answers against
 * (no YAML to find and parse at run time, in the package or the CLI bundle).
 * From `contracts/sandbox.openapi.yaml`, the sandbox control API's contract:
 * its types, its operations, and the document as data with its references
 * into `contracts/openapi.yaml` resolved and the HEAD of each GET derived
 * (what `GET /__sandbox/openapi.json` serves).
 *
 * Run `npm run generate` after editing a contract; `test/openapi/openapi.test.ts`
 * fails while the committed files are stale.
 */
import { readFile, writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import { parse } from 'yaml'
import {
  atPointer,
  type OpenApiDocument,
  type OperationObject,
  operationsOf,
  type ResponseObject,
  resolve,
  type SchemaObject,
} from '../src/core/openapi.ts'
import { generateAnswers } from './codegen-answers.ts'
import { generateInputs } from './codegen-inputs.ts'
import { fillPlantStoreRoutes } from './sandbox-routes.ts'

const contractUrl = new URL('./openapi.yaml', import.meta.url)
const sandboxContractUrl = new URL('./sandbox.openapi.yaml', import.meta.url)
const generatedDir = new URL('../src/generated/', import.meta.url)

/** The first line of every file generated from a contract. */
const bannerOf = (contractFile: string) => `// Generated from ${contractFile} by contracts/codegen.ts. Do not edit.\n`
const banner = bannerOf('contracts/openapi.yaml')

/** The contract's extensions that codegen reads, beyond OpenAPI itself. */
interface Document extends OpenApiDocument {
  readonly components: {
    readonly securitySchemes: { readonly bearerAuth: { readonly 'x-scopes': Record<string, string> } }
    readonly schemas: Record<string, SchemaObject>
    readonly responses: Record<string, { readonly 'x-default-quota'?: number }>
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`contracts/openapi.yaml does not state ${what}`)
  return value
}

/** The bounds of a schema that the core enforces, those the schema states and no others. */
const boundKeys = ['minimum', 'maximum', 'minLength', 'maxLength'] as const

function boundsOf(schema: SchemaObject): Partial<Record<(typeof boundKeys)[number], number>> {
  return Object.fromEntries(boundKeys.flatMap((key) => (schema[key] === undefined ? [] : [[key, schema[key]]])))
}

/** Returns the generated files as `{ fileName: contents }`, without writing them. */
export async function generate(): Promise<Record<string, string>> {
  const text = await readFile(contractUrl, 'utf8')
  const document = parse(text) as Document

  // Each component schema also as a type of its own name (`Plant`, `NewPlant`): the one declaration every module imports.
  const types = astToString(await openapiTS(text, { rootTypes: true, rootTypesNoSchemaPrefix: true }))

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

  return {
    ...(await generateSandbox(document)),
    'plant-store-client.ts': generateClient(document, {
      className: 'PlantStoreClient',
      optionsName: 'PlantStoreClientOptions',
      contractFile: 'contracts/openapi.yaml',
      typesModule: './openapi.ts',
      doc: [
        'A small typed client of the Plant Store API: one method per operation of',
        '`contracts/openapi.yaml`, its types generated from it. It is what the',
        'example app and the Pact consumer tests drive.',
        '',
        '@example',
        "const client = new PlantStoreClient({ baseUrl: 'http://127.0.0.1:4010', token: 'psm_acme_write' })",
        "await client.addPlant({ id: 100, name: 'Fern', tag: 'fern' })",
        'const plants = await client.listPlants({ limit: 10 })',
      ],
    }),
    'openapi.ts': banner + types,
    'contract.ts': `${banner}/** The numbers and scopes of the contract, as the core enforces them. */\nexport const contract = ${JSON.stringify(constants, null, 2)} as const\n`,
    'contract-answers.ts': generateAnswers(document, banner),
    'contract-inputs.ts': generateInputs(document, banner),
    'contract-document.ts': `${banner}/** contracts/openapi.yaml as data: what the conformance rules validate answers against. */\nexport const contractDocument = ${JSON.stringify(document, null, 2)}\n`,
  }
}

/** The generated clients' private helpers, each emitted only where a method uses it. */
const tokenMethod = `  #token(scopes: readonly string[]): string | undefined {
    const { token } = this.#options
    return typeof token === 'function' ? token(scopes) : token
  }`

const headersMethod = `  #headers(headers: Record<string, string | undefined>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
  }`

/** What a generated client is: its class, its options' name, and the words of its doc comment. */
interface ClientSpec {
  readonly className: string
  readonly optionsName: string
  /** The contract it comes from, for the banner and the doc comments: `contracts/openapi.yaml`. */
  readonly contractFile: string
  /** The generated types it imports: `./openapi.ts`. */
  readonly typesModule: string
  /** The class's doc comment, a line each (without the comment's stars). */
  readonly doc: readonly string[]
}

/**
 * A client class, one method per operation of the contract named by its
 * operationId, except HEADs (they answer no body) and operations whose answer
 * is not JSON (the inspector's event stream). Each method takes the path
 * parameters in path order, then the body when the operation takes one
 * (optional when the contract says so), then the query when it has one. The
 * operation's security decides what it sends: the bearer token (chosen by the
 * scopes it needs) for `bearerAuth`, the option of an API-key scheme's name in
 * that header (`adminKey` → `X-Admin-Key`). The types are openapi-typescript's;
 * the requests go through the one `contractRequest` of `src/client/request.ts`.
 */
function generateClient(document: OpenApiDocument, spec: ClientSpec): string {
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    { readonly type: string; readonly in?: string; readonly name?: string; readonly description?: string }
  >
  const apiKeys = Object.entries(schemes).filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'header')
  const answersJson = (operation: OperationObject) =>
    Object.entries(operation.responses)
      .filter(([status]) => /^2\d\d$/.test(status))
      .every(([, response]) =>
        Object.keys(resolve<ResponseObject>(document, response).content ?? {}).every(
          (type) => type === 'application/json',
        ),
      )
  const methods = operationsOf(document)
    .filter(({ method, operation }) => method !== 'HEAD' && answersJson(operation))
    .map(({ operationId, method, path, operation, parameters, scopes, security }) => {
      const op = `operations['${operationId}']`
      const pathNames = parameters.filter((p) => p.in === 'path').map(({ name }) => name)
      const query = parameters.filter((p) => p.in === 'query')
      const body = operation.requestBody === undefined ? undefined : resolve(document, operation.requestBody)
      const success = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status))
      const answersBody = success.some(
        (status) => resolve<ResponseObject>(document, operation.responses[status] as ResponseObject).content,
      )
      const bodyType = `NonNullable<${op}['requestBody']>['content']['application/json']`
      const queryType = `NonNullable<${op}['parameters']['query']>`
      const args = [
        ...pathNames.map((name) => `${name}: ${op}['parameters']['path']['${name}']`),
        ...(body ? [body.required ? `body: ${bodyType}` : `body?: ${bodyType}`] : []),
        ...(query.length > 0 ? [`query: ${queryType}${query.some((p) => p.required) ? '' : ' = {}'}`] : []),
      ]
      const keys = apiKeys.filter(([name]) => security.includes(name))
      const request = [
        ...(pathNames.length > 0 ? [`path: { ${pathNames.join(', ')} }`] : []),
        ...(body ? ['body'] : []),
        ...(query.length > 0 ? ['query'] : []),
        ...(security.includes('bearerAuth')
          ? [`token: this.#token([${scopes.map((scope) => `'${scope}'`).join(', ')}])`]
          : []),
        ...(keys.length > 0
          ? [
              `headers: this.#headers({ ${keys.map(([name, { name: header }]) => `'${header}': this.#options.${name}`).join(', ')} })`,
            ]
          : []),
      ]
      const call = `send(this.#options, '${method.toLowerCase()}', '${path}', ${request.length > 0 ? `{ ${request.join(', ')} }` : '{}'})`
      const summary = operation.summary ? `: ${operation.summary}` : ''
      const text = answersBody
        ? `  ${operationId}(${args.join(', ')}): Promise<AnswerOf<${op}>> {\n    return ${call}\n  }`
        : `  async ${operationId}(${args.join(', ')}): Promise<void> {\n    await ${call}\n  }`
      return `  /** \`${method} ${path}\`${summary} */\n${text}`
    })
  const usesToken = methods.some((text) => text.includes('this.#token('))
  const usesHeaders = methods.some((text) => text.includes('this.#headers('))
  const options = [
    ...(Object.keys(schemes).includes('bearerAuth')
      ? [
          '  /** The bearer token, or a function of the scopes an operation needs that returns it (`undefined`: none is sent). */',
          '  token?: string | ((scopes: readonly string[]) => string | undefined)',
        ]
      : []),
    ...apiKeys.flatMap(([name, { name: header }]) => [
      `  /** Sent in \`${header}\` by the operations that take it (\`${name}\`). */`,
      `  ${name}?: string`,
    ]),
  ]
  return `${bannerOf(spec.contractFile)}import { type AnswerOf, type Connection, contractRequest } from '../client/request.ts'
import type { operations, paths } from '${spec.typesModule}'

/** Requests of the operations of \`${spec.contractFile}\`, typed by it. */
const send = contractRequest<paths>()

/** Where {@link ${spec.className}} sends its requests and what it authenticates them with. */
export interface ${spec.optionsName} extends Connection {
${options.join('\n')}
}

/**
${spec.doc.map((line) => ` *${line === '' ? '' : ` ${line}`}`).join('\n')}
 */
export class ${spec.className} {
  readonly #options: ${spec.optionsName}

  constructor(options: ${spec.optionsName}) {
    this.#options = options
  }

${[...methods, ...(usesToken ? [tokenMethod] : []), ...(usesHeaders ? [headersMethod] : [])].join('\n\n')}
}
`
}

const sandboxBanner = bannerOf('contracts/sandbox.openapi.yaml')

/** Where the sandbox contract points into the Plant Store's: `./openapi.yaml#/components/…`. */
const plantStoreRef = './openapi.yaml#'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** The value at a JSON pointer (`/components/schemas/Error`) of a document; throws when there is none. */
function pointed(document: Json, pointer: string, what: string): Json {
  return required(atPointer(document, pointer) as Json | undefined, what)
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

type JsonObject = { [key: string]: Json }

/**
 * Adds to the sandbox contract the HEAD of every path that has a GET and
 * declares no HEAD, as its router answers it: the GET's parameters, security
 * and statuses with their headers, and no body; its operationId is `head` and
 * the GET's (`listRequests` → `headListRequests`). So the document declares
 * every request the sandbox answers, and the YAML states each GET once.
 */
function deriveHeads(sandbox: Json): Json {
  const document = sandbox as JsonObject
  const paths = pointed(sandbox, '/paths', 'paths') as JsonObject
  for (const [path, item] of Object.entries(paths) as Array<[string, JsonObject]>) {
    const get = item.get as JsonObject | undefined
    if (!get || item.head) continue
    const operationId = required(get.operationId as string | undefined, `the operationId of GET ${path}`)
    const responses: JsonObject = {}
    for (const [status, response] of Object.entries(get.responses as JsonObject)) {
      const ref = (response as JsonObject).$ref
      const { description, headers } = (
        typeof ref === 'string' ? pointed(document, ref.slice(1), `${ref} (GET ${path})`) : response
      ) as JsonObject
      responses[status] = {
        description: `As for GET, without the body: ${description}`,
        ...(headers === undefined ? {} : { headers }),
      }
    }
    const { summary: _summary, description: _description, operationId: _id, responses: _responses, ...rest } = get
    item.head = {
      operationId: `head${operationId[0]?.toUpperCase()}${operationId.slice(1)}`,
      summary: `The status and headers of GET ${path}, without the body.`,
      ...rest,
      responses,
    }
  }
  return sandbox
}

/** The sandbox contract's generated files, given the Plant Store's document it refers to. */
async function generateSandbox(plantStore: Document): Promise<Record<string, string>> {
  const sandbox = deriveHeads(
    resolvePlantStoreRefs(
      fillPlantStoreRoutes(parse(await readFile(sandboxContractUrl, 'utf8')), plantStore) as Json,
      plantStore as unknown as Json,
    ),
  )
  const types = astToString(await openapiTS(JSON.stringify(sandbox)))
  const operations = operationsOf(sandbox as unknown as OpenApiDocument).map(
    ({ operationId, method, path, operation, parameters }) => [
      operationId,
      {
        method,
        path,
        scopes: required(operation['x-required-scopes'], `the x-required-scopes of ${method} ${path}`),
        query: parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name),
        body: operation.requestBody !== undefined,
      },
    ],
  )
  return {
    'sandbox-api.ts': generateClient(sandbox as unknown as OpenApiDocument, {
      className: 'SandboxApi',
      optionsName: 'SandboxApiOptions',
      contractFile: 'contracts/sandbox.openapi.yaml',
      typesModule: './sandbox-openapi.ts',
      doc: [
        "The sandbox control API's operations, one method each (named by its",
        'operationId, typed by `contracts/sandbox.openapi.yaml`): what',
        "`SandboxClient` and `SandboxTenant` are made of. A tenant's token goes",
        'with the operations that need its scopes, the admin key with provisioning.',
        '',
        '@example',
        "const api = new SandboxApi({ baseUrl: 'http://127.0.0.1:4010', token: 'psm_acme_write' })",
        "await api.addFault({ method: 'GET', path: '/plants', status: 503, times: 1 })",
        "const { count } = await api.listRequests({ status: '503' })",
      ],
    }),
    'sandbox-openapi.ts': sandboxBanner + types,
    'sandbox-contract.ts': `${sandboxBanner}/** The sandbox control API's operations: method, path as clients call it, scopes, query parameters, whether it takes a body. */\nexport const sandboxContract = ${JSON.stringify({ operations: Object.fromEntries(operations) }, null, 2)} as const\n`,
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
