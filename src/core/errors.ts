import type { components } from '../generated/openapi.ts'
import type { CoreResponse } from './http.ts'

/**
 * The Error body every non-2xx answer carries, as the contract declares it
 * (`components/schemas/Error`, generated): the one type {@link errorResponse}
 * writes, so a field the contract gains is a field the core may render, and a
 * field it does not declare does not compile.
 */
export type ErrorBody = components['schemas']['Error']

/** What `tsc` says to a field the contract's Error schema does not declare yet. */
type UndeclaredErrorField =
  'not in the contract: declare the field in components/schemas/Error of contracts/openapi.yaml, then npm run generate (step 1 of docs/maintainers/adding-a-rule-with-memory.md)'

/**
 * The Error body's fields beyond `error` (the status) and `message`, as the
 * contract declares them (e.g. a `code` with its `enum`); while it declares
 * none, a field given fails `tsc`, naming the step that declares it. A field
 * the contract makes required must then be given by every Error answer: `tsc`
 * fails in this file until it is.
 *
 * @example
 * // with `code: { type: string, enum: [deleted_before] }` in the contract's Error schema:
 * new PlantStoreError('conflict', 'Plant 7 was deleted before.', {}, undefined, { code: 'deleted_before' })
 */
export type ErrorFields = [Exclude<keyof ErrorBody, 'error' | 'message'>] extends [never]
  ? Readonly<Record<string, UndeclaredErrorField>>
  : Omit<ErrorBody, 'error' | 'message'>

/**
 * The codes of every error the Plant Store answers with. Each maps to one
 * HTTP status; the Error body's `error` field is always that status.
 */
export const errorStatus = {
  /** No `Authorization` header, or not a Bearer one. */
  unauthorized: 401,
  /** A Bearer token that is unknown, expired or malformed. */
  invalid_token: 401,
  /** The token lacks the scope the operation needs. */
  insufficient_scope: 403,
  /** A parameter or the body is invalid. */
  invalid_request: 400,
  /** No such thing in the caller's tenant (the contract's `NotFound`), or no such path. */
  not_found: 404,
  /** A known path with a method it does not have. */
  method_not_allowed: 405,
  /** The create breaks a uniqueness rule of the caller's tenant (the contract's `Conflict` says which). */
  conflict: 409,
  /** The body is larger than the contract allows. */
  payload_too_large: 413,
  /** The body is not `application/json`. */
  unsupported_media_type: 415,
  /** Durable storage (a replica's Redis) cannot take the write now; nothing changed. Sent with `Retry-After`. */
  storage_unavailable: 503,
  /** The sandbox holds its maximum of provisioned tenants, all in use. Sent with `Retry-After`. */
  at_capacity: 503,
  /**
   * A part of the sandbox loaded on demand (the admin API, the docs) could not
   * be loaded now, e.g. its files were rebuilt under it; it is tried again
   * with the next request. Sent with `Retry-After`.
   */
  unavailable: 503,
  /**
   * Too many requests at once or too fast: delayed answers past their caps,
   * tenants provisioned past the rate. Sent with `Retry-After`.
   */
  too_many_requests: 429,
  /** The caller's tenant is full. */
  quota_exceeded: 507,
  /** The sandbox's plants, all tenants together, are at its memory budget. */
  sandbox_full: 507,
} as const

export type ErrorCode = keyof typeof errorStatus

/** The realm of every `WWW-Authenticate` challenge. */
export const realm = 'plant-store'

/**
 * Why an Error answer was given, as data the core's callers read instead of
 * its wording: the field (`name`, `limit`, `id`, `body`) and the rule it
 * broke (`required`, `too_big`, `format`, `json`…) of a 400; whether a 401's
 * token was `missing`, `invalid` or `expired`; the scope a 403 lacked.
 */
export interface Reason {
  readonly field?: string
  readonly rule?: string
  readonly token?: 'missing' | 'invalid' | 'expired'
  readonly scope?: string
}

/**
 * What marks a `PlantStoreError` of any copy of the package: the frontend's entries (`.`, `./node`, `./browser`)
 * and the sandbox's (`./server`, `./contracts`) are built apart, each with its own copy of this class (see
 * rolldown.config.ts), so `instanceof` asks for this key, shared through the global symbol registry, rather
 * than for one copy's prototype.
 */
const plantStoreErrorBrand: unique symbol = Symbol.for('plant-store-mock.PlantStoreError')

/**
 * The one error type of the Plant Store. Everything that goes wrong in the
 * core is thrown as a `PlantStoreError` and rendered by {@link renderError}.
 * `instanceof PlantStoreError` holds whichever of the package's entries made
 * the error and whichever one the class is imported from.
 *
 * @example
 * throw new PlantStoreError('not_found', 'No plant with id 7 exists.')
 */
