import { z } from 'zod'
import { invalidRequest } from '../core/errors.ts'
import { anyMethodSchema, pathPatternSchema } from '../core/request-pattern.ts'
import { invalidField, refuseUnknownNames } from '../core/unknown-names.ts'

/** Bounds of a journal query: the most entries one answer holds, the longest query string. */
export const journalQueryLimits = { maxLimit: 1000, maxQueryLength: 2048 } as const

const statusMessage = 'must be a status such as 503, a class such as 5xx, or 0 (a transport fault)'
const limitMessage = `must be an integer from 1 to ${journalQueryLimits.maxLimit}, written in decimal digits`
const instantMessage = 'must be an ISO 8601 instant such as 2026-01-01T12:00:00Z'

/** An RFC 3339 date-time, as JSON Schema's `date-time` format takes it: `T` and `Z` in either case. */
const instant = z
  .string({ error: instantMessage })
  .transform((text) => text.toUpperCase())
  .pipe(z.iso.datetime({ offset: true, error: instantMessage }))
  .transform((text) => Date.parse(text))

const journalQuerySchema = z.strictObject({
  /** Any method: the journal keeps requests whatever their method. */
  method: z.optional(anyMethodSchema),
  /** A literal path (`/plants/42`) or a contract template (`/plants/{id}`). */
  path: z.optional(pathPatternSchema),
  /** An exact status (`0` for a transport fault), or a class: `4` for 4xx. */
  status: z
    .string()
    .regex(/^(?:0|[1-5]\d\d|[1-5]xx)$/, { error: statusMessage })
    .transform((text) => (text.endsWith('xx') ? { class: Number(text[0]) } : { exact: Number(text) }))
    .optional(),
  /** Epoch ms: entries at or after. */
  since: instant.optional(),
  /** Epoch ms: entries before. */
  until: instant.optional(),
  /** At most this many entries, the most recent ones. */
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: limitMessage })
    .transform(Number)
    .pipe(z.number().min(1, { error: limitMessage }).max(journalQueryLimits.maxLimit, { error: limitMessage }))
    .optional(),
})

/** The query parameters a journal query takes. */
export const journalQueryNames: readonly string[] = Object.keys(journalQuerySchema.shape)

/** Which entries a journal query selects: every field optional, all given ones must hold. */
export type JournalFilter = Readonly<z.output<typeof journalQuerySchema>>

/**
 * Parses the query string of `GET /__sandbox/requests`: `method`, `path` (a
 * literal path or a contract template), `status` (`503`, `5xx`, or `0` for a
 * transport fault), `since` and `until` (RFC 3339 instants; since inclusive,
 * until exclusive: an `until` not after `since` selects nothing) and `limit`. Each at most once; an unknown or invalid one
 * is an `invalid_request` (400) naming it.
 *
 * @example
 * parseJournalQuery('method=DELETE&path=/plants/{id}') // { method: 'DELETE', path: '/plants/{id}' }
 */
export function parseJournalQuery(query: string): JournalFilter {
  if (query.length > journalQueryLimits.maxQueryLength) {
    throw invalidRequest(`The query string is longer than ${journalQueryLimits.maxQueryLength} characters.`)
  }
  const params: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(query)) {
    refuseUnknownNames([name], journalQueryNames, 'query parameter')
    if (Object.hasOwn(params, name)) throw invalidRequest(`${name} must be given at most once.`)
    params[name] = value
  }
  const result = journalQuerySchema.safeParse(params)
  if (!result.success) throw invalidField(result.error)
  return result.data
}
