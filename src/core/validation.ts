import { invalidRequest as invalid, PlantStoreError } from './errors.ts'
import { utf8 } from './utf8.ts'

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
