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
import { expect } from 'vitest'
import { parse } from 'yaml'
import {
  type ContractChecker,
  plantStoreContract,
  sandboxContract,
} from '../../src/contract-testing/contract-checker.ts'
import type { OpenApiDocument, OperationObject } from '../../src/core/openapi.ts'
import { contract } from '../../src/generated/contract.ts'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'

/** A contract as the tests read it: the one typed view, its path items looked up by any method name. */
type Contract = Omit<OpenApiDocument, 'paths' | 'components'> & {
  readonly paths: Readonly<Record<string, Readonly<Record<string, OperationObject | undefined>>>>
  readonly components: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

export const openapi = parse(readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8')) as Contract

/** The sandbox control API's contract, as `GET /__sandbox/openapi.json` serves it. */
export const sandboxOpenapi = sandboxContractDocument as unknown as Contract

/**
 * The path of an operation's own file, `src/core/operations/<operation-id>.ts`;
 * a HEAD's is its GET's (the router answers a HEAD as its GET).
 *
 * @example
 * operationFile('headPlants') // 'src/core/operations/list-plants.ts'
 */
export function operationFile(operationId: string): string {
  const operations: Readonly<Record<string, { method: string; path: string }>> = contract.operations
  const { method, path } = operations[operationId] ?? { method: '', path: '' }
  const get =
    method === 'HEAD' ? Object.entries(operations).find(([, o]) => o.path === path && o.method === 'GET') : undefined
  const id = get?.[0] ?? operationId
  return `src/core/operations/${id.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.ts`
}

/**
 * Asserts that a contract's checker found no problem with an answer of an
 * operation (`what`: its operationId); a required header it lacks names the
 * step that sends it.
 */
function expectNoProblems(what: string, problems: readonly string[]): void {
  const missing = problems.some((problem) => /^header \S+ is required on 2\d\d$/.test(problem))
  const next = missing
    ? `; next: step 2: send it from ${operationFile(what)}, its answer's headers (docs/maintainers/adding-a-response-header.md)`
    : ''
  expect(problems, `${what}: ${problems.join('; ')}${next}`).toEqual([])
}

/** Asserts an answer against the response at this JSON pointer of a contract (e.g. `/components/responses/NotFound`). */
function expectResponse(contract: ContractChecker, what: string, pointer: string, answer: Answer, head = false): void {
  expectNoProblems(what, contract.responseProblems(pointer, answer, { head }))
}

export interface Answer {
  status: number
  headers: Headers
  text: string
}

/** Reads a fetch `Response` once into an {@link Answer}. */
export async function read(response: Response): Promise<Answer> {
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** A `$ref` of the Plant Store contract, followed (once is enough for its answers and headers). */
function resolved<T>(value: unknown): T {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref
  if (typeof ref !== 'string') return value as T
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], openapi) as T
}

/**
 * The headers the Plant Store contract requires on an operation's answer
 * with this status, each with a value its schema takes (its `example`, its
 * `minimum`, else `0` or `x`): what a hand-written recording of that answer
 * carries, so that a header the contract comes to require needs no edit in
 * the tests that write one.
 *
 * @example
 * requiredHeaders('listPlants', 200) // [] while the list requires no header
 */
export function requiredHeaders(operationId: string, status: number): Array<{ name: string; value: string }> {
  const operation = Object.values(openapi.paths)
    .flatMap((item) => Object.values(item))
    .find((candidate) => candidate?.operationId === operationId)
  if (operation === undefined) throw new Error(`contracts/openapi.yaml has no operation ${operationId}`)
  const response = resolved<{ headers?: Record<string, unknown> }>(operation.responses[String(status)])
  return Object.entries(response?.headers ?? {}).flatMap(([name, declared]) => {
    const header = resolved<{ required?: boolean; schema?: { type?: string; example?: unknown; minimum?: number } }>(
      declared,
    )
    if (!header.required) return []
    const { type, example, minimum } = header.schema ?? {}
    const value = example ?? minimum ?? (type === 'integer' || type === 'number' ? 0 : 'x')
    return [{ name, value: String(value) }]
  })
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
  const template = plantStoreContract.templateOf(path)
  expect(template, `no contract path for ${path}`).toBeDefined()
  const operation = plantStoreContract.operationOf(method, path)
  expect(operation, `no contract operation ${method} ${template}`).toBeDefined()
  expect(
    operation!.responses[String(answer.status)],
    `${operation!.operationId} does not declare status ${answer.status}: ${answer.text}`,
  ).toBeDefined()
  expectNoProblems(operation!.operationId, plantStoreContract.problems(method, path, answer) ?? [])
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
  const operation = plantStoreContract.operationOf(method, path)
  expect(operation, `no contract operation ${method} ${path}`).toBeDefined()
  if (operation!.responses[String(answer.status)]) {
    expectToMatchContract(method, url, answer)
    return
  }
  if (method === 'HEAD') expect(answer.text, `${answer.status} to HEAD must have no body`).toBe('')
  else expectErrorBody(answer, answer.status)
  for (const template of Object.keys(openapi.paths)) {
    for (const name of plantStoreContract.methodsAt(template)) {
      const { operationId, pointer, responses } = plantStoreContract.operationOf(name, template)!
      if (!responses[String(answer.status)]) continue
      expectNoProblems(operationId, plantStoreContract.headerProblems(`${pointer}/responses/${answer.status}`, answer))
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
 * A 503 an operation does not declare is the contract's answer of any path
 * whose part could not be loaded (`NotLoaded`).
 */
export function expectToMatchSandboxContract(
  method: string,
  path: string,
  answer: Answer,
  request: SandboxRequest = {},
): void {
  const what = `${method} ${path}`
  const bare = path.split('?')[0] ?? path
  const head = method === 'HEAD'
  if ((method === 'GET' || head) && inspectorFiles.has(bare)) {
    // The live inspector's page and files are no part of the API (nor of its contract).
    expect([200, 308], `${what}: the inspector's ${bare}`).toContain(answer.status)
    return
  }
  if (method === 'OPTIONS') {
    // A CORS preflight, answered by the CORS layer: 204 for a listed origin, else 403 with an Error body.
    expect([204, 403], `${what}: a preflight`).toContain(answer.status)
    if (answer.status === 403) expectResponse(sandboxContract, what, '/components/responses/ForeignOrigin', answer)
    return
  }
  if (request.origin !== undefined && method !== 'GET' && !head && answer.status === 403) {
    expectResponse(sandboxContract, `${what} from ${request.origin}`, '/components/responses/ForeignOrigin', answer)
    return
  }
  if (answer.status === 503 && !sandboxContract.operationOf(method, bare, { derivedHead: true })?.responses['503']) {
    expectResponse(sandboxContract, what, '/components/responses/NotLoaded', answer, head)
    return
  }
  const template = sandboxContract.templateOf(bare)
  if (template === undefined) {
    expect(answer.status, `${what}: no sandbox contract path, so it must be a 404: ${answer.text}`).toBe(404)
    expectResponse(sandboxContract, what, '/components/responses/NotFound', answer, head)
    return
  }
  const declared = sandboxContract.methodsAt(template)
  const operation = sandboxContract.operationOf(method, bare, { derivedHead: true })
  const derivedHead = head && !declared.includes('head') && operation !== undefined
  const spec = operation?.responses[String(answer.status)]
  if (!spec && (!operation || derivedHead) && answer.status === 405) {
    expectResponse(sandboxContract, what, '/components/responses/MethodNotAllowed', answer, head)
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
  const pointer = `${operation!.pointer}/responses/${answer.status}`
  expectResponse(sandboxContract, `${what} (${operation!.operationId})`, pointer, answer, head)
}

/**
 * Whether a request body or query value is one the sandbox contract accepts
 * for this schema (e.g. `#/components/schemas/FaultRuleInput`), with ajv's
 * errors when it is not.
 */
export function sandboxSchemaAccepts(ref: string, value: unknown): { ok: boolean; errors: string } {
  const errors = sandboxContract.schemaProblems(ref, value)
  return { ok: errors === undefined, errors: errors ?? 'No errors' }
}

/** Asserts an Error body (`{ error: status, message }`, JSON) with this status. */
export function expectErrorBody(answer: Answer, status: number): void {
  expect(answer.status).toBe(status)
  expect(answer.headers.get('content-type')?.split(';')[0]).toBe('application/json')
  const body: unknown = JSON.parse(answer.text)
  const errors = plantStoreContract.schemaProblems('#/components/schemas/Error', body)
  expect(errors, errors).toBeUndefined()
  expect((body as { error: number }).error).toBe(status)
  expect((body as { message: string }).message.length).toBeGreaterThan(0)
}
