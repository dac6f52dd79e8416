import { contract } from '../generated/contract.ts'
import { invalidRequest as invalid, PlantStoreError } from './errors.ts'
import { plantSchema, type StoredPlant } from './schemas.ts'
import { utf8 } from './utf8.ts'

const digitsOnly = /^[0-9]+$/
const signedDigits = /^-?[0-9]+$/

/**
 * Parses the `limit` query parameter: absent is `undefined` (all plants);
 * otherwise decimal digits only, within int32 and not below 0.
 *
 * @example
 * parseLimit('limit=10') // 10
 * parseLimit('') // undefined
 */
export function parseLimit(query: string): number | undefined {
  if (query === '') return undefined
  const values = new URLSearchParams(query).getAll('limit')
  if (values.length === 0) return undefined
  if (values.length > 1) throw invalid('limit must be given at most once.', { field: 'limit', rule: 'once' })
  const [raw = ''] = values
  const limit = Number(raw)
  if (!digitsOnly.test(raw) || limit < contract.limit.minimum || limit > contract.limit.maximum) {
    throw invalid(
      `limit must be an integer from ${contract.limit.minimum} to ${contract.limit.maximum}, written in decimal digits.`,
      { field: 'limit', rule: 'format' },
    )
  }
  return limit
}

/**
 * Parses the plant id of a path segment: an optional `-` and decimal digits,
 * within the range JavaScript represents exactly.
 *
 * @example
 * parsePathId('42') // 42
 * parsePathId('1e3') // throws invalid_request
 */
export function parsePathId(segment: string): number {
  const id = Number(segment)
  if (!signedDigits.test(segment) || id < contract.pathId.minimum || id > contract.pathId.maximum) {
    throw invalid(
      `The plant id in the path must be an integer from ${contract.pathId.minimum} to ${contract.pathId.maximum}, written in decimal digits.`,
      { field: 'id', rule: 'format' },
    )
  }
  return id === 0 ? 0 : id
}

/**
 * `application/json`, optionally followed by `;` and nothing, or by one or
 * more `charset=utf-8` parameters (quoted or not); spaces allowed around each.
 */
const jsonMediaType = /^\s*application\/json\s*(?:;\s*|(?:;\s*charset\s*=\s*(?:"utf-8"|utf-8)\s*)+)?$/i

/**
 * Checks the request's `Content-Type`: `application/json`, with no parameter
 * but a UTF-8 charset. Anything else is `unsupported_media_type`.
 *
 * @example
 * checkContentType('application/json; charset=utf-8')
 */
export function checkContentType(contentType: string | null): void {
  if (contentType === null || !jsonMediaType.test(contentType)) {
    throw new PlantStoreError(
      'unsupported_media_type',
      'The request body must be JSON, sent with "Content-Type: application/json" (charset utf-8, if any).',
    )
  }
}

/**
 * Parses and validates a `NewPlant` body. Unknown fields are ignored and a
 * `null` tag counts as absent; every failure is `invalid_request` naming the
 * field.
 *
 * @example
 * parseNewPlant(new TextEncoder().encode('{"id":1,"name":"Fern"}')) // { id: 1, name: 'Fern' }
 */
export function parseNewPlant(body: Uint8Array): StoredPlant {
  if (body.byteLength === 0) {
    throw invalid('The request body is empty; send a NewPlant JSON object.', { field: 'body', rule: 'required' })
  }
  const { id, name, tag } = parseJsonObject(body, 'a NewPlant')
  if (name === undefined) throw invalid('name is required.', { field: 'name', rule: 'required' })
  if (id === undefined) throw invalid('id is required.', { field: 'id', rule: 'required' })
  const result = plantSchema.safeParse(tag == null ? { id, name } : { id, name, tag })
  if (!result.success) {
    const issue = result.error.issues[0]
    const field = issue?.path[0]
    throw invalid(issue?.message ?? 'The NewPlant is invalid.', {
      ...(typeof field === 'string' ? { field } : {}),
      ...(issue ? { rule: issue.code } : {}),
    })
  }
  const plant = result.data
  if (Object.is(plant.id, -0)) plant.id = 0
  return plant
}

/**
 * Decodes a body as UTF-8 JSON that must be an object; anything else is
 * `invalid_request`. `what` names the expected object in the message.
 *
 * @example
 * parseJsonObject(bytes, 'a NewPlant') // { id: 1, name: 'Fern' }
 */
export function parseJsonObject(body: Uint8Array, what: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(utf8.strictDecoder.decode(body))
  } catch {
    throw invalid('The request body is not valid JSON.', { field: 'body', rule: 'json' })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`The request body must be a JSON object (${what}).`, { field: 'body', rule: 'object' })
  }
  return value as Record<string, unknown>
}
