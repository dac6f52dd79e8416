/**
 * Which journaled requests a test selects, counts and verifies: the same
 * filter and the same verification for the sandbox's journal
 * (`SandboxTenant.requests`) and the in-process mocks' (`requests` of
 * `setupPlantStoreServer`, `setupPlantStoreWorker`, `routePlantStore`).
 */
import type { operations } from '../generated/sandbox-openapi.ts'

/** The query of `GET /__sandbox/requests`, as the contract writes it. */
type RequestsQuery = NonNullable<operations['listRequests']['parameters']['query']>

/**
 * Which journaled requests to select (`GET /__sandbox/requests`); every field
 * optional. The contract's query, with a status also as a number and the
 * instants also as `Date`s.
 */
export interface RequestFilter extends Omit<RequestsQuery, 'status' | 'since' | 'until'> {
  /** A literal path (`/plants/42`) or a contract template (`/plants/{id}`). */
  path?: string
  /** A status (`503`), a class (`'5xx'`), or `0` for a transport fault. */
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`
  /** Requests answered at or after this instant. */
  since?: Date | string
  /** Requests answered before this instant. */
  until?: Date | string
  /** At most this many, the most recent (1 to 1,000). */
  limit?: number
}

/** What a verification error tells of a journaled exchange. */
interface VerifiedEntry {
  readonly request: { readonly method: string; readonly path: string; readonly query: string }
  readonly response: { readonly status: number; readonly fault?: string | null }
}

/** What a verification error tells of a journal's answer. */
interface VerifiedAnswer<Entry extends VerifiedEntry> {
  readonly count: number
  readonly dropped: number
  readonly requests: readonly Entry[]
}

/**
 * Thrown by a journal's `verify` when it does not hold exactly the expected
 * requests; its message lists the matching ones it holds.
 *
 * @example
 * expect(() => requests.verify(2, { method: 'POST' })).toThrow(RequestVerificationError)
 */
export class RequestVerificationError<Entry extends VerifiedEntry = VerifiedEntry> extends Error {
  readonly expected: number
  readonly actual: number
  readonly requests: readonly Entry[]

  constructor(expected: number, answer: VerifiedAnswer<Entry>, filter: RequestFilter) {
    const what = describeFilter(filter)
    const seen = answer.requests.map(({ request, response }) => {
      const status = response.status === 0 ? `fault ${response.fault ?? ''}` : String(response.status)
      return `\n  ${request.method} ${request.path}${request.query ? `?${request.query}` : ''} → ${status}`
    })
    const dropped = answer.dropped > 0 ? ` (${answer.dropped} older requests were dropped from the journal)` : ''
    super(`Expected exactly ${expected} ${what}, found ${answer.count}${dropped}:${seen.join('') || ' none'}`)
    this.name = 'RequestVerificationError'
    this.expected = expected
    this.actual = answer.count
    this.requests = answer.requests
  }
}

/**
 * A filter as the contract's query: numbers and `Date`s written as the
 * sandbox reads them; fields given as `undefined` left out.
 *
 * @example
 * requestsQueryOf({ status: 503, since: new Date(0) }) // { status: '503', since: '1970-01-01T00:00:00.000Z' }
 */
export function requestsQueryOf({ status, since, until, ...rest }: RequestFilter): RequestsQuery {
  const query: RequestsQuery = {
    ...rest,
    ...(status === undefined ? {} : { status: String(status) }),
    ...(since === undefined ? {} : { since: instant(since) }),
    ...(until === undefined ? {} : { until: instant(until) }),
  }
  for (const name of Object.keys(query) as (keyof RequestsQuery)[]) if (query[name] === undefined) delete query[name]
  return query
}

function instant(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : value
}

function describeFilter({ method = 'any method', path = 'any path', status }: RequestFilter): string {
  return `request(s) matching ${method} ${path}${status === undefined ? '' : ` answered ${status}`}`
}
