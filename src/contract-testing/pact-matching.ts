/**
 * Pact matching rules derived from the contract (`contracts/openapi.yaml`,
 * through the one {@link ContractChecker}): what a recorded interaction may
 * match by type or pattern, and what must stay exact. A value is matched by
 * type only where the contract accepts it (a value it refuses, such as an
 * empty name, is why the answer was given, so it stays exact); an array is
 * matched with its recorded length as both bounds (the provider state
 * guarantees that length); an integer equal to the status (an Error's
 * `error`) stays equal to it; headers the contract describes match its
 * pattern, content types the media types it declares.
 */
import {
  type HeaderObject,
  type ResponseObject,
  type SchemaObject,
  pointerSegment as segment,
} from '../core/openapi.ts'
import type { ContractChecker, ContractOperation } from './contract-checker.ts'

/** One matcher of a V4 pact, e.g. `{ match: 'type', min: 2, max: 2 }`. */
export interface PactMatcher {
  readonly match: 'type' | 'integer' | 'number' | 'regex' | 'equality'
  readonly min?: number
  readonly max?: number
  readonly regex?: string
}

/** The matchers of one path or header. */
export interface PactRule {
  readonly combine: 'AND'
  readonly matchers: readonly PactMatcher[]
}

/** A V4 pact's `matchingRules` of a request or response, by category. */
export interface PactMatchingRules {
  body?: Record<string, PactRule>
  header?: Record<string, PactRule>
}

function rule(matcher: PactMatcher): PactRule {
  return { combine: 'AND', matchers: [matcher] }
}

/** `$.name` or `$['odd key']`. */
function memberPath(path: string, key: string): string {
  return /^[A-Za-z_][\w]*$/.test(key) ? `${path}.${key}` : `${path}['${key.replaceAll("'", "\\'")}']`
}

/** A regex matching exactly these media types, with any parameters (`; charset=utf-8`). */
function mediaTypePattern(mediaTypes: readonly string[]): string {
  const escaped = mediaTypes.map((type) => type.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
  return `^(${escaped.join('|')})(\\s*;.*)?$`
}

/** What a body's rules must leave exact, beside what the contract refuses. */
export interface BodyRuleOptions {
  /** JSON paths that stay equal to the recorded value (e.g. `$.id` when a provider state is about that id). */
  readonly exact?: ReadonlySet<string>
  /** The answer's status: an integer equal to it stays equal. */
  readonly status?: number
}

/**
 * The body rules of a JSON value against the schema at a pointer, added to
 * `rules` under `path`.
 */
function bodyRules(
  checker: ContractChecker,
  pointer: string,
  value: unknown,
  path: string,
  rules: Record<string, PactRule>,
  options: BodyRuleOptions,
): void {
  const { value: schema, pointer: at } = checker.resolve<SchemaObject>(pointer)
  if (typeof schema !== 'object' || schema === null) return
  if (options.exact?.has(path)) {
    rules[path] = rule({ match: 'equality' })
    return
  }
  if (Array.isArray(value)) {
    if (schema.type !== 'array') return
    rules[path] = rule({ match: 'type', min: value.length, max: value.length })
    for (const item of value) bodyRules(checker, `${at}/items`, item, `${path}[*]`, rules, options)
    return
  }
  if (typeof value === 'object' && value !== null) {
    const properties = schema.properties ?? {}
    for (const [key, member] of Object.entries(value)) {
      if (Object.hasOwn(properties, key)) {
        bodyRules(checker, `${at}/properties/${segment(key)}`, member, memberPath(path, key), rules, options)
      }
    }
    return
  }
  if (value === null || checker.schemaProblems(at, value) !== undefined) return
  if (typeof value === 'number' && value === options.status) {
    rules[path] = rule({ match: 'equality' })
    return
  }
  if (typeof value === 'number') rules[path] = rule({ match: Number.isInteger(value) ? 'integer' : 'number' })
  else rules[path] = rule({ match: 'type' })
}

/** The media type of a `Content-Type` value, in lower case, without parameters. */
function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/** The value of a header, its name in any case. */
function headerValue(headers: Readonly<Record<string, readonly string[]>>, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name)
  return key === undefined ? undefined : headers[key]?.[0]
}

/** What a recorded message is, for deriving its rules. */
export interface RecordedMessage {
  readonly headers: Readonly<Record<string, readonly string[]>>
  /** The parsed JSON body, or `undefined` for none (or not JSON). */
  readonly body: unknown
}

