import type { Outcome } from '../core/app.ts'
import type { CoreRequest, CoreResponse } from '../core/http.ts'

/** One journaled exchange: what a tenant asked and what it was answered. */
export interface JournalEntry {
  /** ISO 8601 instant the answer was given. */
  readonly at: string
  readonly request: {
    readonly method: string
    readonly path: string
    readonly query: string
    /** The headers that matter to the contract; `authorization` is redacted. */
    readonly headers: Readonly<Record<string, string>>
    /** The body as text (cut to the journal's limit), or `null` when none was read. */
    readonly body: string | null
  }
  readonly response: CoreResponse
}

export interface RequestJournalOptions {
  /** Entries kept per tenant; older ones are dropped (default 50). */
  capacity?: number
  /** Characters of a request or response body kept (default 4096). */
  maxBodyChars?: number
}

/** The request headers a journal keeps. */
const journaledHeaders = ['authorization', 'content-type', 'content-length', 'accept', 'prefer', 'user-agent'] as const

/**
 * A bounded ring buffer: keeps the last `capacity` items pushed.
 *
 * @example
 * const ring = new Ring<number>(2)
 * ring.push(1); ring.push(2); ring.push(3)
 * ring.toArray() // [2, 3]
 */
export class Ring<T> {
  readonly #items: T[] = []
  readonly #capacity: number
  #next = 0

  constructor(capacity: number) {
    this.#capacity = Math.max(1, capacity)
  }

  push(item: T): void {
    if (this.#items.length < this.#capacity) this.#items.push(item)
    else this.#items[this.#next] = item
    this.#next = (this.#next + 1) % this.#capacity
  }

  /** Oldest first. */
  toArray(): T[] {
    if (this.#items.length < this.#capacity) return [...this.#items]
    return [...this.#items.slice(this.#next), ...this.#items.slice(0, this.#next)]
  }
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
 * The recent requests of each tenant and the answers given, in a bounded ring
 * buffer per tenant, with `Authorization` values redacted. Subscribe
 * {@link RequestJournal.observe} to the core's outcomes.
 *
 * @example
 * const journal = new RequestJournal({ capacity: 50 })
 * const handle = createCore(store, { onOutcome: journal.observe })
 * journal.entries('acme') // oldest first
 */
export class RequestJournal {
  readonly #rings = new Map<string, Ring<JournalEntry>>()
  readonly #capacity: number
  readonly #maxBodyChars: number

  constructor(options: RequestJournalOptions = {}) {
    this.#capacity = options.capacity ?? 50
    this.#maxBodyChars = options.maxBodyChars ?? 4096
  }

  /** Records an exchange of a tenant. */
  record(tenantId: string, request: CoreRequest, response: CoreResponse, requestBody?: Uint8Array): void {
    let ring = this.#rings.get(tenantId)
    if (!ring) {
      ring = new Ring(this.#capacity)
      this.#rings.set(tenantId, ring)
    }
    const headers: Record<string, string> = {}
    for (const name of journaledHeaders) {
      const value = request.header(name)
      if (value !== null) headers[name] = name === 'authorization' ? redact(value) : value
    }
    ring.push({
      at: now(),
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
    })
  }

  /** An outcome listener: journals every answer given to an authenticated tenant. */
  readonly observe = ({ principal, request, response, requestBody }: Outcome): void => {
    if (principal) this.record(principal.tenantId, request, response, requestBody)
  }

  /** The tenant's journaled exchanges, oldest first. */
  entries(tenantId: string): JournalEntry[] {
    return this.#rings.get(tenantId)?.toArray() ?? []
  }

  /** Forgets a tenant's entries (on reset or eviction). */
  forget(tenantId: string): void {
    this.#rings.delete(tenantId)
  }

  #cut(text: string): string {
    return text.length > this.#maxBodyChars ? `${text.slice(0, this.#maxBodyChars)}…` : text
  }
}

/** `Bearer abc` → `Bearer [redacted]`: the scheme stays, the credential never does. */
function redact(authorization: string): string {
  const space = authorization.indexOf(' ')
  return space === -1 ? '[redacted]' : `${authorization.slice(0, space)} [redacted]`
}
