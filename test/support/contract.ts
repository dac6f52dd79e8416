/**
 * Checks answers against the contracts: `contracts/openapi.yaml` for the
 * Plant Store API, `contracts/sandbox.openapi.yaml` (as generated, its
 * references resolved) for everything below `/__sandbox`. The status is one
 * the operation declares, the declared headers are there and match, and the
 * body matches the declared schema (ajv). Answers the Plant Store contract
 * cannot attach to an operation (unknown path, 405, simulated statuses) are
 * checked against the `Error` schema alone with {@link expectErrorBody}; the
 * sandbox contract declares those too (its `NotFound` and `MethodNotAllowed`
 * responses), so every sandbox answer is checked whole.
 */
import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { expect } from 'vitest'
import { parse } from 'yaml'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'

interface Header {
  required?: boolean
  schema: Record<string, unknown>
}
interface ResponseSpec {
  content?: Record<string, { schema: Record<string, unknown> }>
  headers?: Record<string, Header | { $ref: string }>
  $ref?: string
}
interface Operation {
  operationId: string
  responses: Record<string, ResponseSpec>
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>
  components: Record<string, Record<string, unknown>>
}

export const openapi = parse(
  readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8'),
) as OpenApiDocument

/** The sandbox control API's contract, as `GET /__sandbox/openapi.json` serves it. */
export const sandboxOpenapi = sandboxContractDocument as unknown as OpenApiDocument

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** One contract's checks: its schemas compiled by an ajv of its JSON Schema dialect. */
class Contract {
  readonly document: OpenApiDocument
  readonly ajv: Ajv | Ajv2020
  readonly #compiled = new Map<string, ValidateFunction>()
  readonly #key: string

  constructor(document: OpenApiDocument, ajv: Ajv | Ajv2020, key: string) {
    this.document = document
    this.ajv = ajv
    this.#key = key
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 })
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
    ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)) && /^\d{4}-\d\d-\d\dT/.test(text))
    ajv.addSchema({ components: document.components }, key)
  }

  validator(schema: Record<string, unknown>): ValidateFunction {
    const text = JSON.stringify(schema)
    let validate = this.#compiled.get(text)
    if (!validate) {
      // Rewrite local refs so they resolve inside the registered document.
      validate = this.ajv.compile(JSON.parse(text.replaceAll('"#/components/', `"${this.#key}#/components/`)))
      this.#compiled.set(text, validate)
    }
    return validate
  }

  resolve<T>(value: T | { $ref: string }): T {
    if (value && typeof value === 'object' && '$ref' in value) {
      let node: unknown = this.document
      for (const part of value.$ref.replace('#/', '').split('/')) node = (node as Record<string, unknown>)[part]
      return this.resolve(node as T | { $ref: string })
    }
    return value as T
  }

  /** The contract path template for a concrete path, e.g. `/plants/7` → `/plants/{id}`. */
  templateOf(path: string): string | undefined {
    return Object.keys(this.document.paths).find((template) =>
      new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    )
  }

  /** Asserts a response's declared headers: each required one present, each present one valid. */
  expectHeaders(what: string, response: ResponseSpec, answer: Answer): void {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const resolved = this.resolve(header)
      const value = answer.headers.get(name)
      if (resolved.required) expect(value, `${what}: header ${name} on ${answer.status}`).not.toBeNull()
      if (value !== null) {
        const validate = this.validator(resolved.schema)
        const parsed = resolved.schema.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value
        expect(validate(parsed), `${what}: header ${name}: ${value} ${this.ajv.errorsText(validate.errors)}`).toBe(true)
      }
    }
  }

  /** Asserts that an answer matches a response of the contract: its headers, and its body (none for HEAD). */
  expectResponse(what: string, spec: ResponseSpec | { $ref: string }, answer: Answer, head = false): void {
    const response = this.resolve(spec)
    this.expectHeaders(what, response, answer)
    if (!response.content || head) {
      expect(answer.text, `${what}: ${answer.status} must have no body`).toBe('')
      return
    }
    const contentType = (answer.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? ''
    const media = response.content[contentType]
    expect(media, `${what}: ${answer.status} is not declared as ${contentType}`).toBeDefined()
    if (contentType !== 'application/json') return
    const validate = this.validator(media!.schema)
    const body: unknown = JSON.parse(answer.text)
    expect(
      validate(body),
      `${what}: ${answer.status} body ${answer.text}: ${this.ajv.errorsText(validate.errors)}`,
    ).toBe(true)
  }
}

