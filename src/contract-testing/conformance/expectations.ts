/**
 * What a rule expects of an answer, each with the words a report shows when
 * it breaks. They judge what the contract requires and nothing incidental:
 * header names are case-insensitive, messages are only checked for naming
 * the field, `Allow` may list more methods, unknown headers are ignored.
 */
import { toPlant } from '../../core/schemas.ts'
import type { Plant } from '../../generated/openapi.ts'
import { type Answer, mediaTypeOf } from './exchange.ts'

/** One expectation: what was expected, and whether an answer meets it. */
export interface Expectation {
  readonly expected: string
  holds(answer: Answer): boolean
}

/** A plant as the contract answers it (the `Plant` schema, generated): a name and, when it has one, a tag. */
export type { Plant }

/**
 * The answer has this status.
 *
 * @example
 * context.expect(exchange, status(204))
 */
export function status(code: number): Expectation {
  return { expected: `status ${code}`, holds: (answer) => answer.status === code }
}

/**
 * Any 2xx: enough for a rule that only sets something up (the status itself
 * is judged by the rule that names it, e.g. `create.success`).
 *
 * @example
 * context.require(exchange, succeeded('the plant to be created'))
 */
export function succeeded(what: string): Expectation {
  return { expected: `a 2xx answer (${what})`, holds: (answer) => answer.status >= 200 && answer.status < 300 }
}

/**
 * The answer's `Content-Type` is `application/json` (parameters allowed).
 *
 * @example
 * context.expect(exchange, jsonContent)
 */
export const jsonContent: Expectation = {
  expected: 'Content-Type: application/json',
  holds: (answer) => mediaTypeOf(answer) === 'application/json',
}

/**
 * The answer has no body (a 204).
 *
 * @example
 * context.expect(exchange, status(204), noBody)
 */
export const noBody: Expectation = { expected: 'no body', holds: (answer) => answer.text === '' }

/**
 * Whether an answer carries the contract's Error body: `application/json`,
 * an object whose `error` is the answer's status and whose `message` is a
 * non-empty string.
 *
 * @example
 * isErrorBody(answer) // true for 404 {"error":404,"message":"No plant with id 7."}
 */
export function isErrorBody(answer: Answer): boolean {
  const body = answer.json?.value as { error?: unknown; message?: unknown } | null | undefined
  return (
    mediaTypeOf(answer) === 'application/json' &&
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    body.error === answer.status &&
    typeof body.message === 'string' &&
    body.message.length > 0
  )
}

/**
 * The answer has this status and the Error body.
 *
 * @example
 * context.expect(exchange, errorBody(409))
 */
export function errorBody(code: number): Expectation {
  return {
    expected: `status ${code} with an Error body {"error": ${code}, "message": "…"} as application/json`,
    holds: (answer) => answer.status === code && isErrorBody(answer),
  }
}

/**
 * The body is JSON for which the predicate holds.
 *
 * @example
 * context.expect(exchange, json('an empty array', (value) => Array.isArray(value) && value.length === 0))
 */
export function json(expected: string, predicate: (value: unknown) => boolean): Expectation {
  return { expected, holds: (answer) => answer.json !== undefined && predicate(answer.json.value) }
}

/**
 * The body is this plant: the same name and tag, and no `tag` at all when it
 * has none (never `"tag": null`). Other fields are not judged.
 *
 * @example
 * context.expect(exchange, plantBody({ name: 'Fern' }))
 */
export function plantBody(plant: Plant): Expectation {
  return json(`the Plant ${JSON.stringify(toPlant(plant))}`, (value) => samePlant(value, plant))
}

/**
 * Whether a JSON value is this plant (see {@link plantBody}).
 *
 * @example
 * samePlant({ name: 'Fern', tag: null }, { name: 'Fern' }) // false: an absent tag is omitted, never null
 */
export function samePlant(value: unknown, plant: Plant): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const entry = value as Record<string, unknown>
  return entry.name === plant.name && (plant.tag === undefined ? !Object.hasOwn(entry, 'tag') : entry.tag === plant.tag)
}

/**
 * Whether a JSON value is exactly these plants, in this order (see {@link samePlant}).
 *
 * @example
 * samePlants([{ name: 'Fern' }], [{ name: 'Fern' }]) // true
 */
export function samePlants(value: unknown, plants: readonly Plant[]): boolean {
  return Array.isArray(value) && value.length === plants.length && plants.every((p, i) => samePlant(value[i], p))
}

/**
 * The challenge of a 401 or 403, exactly as the contract writes it.
 *
 * @example
 * challengeValue('invalid_token') // 'Bearer realm="plant-store", error="invalid_token"'
 */
export function challengeValue(error?: 'invalid_token' | 'insufficient_scope'): string {
  return error ? `Bearer realm="plant-store", error="${error}"` : 'Bearer realm="plant-store"'
}

/**
 * The answer carries this RFC 6750 challenge in `WWW-Authenticate`.
 *
 * @example
 * context.expect(exchange, errorBody(401), challenge('invalid_token'))
 */
export function challenge(error?: 'invalid_token' | 'insufficient_scope'): Expectation {
  const value = challengeValue(error)
  return { expected: `WWW-Authenticate: ${value}`, holds: (answer) => answer.headers.get('www-authenticate') === value }
}

/**
 * The Error message names the field that is wrong (as a word, any case).
 *
 * @example
 * context.expect(exchange, errorBody(400), namesField('limit'))
 */
export function namesField(field: string): Expectation {
  const word = new RegExp(`\\b${field}\\b`, 'i')
  return {
    expected: `a message naming "${field}"`,
    holds: (answer) => {
      const message = (answer.json?.value as { message?: unknown } | null | undefined)?.message
      return typeof message === 'string' && word.test(message)
    },
  }
}

/**
 * The `Allow` header lists at least these methods (more are fine).
 *
 * @example
 * context.expect(exchange, errorBody(405), allows(['GET', 'POST']))
 */
export function allows(methods: readonly string[]): Expectation {
  return {
    expected: `Allow listing ${methods.join(', ')} (others may follow)`,
    holds: (answer) => {
      const listed = new Set((answer.headers.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase()))
      return methods.every((method) => listed.has(method))
    },
  }
}

/**
 * Either status is fine (e.g. 200, or 409 when an id someone else may hold
 * is taken), with further expectations for the first.
 *
 * @example
 * context.expect(exchange, statusOr(200, 409, plantBody({ name: 'x' })))
 */
export function statusOr(code: number, alternative: number, ...then: Expectation[]): Expectation {
  return {
    expected: `status ${code}${then.map((e) => ` with ${e.expected}`).join('')} (or ${alternative})`,
    holds: (answer) => answer.status === alternative || (answer.status === code && then.every((e) => e.holds(answer))),
  }
}
