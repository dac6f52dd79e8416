import type { OperationId, Outcome } from '../core/app.ts'
import type { CoreRequest, CoreResponse } from '../core/http.ts'
import { pathMatches } from '../faults/path-pattern.ts'
import type { JournalFilter } from './journal-query.ts'
import { requestIdSyntax } from './request-log.ts'

/** One journaled exchange: what a tenant asked and what it was answered. */
export interface JournalEntry {
  /** The request id: the client's well-formed `X-Request-Id`, else one the journal gave (`r-…`). */
  readonly id: string
  /** ISO 8601 instant the answer was given. */
  readonly at: string
  /** The contract operation the request was routed to; `null` for an unknown path or method. */
  readonly operation: OperationId | null
  readonly request: {
    readonly method: string
    readonly path: string
    readonly query: string
    /** The headers that matter to the contract; `authorization` is redacted. */
    readonly headers: Readonly<Record<string, string>>
    /** The body as text (cut to the journal's limit), or `null` when none was read. */
    readonly body: string | null
  }
  /** The answer; status `0` with a `fault` when the transport was made to fail. */
  readonly response: CoreResponse
}

/** The answer to a journal query. */
export interface JournalQueryResult {
  /** How many kept entries match (before `limit`). */
  readonly count: number
  /** How many of the tenant's entries were dropped to stay within the capacity since it was last cleared. */
  readonly dropped: number
  /** The matching entries, oldest first: the `limit` most recent ones. */
  readonly requests: JournalEntry[]
}

/** Called with each entry as it is journaled. */
export type JournalListener = (tenantId: string, entry: JournalEntry) => void

export interface RequestJournalOptions {
  /** Entries kept per tenant; older ones are dropped (default 50). */
  capacity?: number
  /** Characters of a request or response body kept (default 4096). */
  maxBodyChars?: number
}

/** The request headers a journal keeps. */
const journaledHeaders = ['authorization', 'content-type', 'content-length', 'accept', 'prefer', 'user-agent'] as const

/**
 * A tenant's kept entries, a ring once full: `next` is where the next entry
 * goes, over the oldest (cheaper per request than shifting an array).
 */
interface TenantEntries {
  readonly entries: JournalEntry[]
  next: number
  /** How many entries were overwritten to stay within the capacity. */
  dropped: number
}

/** A tenant's kept entries, oldest first. */
function oldestFirst({ entries, next }: TenantEntries): JournalEntry[] {
  return entries.slice(next).concat(entries.slice(0, next))
}

const decoder = new TextDecoder()

/** The current instant in ISO 8601, formatted once per millisecond however many entries share it. */
let lastMillis = 0
let lastIso = ''
function now(): string {
  const millis = Date.now()
  if (millis !== lastMillis) {
    lastMillis = millis
    lastIso = new Date(millis).toISOString()
  }
  return lastIso
}

/**
 * The recent requests of each tenant and the answers given, the last
 * `capacity` per tenant, with `Authorization` values redacted. Subscribe
 * {@link RequestJournal.observe} to the core's outcomes.
 *
 * @example
 * const journal = new RequestJournal({ capacity: 50 })
 * const handle = createCore(store, { onOutcome: journal.observe })
 * journal.entries('acme') // oldest first
 */
export class RequestJournal {
  /** Entries kept per tenant. */
  readonly capacity: number
  readonly #tenants = new Map<string, TenantEntries>()
  readonly #maxBodyChars: number
  readonly #listeners = new Set<JournalListener>()
  /** Numbers the ids of requests that came without one. */
  #sequence = 0

  constructor(options: RequestJournalOptions = {}) {
    this.capacity = Math.max(1, options.capacity ?? 50)
    this.#maxBodyChars = options.maxBodyChars ?? 4096
  }

