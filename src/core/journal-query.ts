/**
 * The journal's query (`GET /__sandbox/requests`, and the in-process mocks'
 * `requests.list()`, `count()` and `verify()`): its parameters, how each is
 * read and checked, and its bounds.
 */
import { invalidRequest } from './errors.ts'
import { anyMethodSchema, pathPatternSchema } from './request-pattern.ts'
import { invalidField, refuseUnknownNames } from './unknown-names.ts'
import { lazy, z } from './zod.ts'

/** Bounds of a journal query: the most entries one answer holds, the longest query string. */
export const journalQueryLimits = { maxLimit: 1000, maxQueryLength: 2048 } as const

const statusMessage = 'must be a status such as 503, a class such as 5xx, or 0 (a transport fault)'
const limitMessage = `must be an integer from 1 to ${journalQueryLimits.maxLimit}, written in decimal digits`
const instantMessage = 'must be an ISO 8601 instant such as 2026-01-01T12:00:00Z'

/** An RFC 3339 date-time, as JSON Schema's `date-time` format takes it: `T` and `Z` in either case; epoch ms. */
const instant = () =>
  z.pipe(
    z.pipe(
      z.string({ error: instantMessage }),
      z.transform((text: string) => text.toUpperCase()),
    ),
    z.pipe(
      z.iso.datetime({ offset: true, error: instantMessage }),
      z.transform((text: string) => Date.parse(text)),
    ),
  )

/** The query parameters a journal query takes. */
export const journalQueryNames = ['method', 'path', 'status', 'since', 'until', 'limit'] as const

/** Which entries a journal query selects: every field optional, all given ones must hold. */
export interface JournalFilter {
  /** Any method, in upper case: the journal keeps requests whatever their method. */
  readonly method?: string
  /** A literal path (`/plants/42`) or a contract template (`/plants/{id}`). */
  readonly path?: string
  /** An exact status (`0` for a transport fault), or a class: `4` for 4xx. */
  readonly status?: { readonly exact: number } | { readonly class: number }
  /** Epoch ms: entries at or after. */
  readonly since?: number
  /** Epoch ms: entries before. */
  readonly until?: number
  /** At most this many entries, the most recent ones. */
  readonly limit?: number
}

const journalQuerySchema = lazy(() =>
  z.strictObject({
    method: z.optional(anyMethodSchema),
    path: z.optional(pathPatternSchema),
    status: z.optional(
      z.pipe(
        z.string().check(z.regex(/^(?:0|[1-5]\d\d|[1-5]xx)$/, { error: statusMessage })),
        z.transform(
          (text: string): NonNullable<JournalFilter['status']> =>
            text.endsWith('xx') ? { class: Number(text[0]) } : { exact: Number(text) },
        ),
      ),
    ),
    since: z.optional(instant()),
    until: z.optional(instant()),
    limit: z.optional(
      z.pipe(
        z.pipe(z.string().check(z.regex(/^\d{1,4}$/, { error: limitMessage })), z.transform(Number)),
        z
          .number()
          .check(
            z.minimum(1, { error: limitMessage }),
            z.maximum(journalQueryLimits.maxLimit, { error: limitMessage }),
          ),
      ),
    ),
  } satisfies Record<(typeof journalQueryNames)[number], unknown>),
)

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