export class PlantStoreError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** Why, as data: the field and rule a 400 is about, a 401's token, a 403's scope. */
  readonly reason: Reason | undefined
  /** The Error body's fields the contract declares beyond `error` and `message` (e.g. a `code`). */
  readonly fields: ErrorFields

  constructor(
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
    reason?: Reason,
    fields: ErrorFields = {},
  ) {
    super(message)
    this.name = 'PlantStoreError'
    this.code = code
    this.status = errorStatus[code]
    this.headers = headers
    this.reason = reason
    this.fields = fields
  }
}
// The brand on the prototype, so an error's own keys (what a test compares, what JSON shows) stay as they were;
// `instanceof PlantStoreError` asks for it, and a subclass's `instanceof` checks its own prototype as usual.
Object.defineProperty(PlantStoreError.prototype, plantStoreErrorBrand, { value: true })
Object.defineProperty(PlantStoreError, Symbol.hasInstance, {
  value(this: unknown, value: unknown): boolean {
    const branded = typeof value === 'object' && value !== null && plantStoreErrorBrand in value
    return branded && (this === PlantStoreError || Function.prototype[Symbol.hasInstance].call(this, value))
  },
})

/**
 * Builds the `WWW-Authenticate` challenge for a 401 or 403 (RFC 6750).
 *
 * @example
 * challenge('invalid_token') // 'Bearer realm="plant-store", error="invalid_token"'
 */
export function challenge(error?: 'invalid_token' | 'insufficient_scope'): string {
  return error ? `Bearer realm="${realm}", error="${error}"` : `Bearer realm="${realm}"`
}

/**
 * Renders any thrown value as an Error answer. A `PlantStoreError` keeps its
 * status, headers and message; anything else becomes a 500 with a generic
 * message, so no internal detail or stack trace ever reaches a client.
 *
 * @example
 * renderError(new PlantStoreError('conflict', 'A plant with id 1 already exists.'))
 * // { status: 409, headers: { 'content-type': 'application/json' }, body: '{"error":409,...}' }
 */
export function renderError(error: unknown): CoreResponse {
  if (error instanceof PlantStoreError) {
    const response = errorResponse(error.status, error.message, error.headers, error.fields)
    return error.reason === undefined ? response : { ...response, reason: error.reason }
  }
  return errorResponse(500, 'The Plant Store failed to answer this request.')
}

/**
 * An Error answer with this status, message and the contract's other Error
 * fields (`fields`); the one place an Error body is written, typed by the
 * contract's `Error` schema ({@link ErrorBody}).
 *
 * @example
 * errorResponse(418, 'Simulated status 418.')
 */
export function errorResponse(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  fields: ErrorFields = {},
): CoreResponse {
  const body: ErrorBody = { ...fields, error: status, message }
  return {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }
}

/**
 * `invalid_request` (400) with this message.
 *
 * @example
 * throw invalidRequest('limit must be given at most once.')
 */
export function invalidRequest(message: string, reason?: Reason): PlantStoreError {
  return new PlantStoreError('invalid_request', message, {}, reason)
}

/**
 * `method_not_allowed` (405) with the `Allow` header.
 *
 * @example
 * throw methodNotAllowed('PUT', 'GET, HEAD, POST')
 */
export function methodNotAllowed(method: string, allow: string): PlantStoreError {
  return new PlantStoreError('method_not_allowed', `Method ${quote(method)} is not allowed here; use ${allow}.`, {
    allow,
  })
}

/** How many characters of client input an Error message echoes by default. */
export const maxEchoedLength = 40

/**
 * A piece of a client's input as a message may echo it: at most `max`
 * characters (code points: a surrogate pair is never cut in half), cut with
 * `…` when longer. {@link quote} is the same, quoted.
 *
 * @example
 * echoed('x'.repeat(100)) // 'xxxx…' (40 x and the ellipsis)
 */
export function echoed(text: string, max = maxEchoedLength): string {
  if (text.length <= max) return text
  const characters = Array.from(text.slice(0, max * 2))
  return characters.length <= max ? text : `${characters.slice(0, max).join('')}…`
}

/**
 * Client input as an Error message echoes it: a JSON string literal (control
 * characters escaped, so the message stays one line) of at most `max`
 * characters of the input, cut with `…` when longer (see {@link echoed}).
 * Every message that repeats what a client sent (a path, a method, a field
 * name, an id, a header) goes through it, so no client can grow an answer or
 * a log line by sending a long name.
 *
 * @example
 * quote('timez') // '"timez"'
 * quote('x'.repeat(1000)) // '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"'
 */
export function quote(text: string, max = maxEchoedLength): string {
  return JSON.stringify(echoed(text, max))
}