  /** Records an exchange of a tenant. */
  record(
    tenantId: string,
    request: CoreRequest,
    response: CoreResponse,
    requestBody?: Uint8Array,
    operation?: OperationId,
  ): void {
    const headers: Record<string, string> = {}
    for (const name of journaledHeaders) {
      const value = request.header(name)
      if (value !== null) headers[name] = name === 'authorization' ? redact(value) : value
    }
    const presentedId = request.header('x-request-id')
    const entry: JournalEntry = {
      // One id per request: the transport's (the sandbox's request log), else the client's, else one of ours.
      id:
        request.id ??
        (presentedId !== null && requestIdSyntax.test(presentedId) ? presentedId : `r-${++this.#sequence}`),
      at: now(),
      operation: operation ?? null,
      request: {
        method: request.method,
        path: request.path,
        query: request.query,
        headers,
        body: requestBody === undefined ? null : this.#cut(decoder.decode(requestBody)),
      },
      // Kept as it is unless its body must be cut: answers are never changed after they are given.
      response:
        response.body === null || response.body.length <= this.#maxBodyChars
          ? response
          : { ...response, body: this.#cut(response.body) },
    }
    let kept = this.#tenants.get(tenantId)
    if (!kept) {
      kept = { entries: [], next: 0, dropped: 0 }
      this.#tenants.set(tenantId, kept)
    }
    if (kept.entries.length < this.capacity) kept.entries.push(entry)
    else {
      kept.entries[kept.next] = entry
      kept.next = (kept.next + 1) % this.capacity
      kept.dropped++
    }
    for (const listener of this.#listeners) listener(tenantId, entry)
  }

  /** An outcome listener: journals every answer given to an authenticated tenant. */
  readonly observe = ({ principal, request, response, requestBody, operation }: Outcome): void => {
    if (principal) this.record(principal.tenantId, request, response, requestBody, operation)
  }

  /** The tenant's journaled exchanges, oldest first. */
  entries(tenantId: string): JournalEntry[] {
    const kept = this.#tenants.get(tenantId)
    return kept ? oldestFirst(kept) : []
  }

  /**
   * The tenant's entries that match a filter, with their count: what
   * `GET /__sandbox/requests` answers, and how a test verifies that exactly
   * N matching requests were made.
   *
   * @example
   * journal.query('acme', { method: 'DELETE', path: '/plants/{id}' }).count // 1
   */
  query(tenantId: string, filter: JournalFilter = {}): JournalQueryResult {
    const kept = this.#tenants.get(tenantId)
    const matching = (kept ? oldestFirst(kept) : []).filter((entry) => matches(entry, filter))
    const requests = filter.limit === undefined ? matching : matching.slice(-filter.limit)
    return { count: matching.length, dropped: kept?.dropped ?? 0, requests }
  }

  /** Forgets a tenant's entries (on reset, on `DELETE /__sandbox/requests`, on removal). */
  forget(tenantId: string): void {
    this.#tenants.delete(tenantId)
  }

  /** Calls `listener` with each entry as it is journaled; answers a function that stops it. */
  subscribe(listener: JournalListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #cut(text: string): string {
    return text.length > this.#maxBodyChars ? `${text.slice(0, this.#maxBodyChars)}…` : text
  }
}

function matches({ at, request, response }: JournalEntry, filter: JournalFilter): boolean {
  const { method, path, status, since, until } = filter
  return (
    (method === undefined || request.method === method) &&
    (path === undefined || pathMatches(path, request.path)) &&
    (status === undefined ||
      ('exact' in status ? response.status === status.exact : Math.floor(response.status / 100) === status.class)) &&
    (since === undefined || Date.parse(at) >= since) &&
    (until === undefined || Date.parse(at) < until)
  )
}

/** `Bearer abc` → `Bearer [redacted]`: the scheme stays, the credential never does. */
function redact(authorization: string): string {
  const space = authorization.indexOf(' ')
  return space === -1 ? '[redacted]' : `${authorization.slice(0, space)} [redacted]`
}