/** Rules for the body of a message whose content the contract describes at `pointer` (a request body or a response). */
function contentRules(
  checker: ContractChecker,
  pointer: string,
  message: RecordedMessage,
  rules: PactMatchingRules,
  options: BodyRuleOptions,
): void {
  const { value: described, pointer: at } = checker.resolve<ResponseObject>(pointer)
  const content = described?.content
  if (!content) return
  const contentType = Object.keys(message.headers).find((name) => name.toLowerCase() === 'content-type')
  if (contentType !== undefined) {
    rules.header = {
      ...rules.header,
      [contentType]: rule({ match: 'regex', regex: mediaTypePattern(Object.keys(content)) }),
    }
  }
  const mediaType = mediaTypeOf(headerValue(message.headers, 'content-type'))
  if (message.body === undefined || !Object.hasOwn(content, mediaType)) return
  const body: Record<string, PactRule> = {}
  bodyRules(checker, `${at}/content/${segment(mediaType)}/schema`, message.body, '$', body, options)
  if (Object.keys(body).length > 0) rules.body = body
}

/**
 * The matching rules of a recorded request to an operation: its content
 * type by the media types the contract accepts, its body by type where the
 * contract accepts the value sent (paths in `exact` stay exact). The path
 * and the query are left exact.
 *
 * @example
 * requestRules(plantStoreContract, plantStoreContract.operationOf('POST', '/plants')!, request, { exact: new Set(['$.id']) })
 * // { header: { 'content-type': { … regex … } }, body: { '$.id': equality, '$.name': type, '$.tag': type } }
 */
export function requestRules(
  checker: ContractChecker,
  operation: ContractOperation,
  message: RecordedMessage,
  options: BodyRuleOptions = {},
): PactMatchingRules {
  const rules: PactMatchingRules = {}
  contentRules(checker, `${operation.pointer}/requestBody`, message, rules, options)
  return rules
}

/**
 * The matching rules of a recorded answer: its headers by what the contract
 * says of them (a declared header's pattern, an integer header by digits,
 * the content type by the declared media types), its body by the declared
 * schema. Nothing for a status the operation does not declare.
 *
 * @example
 * responseRules(plantStoreContract, plantStoreContract.operationOf('GET', '/plants')!, 401, response)
 * // { header: { 'www-authenticate': regex …, 'content-type': regex … }, body: { '$.error': equality, '$.message': type } }
 */
export function responseRules(
  checker: ContractChecker,
  operation: ContractOperation,
  status: number,
  message: RecordedMessage,
): PactMatchingRules {
  const pointer = `${operation.pointer}/responses/${status}`
  const { value: response, pointer: at } = checker.resolve<ResponseObject>(pointer)
  if (!response) return {}
  const rules: PactMatchingRules = {}
  const declared = Object.keys(response.headers ?? {})
  for (const name of Object.keys(message.headers)) {
    const described = declared.find((candidate) => candidate.toLowerCase() === name.toLowerCase())
    if (described === undefined) continue
    const header = checker.resolve<HeaderObject>(`${at}/headers/${segment(described)}`)
    const schema = header.value && checker.resolve<SchemaObject>(`${header.pointer}/schema`).value
    const matcher: PactMatcher | undefined = schema?.pattern
      ? { match: 'regex', regex: schema.pattern }
      : schema?.type === 'integer'
        ? { match: 'regex', regex: '^\\d+$' }
        : schema?.type === 'string'
          ? { match: 'type' }
          : undefined
    if (matcher) rules.header = { ...rules.header, [name]: rule(matcher) }
  }
  contentRules(checker, at, message, rules, { status })
  return rules
}

/**
 * The pattern a bearer token's header matches when the contract secures
 * operations with an `http` `bearer` scheme (RFC 6750's `b64token`), or
 * `undefined` when it has no such scheme.
 *
 * @example
 * bearerPattern(plantStoreContract) // '^Bearer [A-Za-z0-9\\-._~+/]+=*$'
 */
export function bearerPattern(checker: ContractChecker): string | undefined {
  const schemes = checker.resolve<Record<string, { type?: string; scheme?: string }>>('/components/securitySchemes')
  const bearer = Object.values(schemes.value ?? {}).some(
    ({ type, scheme }) => type === 'http' && scheme?.toLowerCase() === 'bearer',
  )
  return bearer ? '^Bearer [A-Za-z0-9\\-._~+/]+=*$' : undefined
}
