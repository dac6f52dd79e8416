/**
 * Every request's inputs checked against the contract's own schemas: the
 * parameters (query, path, header) and the body each operation declares,
 * as `npm run generate` reduced them into `src/generated/contract-inputs.ts`.
 * Nothing here knows a parameter or a field by name: what values an input
 * takes, and the 400 (message and `reason`) for one it refuses, come from its
 * schema; what an input means is the operation's own code. A parameter added
 * to the contract is enforced by this with no code of its own.
 */
import { contract } from '../generated/contract.ts'
import { contractInputs } from '../generated/contract-inputs.ts'
import type { components } from '../generated/openapi.ts'
import { invalidRequest as invalid } from './errors.ts'
import type { CoreRequest } from './http.ts'
import { takes, type ValueSchema } from './takes.ts'
import { parseJsonObject } from './validation.ts'
import { objectSchema, z } from './zod.ts'

export type { ValueSchema } from './takes.ts'

type Operations = typeof contractInputs.operations
type Schemas = typeof contractInputs.schemas

/** The id of an operation of the contract whose inputs are checked here. */
export type InputOperationId = keyof Operations

/** An object schema (a request body's), reduced to what the core enforces. */
export interface ObjectSchema {
  readonly type: 'object'
  readonly required: readonly string[]
  readonly properties: Readonly<Record<string, ValueSchema>>
  /** How many of its fields a body must give at least, and at most (unknown fields are dropped, not counted). */
  readonly minProperties?: number
  readonly maxProperties?: number
}

/** A parameter as the contract declares it. */
export interface ParameterSpec {
  readonly name: string
  readonly in: 'query' | 'path' | 'header' | 'cookie'
  readonly required: boolean
  readonly schema: ValueSchema
}

/** The value a schema gives: a number for an integer, a string for a string. */
type ValueOf<S> = S extends { readonly type: 'integer' }
  ? number
  : S extends { readonly type: 'string' }
    ? string
    : never

/** An operation's parameters of one place, by name, typed by their schemas (optional ones may be `undefined`). */
type ParametersIn<Id extends InputOperationId, Place extends string> = {
  -readonly [P in Operations[Id]['parameters'][number] as P['in'] extends Place
    ? P['name']
    : never]: P['required'] extends true ? ValueOf<P['schema']> : ValueOf<P['schema']> | undefined
}

/** A contract schema's type with `null` taken as absent, as the core reads a body (openapi-typescript's types). */
export type NullAsAbsent<T> = { [K in keyof T]: Exclude<T[K], null> }

/** The body an operation takes, as its parser answers it. */
type BodyOf<Id extends InputOperationId> = Operations[Id]['body'] extends { readonly schema: infer Name }
  ? Name extends keyof components['schemas']
    ? NullAsAbsent<components['schemas'][Name]>
    : never
  : undefined

/** An operation's inputs, checked: its parameters by place and name, and its body. */
export interface Inputs<Id extends InputOperationId> {
  readonly query: ParametersIn<Id, 'query'>
  readonly path: ParametersIn<Id, 'path'>
  readonly header: ParametersIn<Id, 'header'>
  readonly body: BodyOf<Id>
}

/** Counts characters as JSON Schema does: by code point, not UTF-16 unit. */
export function codePointLength(value: string): number {
  let length = 0
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    length++
  }
  return length
}

/** The string formats the core enforces, each by zod's check of it (JSON Schema's forms: RFC 3339, RFC 5321, RFC 4122). */
const formatChecks: Readonly<Record<string, () => { safeParse(value: string): { success: boolean } }>> = {
  'date-time': () => z.iso.datetime({ offset: true }),
  date: () => z.iso.date(),
  email: () => z.email(),
  uuid: () => z.uuid(),
}

/**
 * Whether a string meets a string schema: its length in code points within
 * `minLength` and `maxLength`, its `pattern`, its `format`, its `enum` (a
 * `const` is a one-value enum).
 */
export function stringAccepted(schema: ValueSchema): (value: string) => boolean {
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u')
  const format = schema.format === undefined ? undefined : formatChecks[schema.format]?.()
  return (value) => {
    // Cheap bounds first: the code point count lies in [length / 2, length].
    if (value.length < min || value.length / 2 > max) return false
    const length = codePointLength(value)
    if (length < min || length > max) return false
    if (pattern && !pattern.test(value)) return false
    if (format && !format.safeParse(value).success) return false
    return schema.enum === undefined || schema.enum.includes(value)
  }
}

/** Whether an integer meets an integer schema: within its bounds, a multiple of its `multipleOf`, in its `enum`. */
function integerAccepted(schema: ValueSchema): (value: number) => boolean {
  const { minimum, maximum, multipleOf } = schema
  return (value) =>
    Number.isSafeInteger(value) &&
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum) &&
    (multipleOf === undefined || value % multipleOf === 0) &&
    (schema.enum === undefined || schema.enum.includes(value))
}

const digits = /^[0-9]+$/
const signedDigits = /^-?[0-9]+$/

/**
 * How a parameter is named in its messages: `limit` in the query, `The plant
 * id in the path` (the resource of the segment before it, made singular),
 * `The Prefer header`.
 */
