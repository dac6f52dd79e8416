import type { PlantStoreHandler } from './app.ts'
import type { CoreRequest, CoreResponse } from './http.ts'

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

/** A bounded ring buffer of entries. */
class Ring<T> {
  readonly #items: T[] = []
  readonly #capacity: number
  #next = 0

  constructor(capacity: number) {
    this.#capacity = capacity
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

const bodies = new WeakMap<CoreRequest, Uint8Array>()
const decoder = new TextDecoder()

/**
 * The recent requests of each tenant and the answers given, in a bounded ring
 * buffer per tenant, with `Authorization` values redacted. Transport-neutral:
 * plug {@link RequestJournal.observe} into `createCore`'s `onResponse` and
 * wrap the handler with {@link RequestJournal.capture} to keep request bodies.
 *
 * @example
 * const journal = new RequestJournal({ capacity: 50 })
 * const handle = journal.capture(createCore(store, { onResponse: journal.observe }))
 * journal.entries('acme') // oldest first
 */
export class RequestJournal {
  readonly #rings = new Map<string, Ring<JournalEntry>>()
  readonly #capacity: number
  readonly #maxBodyChars: number

  constructor(options: RequestJournalOptions = {}) {
    this.#capacity = Math.max(1, options.capacity ?? 50)
    this.#maxBodyChars = options.maxBodyChars ?? 4096
  }

  /** Records an exchange of a tenant. */
  record(tenantId: string, request: CoreRequest, response: CoreResponse): void {
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
    const bytes = bodies.get(request)
    ring.push({
      at: new Date().toISOString(),
      request: {
        method: request.method,
        path: request.path,
        query: request.query,
        headers,
        body: bytes === undefined ? null : this.#cut(decoder.decode(bytes)),
      },
      response: { ...response, body: response.body === null ? null : this.#cut(response.body) },
    })
  }

  /** An `onResponse` observer for `createCore`: journals every answer given to an authenticated tenant. */
  readonly observe = (
    request: CoreRequest,
    response: CoreResponse,
    principal: { readonly tenantId: string } | undefined,
  ): void => {
    if (principal) this.record(principal.tenantId, request, response)
  }

  /** Wraps a handler so that the request bodies it reads are kept for the journal. */
  capture(handle: PlantStoreHandler): PlantStoreHandler {
    return (request) => {
      if (request.method !== 'POST') return handle(request)
      const captured: CoreRequest = {
        method: request.method,
        path: request.path,
        query: request.query,
        header: request.header,
        readBody: async (limit) => {
          const body = await request.readBody(limit)
          if (body !== 'too_large') bodies.set(captured, body)
          return body
        },
      }
      return handle(captured)
    }
  }

  /** The tenant's journaled exchanges, oldest first. */
  entries(tenantId: string): JournalEntry[] {
    return this.#rings.get(tenantId)?.toArray() ?? []
  }

  /** Forgets a tenant's entries (on reset or eviction). */
  forget(tenantId: string): void {
    this.#rings.delete(tenantId)
  }

  /** The body of a request that went through {@link capture}, if it was read. */
  static bodyOf(request: CoreRequest): Uint8Array | undefined {
    return bodies.get(request)
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
