/**
 * The two judgements of an exchange: whether the real answer follows the
 * contract (its status, Error body, challenge, fields and header patterns,
 * and its auth answer against the token map), and, when it does, whether
 * the mock's answer to the same request in the same state agrees with it
 * (status, the headers the contract declares, the body: values where the
 * state determines them, shape otherwise). Differences are worded without
 * any credential or secret-looking value.
 */
import type { OperationId } from '../../core/core.ts'
import type { CoreResponse } from '../../core/http.ts'
import { pointerSegment, type ResponseObject, type SchemaObject } from '../../core/openapi.ts'
import type { Scope } from '../../core/schemas.ts'
import { contract } from '../../generated/contract.ts'
import { type ContractOperation, plantStoreContract } from '../contract-checker.ts'
import { looksSecret, type RecordedAnswer, type ReplayExchange } from './exchange.ts'
import { type Caller, jsonOf, limitOf } from './state.ts'

/** Differences shown per exchange; more are counted. */
const maxDifferences = 5
const errorSchema = '#/components/schemas/Error'

/** The media type of a `Content-Type` value, in lower case (`''` when absent). */
function mediaType(value: string | null): string {
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** A value as a difference shows it: JSON, cut short. */
function shown(value: unknown): string {
  if (value === undefined) return 'absent'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/**
 * The contract's operation an exchange reaches (a HEAD the path does not declare reaches its GET).
 *
 * @example
 * operationOf(exchange)?.operationId // 'deletePlant'
 */
export function operationOf(exchange: ReplayExchange): ContractOperation | undefined {
  return plantStoreContract.operationOf(exchange.method, exchange.path, { derivedHead: true })
}

/** The fields of a body the schema at this pointer does not declare, as paths (`body[].id`). */
function undeclaredFields(pointer: string, value: unknown, at: string, found: Set<string>): void {
  const { value: schema, pointer: where } = plantStoreContract.resolve<SchemaObject>(pointer)
  if (!schema || found.size >= maxDifferences) return
  if (Array.isArray(value) && schema.items) {
    for (const item of value) undeclaredFields(`${where}/items`, item, `${at}[]`, found)
    return
  }
  if (typeof value !== 'object' || value === null || !schema.properties) return
  if (schema.additionalProperties !== undefined) return
  for (const [name, field] of Object.entries(value)) {
    if (Object.hasOwn(schema.properties, name))
      undeclaredFields(`${where}/properties/${name}`, field, `${at}.${name}`, found)
    else found.add(`${at}.${name}`)
  }
}

/** What is wrong with a non-2xx answer's Error body: JSON, the Error schema, `error` equal to the status. */
function errorBodyProblems(answer: RecordedAnswer, checkSchema: boolean): string[] {
  if (answer.text === undefined) return []
  const type = mediaType(answer.headers.get('content-type'))
  if (type !== 'application/json') {
    return [`a ${answer.status} must carry a JSON Error body, not ${type === '' ? 'no Content-Type' : type}`]
  }
  const body = jsonOf(answer.text)
  if (body === undefined) return [`the ${answer.status}'s body is not JSON`]
  if (checkSchema) {
    const invalid = plantStoreContract.schemaProblems(errorSchema, body, 'body')
    if (invalid) return [`the Error body ${invalid}`]
  }
  const error = (body as { error?: unknown }).error
  return typeof error === 'number' && error !== answer.status
    ? [`the Error body's error is ${error}, not the status ${answer.status}`]
    : []
}

/**
 * How the real answer departs from the contract: `[]` when it follows it.
 *
 * @example
 * realProblems(exchange, operationOf(exchange), state.caller(exchange)) // ['addPlant declares no status 201 (…)']
 */
export function realProblems(
  exchange: ReplayExchange,
  operation: ContractOperation | undefined,
  caller: Caller,
): string[] {
  const { answer, method } = exchange
  const { status } = answer
  const head = method === 'HEAD'
  if (!operation) return status >= 400 && !head ? errorBodyProblems(answer, true) : []
  const problems = [...authProblems(operation.operationId as OperationId, status, caller)]
  const declared = operation.responses[String(status)] !== undefined
  if (!declared) {
    return [
      ...problems,
      `${operation.operationId} declares no status ${status} (it declares ${Object.keys(operation.responses).join(', ')})`,
    ]
  }
  const pointer = `${operation.pointer}/responses/${status}`
  if (answer.text === undefined) {
    return [...problems, ...plantStoreContract.headerProblems(pointer, { ...answer, text: '' })]
  }
  problems.push(...plantStoreContract.responseProblems(pointer, { ...answer, text: answer.text }, { head }))
  if (head || problems.length > 0) return problems
  if (status >= 400) problems.push(...errorBodyProblems(answer, false))
  const response = plantStoreContract.resolve<ResponseObject>(pointer)
  const type = mediaType(answer.headers.get('content-type'))
  const body = jsonOf(answer.text)
  if (response.value?.content?.[type]) {
    const found = new Set<string>()
    undeclaredFields(`${response.pointer}/content/${pointerSegment(type)}/schema`, body, 'body', found)
    for (const field of found) problems.push(`${field} is a field the contract does not declare`)
  }
  const limit = limitOf(exchange.query)
  if (operation.operationId === 'listPlants' && limit !== undefined && Array.isArray(body) && body.length > limit) {
    problems.push(`the list holds ${body.length} plants, more than limit=${limit}`)
  }
  return problems
}

/** The statuses the core answers from the request alone, whatever the state: the contract's judgement of a request. */
const requestStatuses: ReadonlySet<number> = new Set([400, 413, 415])

/**
 * How the real answer departs from the contract's judgement of the request
 * itself, which the mock's answer gives (its 400, 413 and 415 come from the
 * request alone, never from the state): another answer to a request the
 * contract refuses, or a 400, 413 or 415 to one it accepts. `[]` otherwise.
 *
 * @example
 * requestProblems(exchange, mock) // ['a 200 to a request the contract refuses with 415']
 */
export function requestProblems(exchange: ReplayExchange, mock: CoreResponse): string[] {
  const real = exchange.answer.status
  if (real === mock.status) return []
  if (requestStatuses.has(mock.status)) {
    const field = mock.reason?.field === undefined ? '' : ` (${mock.reason.field}: ${mock.reason.rule ?? 'invalid'})`
    return [`a ${real} to a request the contract refuses with ${mock.status}${field}`]
  }
  // A mock's 401 or 403 is the token, not the request: the token map (or the lack of one) speaks there.
  if (requestStatuses.has(real) && mock.status !== 401 && mock.status !== 403) {
    return [`a ${real} to a request the contract accepts (the mock answers ${mock.status})`]
  }
  return []
}

/** How an answer's status departs from what the token map says of its caller (401, 403 or neither). */
function authProblems(operation: OperationId, status: number, caller: Caller): string[] {
  const ok = status >= 200 && status < 300
  const scopes = contract.operations[operation].scopes as readonly Scope[]
  if (caller.anonymous) return ok ? [`a ${status} without a Bearer token (the contract answers 401)`] : []
  const known = caller.known
  if (!known?.mapped) return []
  const whose = `a token the map gives tenant ${known.tenant}`
  if (known.expired) return ok ? [`a ${status} to ${whose}, expired (the contract answers 401)`] : []
  if (status === 401) return [`a 401 to ${whose}, not expired`]
  const missing = scopes.filter((scope) => !known.scopes.has(scope))
  if (missing.length > 0 && ok)
    return [`a ${status} to ${whose} without ${missing.join(', ')} (the contract answers 403)`]
  if (missing.length === 0 && status === 403) return [`a 403 to ${whose} with ${scopes.join(', ')}`]
  return []
}

/** The first differences between two JSON values, as `path: real …, mock …` (values of secret-looking fields hidden). */
function valueDifferences(real: unknown, mock: unknown, at: string, out: string[], secret = false): void {
  if (out.length >= maxDifferences) return
  if (Array.isArray(real) && Array.isArray(mock)) {
    if (real.length !== mock.length) {
      out.push(`${at}: real ${real.length} items, mock ${mock.length}`)
      return
    }
    for (const [index, item] of real.entries()) valueDifferences(item, mock[index], `${at}[${index}]`, out)
    return
  }
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)
  if (isObject(real) && isObject(mock)) {
    const a = real as Record<string, unknown>
    const b = mock as Record<string, unknown>
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
      valueDifferences(a[name], b[name], `${at}.${name}`, out, looksSecret(name))
    }
    return
  }
  if (JSON.stringify(real) === JSON.stringify(mock)) return
  out.push(secret ? `${at}: real and mock differ (values hidden)` : `${at}: real ${shown(real)}, mock ${shown(mock)}`)
}