function subjectOf(parameter: ParameterSpec, path: string): string {
  if (parameter.in === 'query') return parameter.name
  if (parameter.in === 'path') {
    const segments = path.split('/')
    const before = segments[segments.indexOf(`{${parameter.name}}`) - 1] ?? ''
    const resource = before.startsWith('{') || before === '' ? '' : `${before.replace(/s$/, '')} `
    return `The ${resource}${parameter.name} in the path`
  }
  return `The ${parameter.name} ${parameter.in === 'header' ? 'header' : 'cookie'}`
}

/**
 * Parses one parameter's text by its schema; throws its 400 when the schema refuses it.
 *
 * @example
 * parameterParser({ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }, '/plants')('7') // 7
 */
export function parameterParser(parameter: ParameterSpec, path: string): (raw: string) => number | string {
  const { name, schema } = parameter
  const subject = subjectOf(parameter, path)
  if (schema.type === 'integer') {
    const form = schema.minimum !== undefined && schema.minimum >= 0 ? digits : signedDigits
    const message = `${subject} must be ${takes(schema)}, written in decimal digits.`
    const accepted = integerAccepted(schema)
    return (raw) => {
      const value = Number(raw)
      if (!form.test(raw) || !accepted(value)) {
        throw invalid(message, { field: name, rule: 'format' })
      }
      return value === 0 ? 0 : value
    }
  }
  const accepted = stringAccepted(schema)
  const message = `${subject} must be ${takes(schema)}.`
  return (raw) => {
    if (!accepted(raw)) throw invalid(message, { field: name, rule: 'format' })
    return raw
  }
}

/** One operation's checks, compiled the first time it is asked for. */
interface Checks {
  /** The operation's path template, for the messages. */
  readonly path: string
  readonly query: ReadonlyArray<readonly [ParameterSpec, (raw: string) => number | string]>
  readonly others: ReadonlyArray<readonly [ParameterSpec, (raw: string) => number | string]>
}

const compiled = new Map<InputOperationId, Checks>()

function checksOf(operation: InputOperationId): Checks {
  let checks = compiled.get(operation)
  if (checks === undefined) {
    const { path } = contract.operations[operation]
    const parameters: readonly ParameterSpec[] = contractInputs.operations[operation].parameters
    const parsers = parameters.map((parameter) => [parameter, parameterParser(parameter, path)] as const)
    checks = {
      path,
      query: parsers.filter(([{ in: place }]) => place === 'query'),
      others: parsers.filter(([{ in: place }]) => place === 'path' || place === 'header'),
    }
    compiled.set(operation, checks)
  }
  return checks
}

/**
 * An operation's parameters, each checked by its schema (in the order the
 * contract declares them, path and header before query): a query parameter
 * at most once, a required one present, a value its schema takes. Throws
 * `invalid_request` (400) naming the first one that is not.
 *
 * @example
 * parseParameters('listPlants', request, {}).query.limit // 10 for ?limit=10, undefined without
 */
export function parseParameters<Id extends InputOperationId>(
  operation: Id,
  request: Pick<CoreRequest, 'query' | 'header'>,
  params: Readonly<Record<string, string>>,
): Omit<Inputs<Id>, 'body'> {
  const { path: template, query: queryChecks, others } = checksOf(operation)
  const path: Record<string, unknown> = {}
  const header: Record<string, unknown> = {}
  const query: Record<string, unknown> = {}
  for (const [parameter, parse] of others) {
    const raw = parameter.in === 'path' ? params[parameter.name] : request.header(parameter.name.toLowerCase())
    const values = parameter.in === 'path' ? path : header
    values[parameter.name] = raw == null ? absent(parameter, template) : parse(raw)
  }
  if (queryChecks.length > 0) {
    for (const [parameter, parse] of queryChecks) {
      const given = request.query === '' ? [] : queryValues(request.query, parameter.name)
      if (given.length > 1) {
        throw invalid(`${parameter.name} must be given at most once.`, { field: parameter.name, rule: 'once' })
      }
      const [raw] = given
      query[parameter.name] = raw === undefined ? absent(parameter, template) : parse(raw)
    }
  }
  return { query, path, header } as Omit<Inputs<Id>, 'body'>
}

/**
 * Every value of `name` in a query string, as `URLSearchParams.getAll`
 * answers. The usual query (`limit=10`: no percent escape, no `+`, no
 * leading `?`) is scanned in place, which gives the same values without
 * building a `URLSearchParams` per request (issue 41); any other goes to
 * `URLSearchParams` itself.
 */
function queryValues(query: string, name: string): string[] {
  if (query.charCodeAt(0) === 63 || query.includes('%') || query.includes('+')) {
    return new URLSearchParams(query).getAll(name)
  }
  const values: string[] = []
  let start = 0
  while (start < query.length) {
    let end = query.indexOf('&', start)
    if (end === -1) end = query.length
    // `name=value`, or `name` alone (an empty value); empty pairs (`a&&b`) are no parameter.
    const after = start + name.length
    if (after <= end && query.startsWith(name, start) && (after === end || query.charCodeAt(after) === 61)) {
      values.push(after === end ? '' : query.slice(after + 1, end))
    }
    start = end + 1
  }
  return values
}