const plantStore = new Contract(openapi, new Ajv({ strict: false, allErrors: true }), 'openapi')
const sandbox = new Contract(sandboxOpenapi, new Ajv2020({ strict: false, allErrors: true }), 'sandbox')

export interface Answer {
  status: number
  headers: Headers
  text: string
}

/** Reads a fetch `Response` once into an {@link Answer}. */
export async function read(response: Response): Promise<Answer> {
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** The prefix of the sandbox control API's paths. */
export const sandboxPrefix = '/__sandbox'

/**
 * Asserts that the answer to `method url` is one the contract declares,
 * with its headers and body schema. A URL whose path holds `/__sandbox` (at
 * any mount point) is checked against the sandbox control API's contract,
 * every other one against the Plant Store's.
 */
export function expectToMatchContract(method: string, url: string, answer: Answer): void {
  const pathname = new URL(url, 'http://127.0.0.1').pathname
  const at = pathname.indexOf(sandboxPrefix)
  if (at !== -1) {
    expectToMatchSandboxContract(method, pathname.slice(at), answer)
    return
  }
  const path = pathname.replace(/^.*(?=\/plants)/, '')
  const template = plantStore.templateOf(path)
  expect(template, `no contract path for ${path}`).toBeDefined()
  const operation = openapi.paths[template!]?.[method.toLowerCase()]
  expect(operation, `no contract operation ${method} ${template}`).toBeDefined()
  const spec = operation!.responses[String(answer.status)]
  expect(spec, `${operation!.operationId} does not declare status ${answer.status}: ${answer.text}`).toBeDefined()
  plantStore.expectResponse(operation!.operationId, spec!, answer)
}

/**
 * Asserts an answer made up instead of the operation (a fault rule's status,
 * `Prefer: code`) as the contract would any answer: exactly as
 * {@link expectToMatchContract} when the operation declares its status;
 * otherwise an Error body (no body for HEAD) carrying every header the
 * contract requires of that status on any operation (a 503's `Retry-After`).
 */
export function expectMadeUpAnswerToMatchContract(method: string, url: string, answer: Answer): void {
  const path = new URL(url, 'http://127.0.0.1').pathname.replace(/^.*(?=\/plants)/, '')
  const operation = openapi.paths[plantStore.templateOf(path) ?? '']?.[method.toLowerCase()]
  expect(operation, `no contract operation ${method} ${path}`).toBeDefined()
  if (operation!.responses[String(answer.status)]) {
    expectToMatchContract(method, url, answer)
    return
  }
  if (method === 'HEAD') expect(answer.text, `${answer.status} to HEAD must have no body`).toBe('')
  else expectErrorBody(answer, answer.status)
  for (const operations of Object.values(openapi.paths)) {
    for (const { operationId, responses } of Object.values(operations)) {
      const declared = responses[String(answer.status)]
      if (declared) plantStore.expectHeaders(operationId, plantStore.resolve(declared), answer)
    }
  }
}

/** What the checker needs to know of a request besides its method and path. */
export interface SandboxRequest {
  /** Its `Origin` header: a web page's request, which the sandbox may refuse (403) before any route. */
  origin?: string | undefined
}

/**
 * The live inspector's page (`/__sandbox` redirects to `/__sandbox/`) and its
 * files, served for GET and HEAD beside the control API; any other method
 * there is the API's 404.
 */
const inspectorFiles = new Set(['/__sandbox', '/__sandbox/', '/__sandbox/inspector.js', '/__sandbox/inspector.css'])

/**
 * Asserts that an answer of the sandbox control API (`path` starting at
 * `/__sandbox`, with or without its query) is one its contract declares: an operation's status,
 * headers and body; for a path it does not list, its 404; for a method the
 * path does not have, its 405 with `Allow` naming the path's methods (HEAD
 * among them or not: HEAD may be derived from GET). A HEAD of a path with
 * GET but no declared HEAD is checked as that GET, without a body. The live
 * inspector's page and files are not the API's: only their status is checked;
 * nor are CORS preflights (`OPTIONS`), nor the 403 a web origin the sandbox
 * does not list gets for anything but GET and HEAD (its `ForeignOrigin`).
 */
export function expectToMatchSandboxContract(
  method: string,
  path: string,
  answer: Answer,
  request: SandboxRequest = {},
): void {
  const what = `${method} ${path}`
  const bare = path.split('?')[0] ?? path
  const components = sandboxOpenapi.components.responses as Record<string, ResponseSpec>
  if ((method === 'GET' || method === 'HEAD') && inspectorFiles.has(bare)) {
    // The live inspector's page and files are no part of the API (nor of its contract).
    expect([200, 308], `${what}: the inspector's ${bare}`).toContain(answer.status)
    return
  }
  if (method === 'OPTIONS') {
    // A CORS preflight, answered by the CORS layer: 204 for a listed origin, else 403 with an Error body.
    expect([204, 403], `${what}: a preflight`).toContain(answer.status)
    if (answer.status === 403) sandbox.expectResponse(what, components.ForeignOrigin!, answer)
    return
  }
  if (request.origin !== undefined && method !== 'GET' && method !== 'HEAD' && answer.status === 403) {
    sandbox.expectResponse(`${what} from ${request.origin}`, components.ForeignOrigin!, answer)
    return
  }
  const template = sandbox.templateOf(bare)
  if (template === undefined) {
    expect(answer.status, `${what}: no sandbox contract path, so it must be a 404: ${answer.text}`).toBe(404)
    sandbox.expectResponse(what, components.NotFound!, answer, method === 'HEAD')
    return
  }
  const item = sandboxOpenapi.paths[template]!
  const declared = httpMethods.filter((name) => Object.hasOwn(item, name))
  const lower = method.toLowerCase()
  const derivedHead = lower === 'head' && !declared.includes('head') && declared.includes('get')
  const operation = item[lower] ?? (derivedHead ? item.get : undefined)
  const spec = operation?.responses[String(answer.status)]
  if (!spec && (!operation || derivedHead) && answer.status === 405) {
    sandbox.expectResponse(what, components.MethodNotAllowed!, answer, method === 'HEAD')
    const allow = new Set((answer.headers.get('allow') ?? '').split(', '))
    for (const name of declared)
      expect(allow, `${what}: Allow must name ${name.toUpperCase()}`).toContain(name.toUpperCase())
    const allowed = new Set([
      ...declared.map((name) => name.toUpperCase()),
      ...(declared.includes('get') ? ['HEAD'] : []),
    ])
    for (const name of allow)
      expect(allowed, `${what}: Allow names ${name}, which the contract does not`).toContain(name)
    return
  }
  expect(
    operation,
    `${what}: the sandbox contract has no ${method} ${template} (status ${answer.status})`,
  ).toBeDefined()
  expect(
    spec,
    `${what}: ${operation!.operationId} does not declare status ${answer.status}: ${answer.text}`,
  ).toBeDefined()
  sandbox.expectResponse(`${what} (${operation!.operationId})`, spec!, answer, method === 'HEAD')
}

/**
 * Whether a request body or query value is one the sandbox contract accepts
 * for this schema (e.g. `#/components/schemas/FaultRuleInput`), with ajv's
 * errors when it is not.
 */
export function sandboxSchemaAccepts(ref: string, value: unknown): { ok: boolean; errors: string } {
  const validate = sandbox.validator({ $ref: ref })
  const ok = validate(value) === true
  return { ok, errors: sandbox.ajv.errorsText(validate.errors) }
}

/** Asserts an Error body (`{ error: status, message }`, JSON) with this status. */
export function expectErrorBody(answer: Answer, status: number): void {
  expect(answer.status).toBe(status)
  expect(answer.headers.get('content-type')?.split(';')[0]).toBe('application/json')
  const body: unknown = JSON.parse(answer.text)
  const validate = plantStore.validator({ $ref: '#/components/schemas/Error' })
  expect(validate(body), plantStore.ajv.errorsText(validate.errors)).toBe(true)
  expect((body as { error: number }).error).toBe(status)
  expect((body as { message: string }).message.length).toBeGreaterThan(0)
}
