/**
 * Checks answers against `contracts/openapi.yaml`: the status is one the
 * operation declares, the declared headers are there and match, and the body
 * matches the declared schema (ajv). Answers the contract cannot attach to an
 * operation (unknown path, 405, simulated statuses) are checked against the
 * `Error` schema alone with {@link expectErrorBody}.
 */
import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import { expect } from 'vitest'
import { parse } from 'yaml'

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

export const openapi = parse(readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>
  components: Record<string, Record<string, unknown>>
}

const ajv = new Ajv({ strict: false, allErrors: true })
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 })
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
ajv.addSchema({ components: openapi.components }, 'openapi')

const compiled = new Map<string, ValidateFunction>()
function validator(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (!validate) {
    // Rewrite local refs so they resolve inside the registered document.
    const rewritten = JSON.parse(key.replaceAll('"#/components/', '"openapi#/components/'))
    validate = ajv.compile(rewritten)
    compiled.set(key, validate)
  }
  return validate
}

function resolve<T>(value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value) {
    const path = value.$ref.replace('#/', '').split('/')
    let node: unknown = openapi
    for (const part of path) node = (node as Record<string, unknown>)[part]
    return resolve(node as T | { $ref: string })
  }
  return value as T
}

/** Finds the contract path template for a concrete path, e.g. `/plants/7` → `/plants/{id}`. */
function templateOf(path: string): string | undefined {
  return Object.keys(openapi.paths).find((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    return pattern.test(path)
  })
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

/**
 * Asserts that the answer to `method path` is one the contract declares,
 * with its headers and body schema.
 */
export function expectToMatchContract(method: string, url: string, answer: Answer): void {
  const path = new URL(url, 'http://127.0.0.1').pathname.replace(/^.*(?=\/plants)/, '')
  const template = templateOf(path)
  expect(template, `no contract path for ${path}`).toBeDefined()
  const operation = openapi.paths[template!]?.[method.toLowerCase()]
  expect(operation, `no contract operation ${method} ${template}`).toBeDefined()
  const spec = operation!.responses[String(answer.status)]
  expect(spec, `${operation!.operationId} does not declare status ${answer.status}: ${answer.text}`).toBeDefined()
  const response = resolve(spec!)
  expectHeaders(response.headers ?? {}, answer)
  if (!response.content) {
    expect(answer.text, `${answer.status} must have no body`).toBe('')
    return
  }
  const contentType = answer.headers.get('content-type') ?? ''
  expect(contentType.split(';')[0]?.trim()).toBe('application/json')
  const media = response.content['application/json']
  expect(media).toBeDefined()
  const validate = validator(media!.schema)
  const body: unknown = JSON.parse(answer.text)
  expect(validate(body), `${answer.status} body ${answer.text}: ${ajv.errorsText(validate.errors)}`).toBe(true)
}

/** Asserts the declared headers: each required one present, each present one valid (numbers read as numbers). */
function expectHeaders(headers: Record<string, Header | { $ref: string }>, answer: Answer): void {
  for (const [name, header] of Object.entries(headers)) {
    const resolved = resolve(header)
    const value = answer.headers.get(name)
    if (resolved.required) expect(value, `header ${name} on ${answer.status}`).not.toBeNull()
    if (value !== null) {
      const numeric = ['integer', 'number'].includes(String(resolved.schema.type)) && /^-?\d+(\.\d+)?$/.test(value)
      const validate = validator(resolved.schema)
      expect(
        validate(numeric ? Number(value) : value),
        `header ${name}: ${value} ${ajv.errorsText(validate.errors)}`,
      ).toBe(true)
    }
  }
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
  const operation = openapi.paths[templateOf(path) ?? '']?.[method.toLowerCase()]
  expect(operation, `no contract operation ${method} ${path}`).toBeDefined()
  if (operation!.responses[String(answer.status)]) {
    expectToMatchContract(method, url, answer)
    return
  }
  if (method === 'HEAD') expect(answer.text, `${answer.status} to HEAD must have no body`).toBe('')
  else expectErrorBody(answer, answer.status)
  for (const operations of Object.values(openapi.paths)) {
    for (const { responses } of Object.values(operations)) {
      const declared = responses[String(answer.status)]
      if (declared) expectHeaders(resolve(declared).headers ?? {}, answer)
    }
  }
}

/** Asserts an Error body (`{ error: status, message }`, JSON) with this status. */
export function expectErrorBody(answer: Answer, status: number): void {
  expect(answer.status).toBe(status)
  expect(answer.headers.get('content-type')?.split(';')[0]).toBe('application/json')
  const body: unknown = JSON.parse(answer.text)
  const validate = validator({ $ref: '#/components/schemas/Error' })
  expect(validate(body), ajv.errorsText(validate.errors)).toBe(true)
  expect((body as { error: number }).error).toBe(status)
  expect((body as { message: string }).message.length).toBeGreaterThan(0)
}