/** An absent parameter: `undefined`, or its 400 when it is required. */
function absent(parameter: ParameterSpec, path: string): undefined {
  if (parameter.required) {
    throw invalid(`${subjectOf(parameter, path)} is required.`, { field: parameter.name, rule: 'required' })
  }
  return undefined
}

/** Per body schema, {@link bodyAcceptedAsIs}'s check, built on first use. */
const bodyChecks = new Map<string, (known: Readonly<Record<string, unknown>>) => boolean>()

function acceptedAsIs(name: string, schema: ObjectSchema): (known: Readonly<Record<string, unknown>>) => boolean {
  let check = bodyChecks.get(name)
  if (check === undefined) {
    check = bodyAcceptedAsIs(schema)
    bodyChecks.set(name, check)
  }
  return check
}

/**
 * A body's known fields that {@link bodySchema}'s zod schema takes as they
 * are: each given field of its schema's type and a value it takes (the same
 * checks zod's refinements make: {@link integerAccepted},
 * {@link stringAccepted}), as many of them as `minProperties` and
 * `maxProperties` say. `true` only when zod would answer the same fields
 * unchanged; `false` for anything else (zod then says what is wrong). The
 * usual write skips zod's generic walk (issue 41); a type this does not
 * know always goes to zod.
 */
function bodyAcceptedAsIs(schema: ObjectSchema): (known: Readonly<Record<string, unknown>>) => boolean {
  const checks = Object.entries(schema.properties).map(([field, property]): [string, (value: unknown) => boolean] => {
    if (property.type === 'integer') {
      const accepted = integerAccepted(property)
      return [field, (value) => typeof value === 'number' && accepted(value)]
    }
    if (property.type === 'string') {
      const accepted = stringAccepted(property)
      return [field, (value) => typeof value === 'string' && accepted(value)]
    }
    return [field, () => false]
  })
  const least = schema.minProperties ?? 0
  const most = schema.maxProperties ?? Number.POSITIVE_INFINITY
  return (known) => {
    let count = 0
    for (const [field, accepted] of checks) {
      const value = known[field]
      if (value === undefined) continue
      if (!accepted(value)) return false
      count++
    }
    return count >= least && count <= most
  }
}

/** The zod schema of each body schema, built on first use. */
const bodySchemas = new Map<string, z.ZodMiniType>()

/**
 * An operation's request body, parsed and checked by its schema: JSON, an
 * object, every required field there (in the order the contract lists
 * them), as many of its fields as `minProperties` and `maxProperties` say
 * (unknown fields are dropped and not counted), each field a value its
 * schema takes; unknown fields dropped, a
 * `null` in a nullable field that is not required read as absent, `-0` as
 * `0`. Every failure is `invalid_request` naming the field.
 *
 * @example
 * parseBody('addPlant', new TextEncoder().encode('{"id":1,"name":"Fern"}')) // { id: 1, name: 'Fern' }
 */
export function parseBody<Id extends InputOperationId>(operation: Id, body: Uint8Array): Inputs<Id>['body'] {
  const spec = contractInputs.operations[operation].body
  if (spec === null) return undefined as Inputs<Id>['body']
  const name: keyof Schemas = spec.schema
  if (body.byteLength === 0) {
    throw invalid(`The request body is empty; send a ${name} JSON object.`, { field: 'body', rule: 'required' })
  }
  const value = parseJsonObject(body, `a ${name}`)
  const schema: ObjectSchema = contractInputs.schemas[name]
  for (const field of schema.required) {
    if (value[field] === undefined) throw invalid(`${field} is required.`, { field, rule: 'required' })
  }
  const known: Record<string, unknown> = {}
  for (const [field, property] of Object.entries(schema.properties)) {
    const given = value[field]
    if (given === undefined || (given === null && property.nullable && !schema.required.includes(field))) continue
    known[field] = given
  }
  // The usual body, every field a value its schema takes, is what zod would answer (the same fields in the same
  // order: `known` is built in the schema's order); zod runs for any other, for its message and rule.
  if (acceptedAsIs(name, schema)(known)) {
    for (const field in known) if (Object.is(known[field], -0)) known[field] = 0
    return known as unknown as Inputs<Id>['body']
  }
  let zodSchema = bodySchemas.get(name)
  if (zodSchema === undefined) {
    zodSchema = objectSchema(name)
    bodySchemas.set(name, zodSchema)
  }
  const result = zodSchema.safeParse(known)
  if (!result.success) {
    const issue = result.error.issues[0]
    const field = issue?.path[0]
    throw invalid(issue?.message ?? `The ${name} is invalid.`, {
      ...(typeof field === 'string' ? { field } : {}),
      ...(issue ? { rule: issue.code } : {}),
    })
  }
  const parsed = result.data as Record<string, unknown>
  for (const [field, parsedValue] of Object.entries(parsed)) if (Object.is(parsedValue, -0)) parsed[field] = 0
  return parsed as unknown as Inputs<Id>['body']
}