/** The first differences of shape (types, fields) between two JSON values. */
function shapeDifferences(real: unknown, mock: unknown, at: string, out: string[]): void {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)
  if (kind(real) !== kind(mock)) {
    out.push(
      `${at}: real ${kind(real) === 'undefined' ? 'absent' : kind(real)}, mock ${kind(mock) === 'undefined' ? 'absent' : kind(mock)}`,
    )
    return
  }
  if (kind(real) !== 'object') return
  const a = real as Record<string, unknown>
  const b = mock as Record<string, unknown>
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)]))
    shapeDifferences(a[name], b[name], `${at}.${name}`, out)
}

/**
 * How the mock's answer to the same request, in the state the real answer
 * implies, differs from the real answer: `[]` when they agree.
 *
 * @example
 * mockDifferences(exchange, operationOf(exchange), await handle(coreRequestOf(exchange))) // ['status: real 404, mock 204']
 */
export function mockDifferences(
  exchange: ReplayExchange,
  operation: ContractOperation | undefined,
  mock: CoreResponse,
): string[] {
  const real = exchange.answer
  // Storage that was unavailable is no state of the plants: nothing to put the mock in, nothing to compare.
  if (real.status === 503) return []
  if (real.status !== mock.status) return [`status: real ${real.status}, mock ${mock.status}`]
  const out: string[] = []
  const mockHeaders = { get: (name: string) => mock.headers[name.toLowerCase()] ?? null }
  const response = operation
    ? plantStoreContract.resolve<ResponseObject>(`${operation.pointer}/responses/${real.status}`).value
    : undefined
  for (const name of Object.keys(response?.headers ?? {})) {
    const a = real.headers.get(name)
    const b = mockHeaders.get(name)
    // A challenge's value is the contract's; other declared headers (Retry-After) only need to be there.
    if ((a === null) !== (b === null) || (name.toLowerCase() === 'www-authenticate' && a !== b)) {
      out.push(`${name}: real ${a === null ? 'absent' : `"${a}"`}, mock ${b === null ? 'absent' : `"${b}"`}`)
    }
  }
  const head = exchange.method === 'HEAD'
  if (head || real.text === undefined) return out
  const realType = mediaType(real.headers.get('content-type'))
  const mockType = mediaType(mockHeaders.get('content-type'))
  const realBody = jsonOf(real.text)
  const mockBody = jsonOf(mock.body ?? '')
  if ((real.text === '') !== ((mock.body ?? '') === '')) {
    out.push(`body: real ${real.text === '' ? 'none' : realType || 'some'}, mock ${mock.body ? mockType : 'none'}`)
    return out
  }
  if (real.text === '') return out
  if (realType !== mockType) out.push(`Content-Type: real ${realType || 'absent'}, mock ${mockType}`)
  if (realBody === undefined) return out
  if (real.status >= 400) {
    // An Error's status is the state's; its message is the provider's own words.
    shapeDifferences(realBody, mockBody, 'body', out)
    const a = (realBody as { error?: unknown }).error
    const b = (mockBody as { error?: unknown } | undefined)?.error
    if (a !== b && out.length === 0) out.push(`body.error: real ${shown(a)}, mock ${shown(b)}`)
  } else valueDifferences(realBody, mockBody, 'body', out)
  return out.slice(0, maxDifferences)
}
