/**
 * Generates the sandbox control API's files from `contracts/sandbox.openapi.yaml` (called by
 * `contracts/codegen.ts`): its types, its operations, its client, and the document as data with its references
 * into `contracts/openapi.yaml` resolved and the HEAD of each GET derived (what `GET /__sandbox/openapi.json`
 * serves).
 */
import { readFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import { parse } from 'yaml'
import { atPointer, type OpenApiDocument, operationsOf, responseHeaderNames } from '../src/core/openapi.ts'
import { generateClient } from './codegen-client.ts'
import { bannerOf, type Json, required } from './codegen-shared.ts'
import { fillPlantStoreRoutes } from './sandbox-routes.ts'

const sandboxContractUrl = new URL('./sandbox.openapi.yaml', import.meta.url)

const sandboxBanner = bannerOf('contracts/sandbox.openapi.yaml')

/** Where the sandbox contract points into the Plant Store's: `./openapi.yaml#/components/…`. */
const plantStoreRef = './openapi.yaml#'

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
export async function generateSandbox(plantStore: OpenApiDocument): Promise<Record<string, string>> {
  const sandbox = deriveHeads(
    resolvePlantStoreRefs(
      fillPlantStoreRoutes(parse(await readFile(sandboxContractUrl, 'utf8')), plantStore) as Json,
      plantStore as unknown as Json,
    ),
  )
  const types = astToString(await openapiTS(JSON.stringify(sandbox)))
  const found = operationsOf(sandbox as unknown as OpenApiDocument)
  const operations = found.map(({ operationId, method, path, operation, parameters }) => [
    operationId,
    {
      method,
      path,
      scopes: required(operation['x-required-scopes'], `the x-required-scopes of ${method} ${path}`),
      query: parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name),
      body: operation.requestBody !== undefined,
    },
  ])
  const responseHeaders = responseHeaderNames(sandbox as unknown as OpenApiDocument)
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
    'sandbox-contract.ts': `${sandboxBanner}/** The sandbox control API's operations: method, path as clients call it, scopes, query parameters, whether it takes a body; and the response headers it declares. */\nexport const sandboxContract = ${JSON.stringify({ operations: Object.fromEntries(operations), responseHeaders }, null, 2)} as const\n\n/** What the CORS policy needs of it alone (its methods, each once, and its response headers), so that a page's worker mock loads no more. */\nexport const sandboxCors = ${JSON.stringify({ methods: [...new Set(found.map(({ method }) => method))], responseHeaders }, null, 2)} as const\n`,
    'sandbox-contract-document.ts': `${sandboxBanner}/** contracts/sandbox.openapi.yaml as data, its references into contracts/openapi.yaml resolved: what GET /__sandbox/openapi.json serves. */\nexport const sandboxContractDocument = ${JSON.stringify(sandbox, null, 2)}\n`,
  }
}
