/**
 * The request journal of an in-process mock (msw's handlers, Playwright's
 * routes): the sandbox's journal (`src/core/journal.ts`) kept per store,
 * queried, counted and verified with the sandbox client's names, filter and
 * matching (`SandboxTenant.requests`).
 */
import { type RequestFilter, RequestVerificationError, requestsQueryOf } from './client/request-filter.ts'
import type { Outcome } from './core/core.ts'
import {
  type JournalEntry,
  type JournalQueryResult,
  RequestJournal,
  type RequestJournalOptions,
} from './core/journal.ts'
import { type JournalFilter, parseJournalQuery } from './core/journal-query.ts'

/**
 * Which journaled requests to select: the sandbox's filter (method, path or
 * contract template, status or class, `since`, `until`, `limit`), plus the
 * tenant whose token the request carried (`null`: requests whose token
 * resolved to no tenant, such as a 401 for a missing token). Without
 * `tenant`, every request the mock answered.
 */
export interface PlantStoreRequestFilter extends RequestFilter {
  tenant?: string | null
}

/** The bounds of an in-process journal: it keeps a store's most recent requests, not each tenant's. */
export type PlantStoreJournalOptions = Pick<RequestJournalOptions, 'capacity' | 'maxBodyChars'> & {
  /** Bytes of entries kept; the oldest are dropped beyond it (default 8 MiB). */
  maxBytes?: number
}

/** The bounds an in-process journal has unless told otherwise. */
export const plantStoreJournalDefaults = { capacity: 1000, maxBytes: 8 << 20 } as const

/** The one key the journal keeps the store's entries under: the tenant is kept beside each entry. */
const storeKey = 'store'

/**
 * The requests an in-process mock answered and what it answered, oldest
 * first: the last 1,000 (and at most 8 MiB), with `Authorization` redacted
 * and bodies cut to 4,096 characters, as the sandbox journals them. `list`,
 * `count` and `verify` take the sandbox client's filter and match as the
 * sandbox does; they answer at once (no promise), and `await` on them works
 * as it does on the sandbox's.
 *
 * @example
 * const { requests } = setupPlantStoreServer()
 * // … the app deletes a plant …
 * requests.verify(1, { method: 'DELETE', path: '/plants/{id}', status: 204 })
 * requests.count({ tenant: 'acme', status: '4xx' }) // 0
 */
export class PlantStoreRequests {
  readonly #journal: RequestJournal
  /** The tenant of each kept entry (`null`: none); entries dropped from the journal drop out of it. */
  readonly #tenants = new WeakMap<JournalEntry, string | null>()
  /** The tenant of the outcome being journaled, read by the journal's listener. */
  #tenant: string | null = null

  constructor(options: PlantStoreJournalOptions = {}) {
    const maxBytes = options.maxBytes ?? plantStoreJournalDefaults.maxBytes
    this.#journal = new RequestJournal({
      capacity: options.capacity ?? plantStoreJournalDefaults.capacity,
      maxBodyChars: options.maxBodyChars,
      maxTenantBytes: maxBytes,
      maxTotalBytes: maxBytes,
    })
    this.#journal.subscribe((_, entry) => {
      this.#tenants.set(entry, this.#tenant)
    })
  }

  /** The outcome listener the mock's handlers report to: journals every answer. */
  readonly observe = (outcome: Outcome): void => {
    this.#tenant = outcome.principal?.tenantId ?? null
    const { request, response, requestBody, operation } = outcome
    this.#journal.record(storeKey, request, response, requestBody, operation)
  }

  /**
   * The journaled requests that match, oldest first (the `limit` most
   * recent), with how many match and how many were dropped. A filter the
   * sandbox would refuse (an unknown status, a `limit` above 1,000) throws
   * its `invalid_request` error.
   */
  list(filter: PlantStoreRequestFilter = {}): JournalQueryResult {
    const { tenant, ...rest } = filter
    const query = parseJournalQuery(new URLSearchParams(stringsOf(requestsQueryOf(rest))).toString())
    if (tenant === undefined) return this.#journal.query(storeKey, query)
    const { limit, ...unlimited }: JournalFilter = query
    const { dropped, requests } = this.#journal.query(storeKey, unlimited)
    const matching = requests.filter((entry) => this.#tenants.get(entry) === tenant)
    return { count: matching.length, dropped, requests: limit === undefined ? matching : matching.slice(-limit) }
  }

  /** How many journaled requests match. */
  count(filter: PlantStoreRequestFilter = {}): number {
    return this.list(filter).count
  }

  /** Throws a {@link RequestVerificationError} listing what it holds unless exactly `expected` journaled requests match. */
  verify(expected: number, filter: PlantStoreRequestFilter = {}): void {
    const answer = this.list(filter)
    if (answer.count !== expected) throw new RequestVerificationError(expected, answer, filter)
  }

  /** Empties the journal (the store's data stays), e.g. in `afterEach`. */
  clear(): void {
    this.#journal.forget(storeKey)
  }
}

/** A query's values as the strings a query string holds. */
function stringsOf(query: object): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)]))
}
