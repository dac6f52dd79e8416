/**
 * The request journal: each tenant's recent exchanges, bounded in entries and
 * bytes, queried by method, path, status and time. The sandbox's
 * (`GET /__sandbox/requests`) and the in-process mocks' (`requests` of
 * `setupPlantStoreServer`, `routePlantStore`) are this one.
 */
import type { OperationId, Outcome } from './core.ts'
import { type CoreRequest, type CoreResponse, requestIdSyntax } from './http.ts'
import type { JournalFilter } from './journal-query.ts'
import { redactedBody, redactedQuery } from './redaction.ts'
import { pathMatches } from './request-pattern.ts'

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
    /** The query as sent, the values of secret-looking parameters (`api_key`, `access_token`…) redacted. */
    readonly query: string
    /** The headers that matter to the contract; `authorization` is redacted. */
    readonly headers: Readonly<Record<string, string>>
    /**
     * The body as text (cut to the journal's limit), or `null` when none was read; secret-looking fields
     * (`password`, `client_secret`…) redacted.
     */
    readonly body: string | null
  }
  /**
   * The answer; status `0` with a `fault` when the transport was made to fail; an Error answer's `reason` (the
   * field and rule of a 400, a 401's token, a 403's scope) as the core gave it.
   */
  readonly response: CoreResponse
}

/** The answer to a journal query. */
export interface JournalQueryResult {
  /** How many kept entries match (before `limit`). */
  readonly count: number
  /**
   * How many of the tenant's entries were dropped since it was last cleared: to stay within the entries kept per
   * tenant, the bytes kept per tenant, or the bytes the whole journal keeps.
   */
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
  /** Bytes of entries kept per tenant; its oldest are dropped beyond it (default 1 MiB). */
  maxTenantBytes?: number
  /** Bytes of entries kept in all; beyond it the tenant holding the most loses its oldest (default 64 MiB). */
  maxTotalBytes?: number
}

/**
 * The journal's default bounds. An entry with two cut bodies is counted for
 * about 17 KB, so 50 of them (~850 KB) fit in a tenant's 1 MiB and the byte
 * budgets drop nothing on default settings with ordinary headers; they hold
 * memory when `--journal-size` is raised (10,000 such entries would be
 * ~170 MB per tenant) or headers are huge, and when many tenants are busy:
 * 64 MiB is ~75 tenants at their fullest.
 */
export const journalDefaults = {
  capacity: 50,
  maxBodyChars: 4096,
  maxTenantBytes: 1 << 20,
  maxTotalBytes: 64 << 20,
  /**
   * What an entry costs besides its texts: the entry, request and headers
   * objects (measured: ~360 bytes of V8 heap per entry without bodies).
   */
  entryOverheadBytes: 512,
  /**
   * Characters of entries' JSON kept for journal queries in all tenants (the
   * most recently answered), so that a query asked again serializes only the
   * entries recorded since: at most 8 MB, the journals of 7 tenants of 50
   * entries with cut bodies (~567 KB each).
   */
  renderedChars: 4 << 20,
} as const

/** The request headers a journal keeps. */
const journaledHeaders = ['authorization', 'content-type', 'content-length', 'accept', 'prefer', 'user-agent'] as const

/**
 * A tenant's kept entries, oldest first from `head` (dropping the oldest moves
 * `head` instead of shifting the array; the array is compacted now and then),
 * with the bytes each one is counted for.
 */
interface TenantEntries {
  entries: JournalEntry[]
  sizes: number[]
  head: number
  /** Bytes of the kept entries. */
  bytes: number
  /** How many entries were dropped to stay within the bounds. */
  dropped: number
  /** Changes with every entry kept or dropped: a query's answer is kept for a version. */
  version: number
}

/** A tenant's kept entries, oldest first. */
function oldestFirst({ entries, head }: TenantEntries): JournalEntry[] {
  return entries.slice(head)
}

function keptCount({ entries, head }: TenantEntries): number {
  return entries.length - head
}

/**
 * Made on first use, not as the module loads: an environment without them
 * (Jest's plain `jsdom`) still loads the package, and fails where msw does.
 */
let codec: { readonly decoder: TextDecoder; readonly encoder: TextEncoder } | undefined

function textCodec(): { readonly decoder: TextDecoder; readonly encoder: TextEncoder } {
  codec ??= { decoder: new TextDecoder(), encoder: new TextEncoder() }
  return codec
}

/**
 * A copy of `text` cut to `max` characters (with `…` when cut) that shares no
 * memory with it. A `slice` would not do: V8 keeps a slice's whole parent
 * string alive, so a 4 KB prefix of a 1 MB answer would pin the megabyte.
 */
function cutCopy(text: string, max: number): string {
  const { decoder, encoder } = textCodec()
  return decoder.decode(encoder.encode(`${text.slice(0, max)}…`))
}

/**
 * A copy of `text` that shares no memory with it: flattening `' ' + text`
 * writes its characters into a new string, of which the copy is a slice.
 */
function copyOf(text: string): string {
  return ` ${text}`.slice(1)
}

/**
 * What an entry is counted for: its fixed overhead plus 2 bytes per character
 * of its texts (path, query, header values, bodies, an Error answer's reason). V8 keeps a string in 1
 * or 2 bytes per character (2 once it holds any character above U+00FF, such
 * as the `…` of a cut body), so this is an upper bound of their heap.
 */
function sizeOf({ request, response }: JournalEntry): number {
  let chars = request.path.length + request.query.length
  for (const name in request.headers) chars += name.length + (request.headers[name] as string).length
  if (request.body !== null) chars += request.body.length
  if (response.body !== null) chars += response.body.length
  // An Error answer's reason: a few short texts the core wrote (a field, a rule, a scope), never the client's.
  for (const text of Object.values(response.reason ?? {})) chars += text.length
  return journalDefaults.entryOverheadBytes + 2 * chars
}

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
 * Memory is bounded in bytes as well as entries ({@link journalDefaults}):
 * bodies are kept as copies cut to `maxBodyChars`, never slices of the
 * original; a tenant over `maxTenantBytes` drops its own oldest entries; when
 * the whole journal is over `maxTotalBytes`, the tenant holding the most bytes
 * drops its oldest, so a busy tenant pays for its own traffic and cannot push
 * a quiet tenant's journal out. Every drop is counted in `dropped`; a tenant's
 * newest entry is only ever dropped to hold the sandbox-wide budget.
 *
 * @example
 * const journal = new RequestJournal({ capacity: 50, maxTenantBytes: 1 << 20 })
 * const handle = createCore(store, { onOutcome: journal.observe })
 * journal.entries('acme') // oldest first
 */
export class RequestJournal {
  /** Entries kept per tenant. */
  readonly capacity: number
  readonly #tenants = new Map<string, TenantEntries>()
  /** Bytes of entries kept per tenant. */
  readonly maxTenantBytes: number
  /** Bytes of entries kept in all. */
  readonly maxTotalBytes: number
  readonly #maxBodyChars: number
  readonly #listeners = new Set<JournalListener>()
  /** Bytes of every tenant's kept entries. */
  #totalBytes = 0
  /** Numbers the ids of requests that came without one. */
  #sequence = 0
  /** Entries' JSON and whole answers as journal queries made them, least recently used first (see {@link queryText}). */
  readonly #renderedTexts = new Map<JournalEntry | string, string>()
  #renderedChars = 0
  /** Numbers the versions of tenants' kept entries. */
  #versions = 0

  constructor(options: RequestJournalOptions = {}) {
    this.capacity = Math.max(1, options.capacity ?? journalDefaults.capacity)
    this.#maxBodyChars = options.maxBodyChars ?? journalDefaults.maxBodyChars
    this.maxTenantBytes = options.maxTenantBytes ?? journalDefaults.maxTenantBytes
    this.maxTotalBytes = Math.max(this.maxTenantBytes, options.maxTotalBytes ?? journalDefaults.maxTotalBytes)
  }

  /** Bytes the kept entries of every tenant are counted for. */
  get totalBytes(): number {
    return this.#totalBytes
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
    const entry: JournalEntry = {
      // One id per request: the transport's (the sandbox's request log), else the client's, else one of ours.
      id: request.id ?? this.#idOf(request.header('x-request-id')),
      at: now(),
      operation: operation ?? null,
      request: {
        method: request.method,
        path: request.path,
        // Secrets sent in the query or the body (`?api_key=`, `"password"`) are redacted as a pact's are: the
        // journal is read with a tenant's tokens, the fixture world's are public (issue 44, 7).
        query: redactedQuery(request.query),
        headers,
        body:
          requestBody === undefined
            ? null
            : redactedBody(this.#bodyText(requestBody), request.header('content-type') ?? ''),
      },
      response: this.#answer(response),
    }
    let kept = this.#tenants.get(tenantId)
    if (!kept) {
      kept = { entries: [], sizes: [], head: 0, bytes: 0, dropped: 0, version: 0 }
      this.#tenants.set(tenantId, kept)
    }
    const bytes = sizeOf(entry)
    kept.version = ++this.#versions
    kept.entries.push(entry)
    kept.sizes.push(bytes)
    kept.bytes += bytes
    this.#totalBytes += bytes
    while (keptCount(kept) > this.capacity || (kept.bytes > this.maxTenantBytes && keptCount(kept) > 1)) {
      this.#dropOldest(kept)
    }
    while (this.#totalBytes > this.maxTotalBytes) this.#dropOldest(this.#largest())
    for (const listener of this.#listeners) listener(tenantId, entry)
  }

  /** The id of a request the transport gave none: the client's when well-formed, else the next of ours. */
  #idOf(presented: string | null): string {
    return presented !== null && requestIdSyntax.test(presented) ? presented : `r-${++this.#sequence}`
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

  /**
   * What `GET /__sandbox/requests` answers, as JSON text: `{ tenant, count,
   * dropped, requests }` exactly as `JSON.stringify` writes it, with each
   * entry's JSON made once and kept (entries never change), and the answer
   * kept until the tenant's entries change: a query asked again costs a
   * lookup, or joining texts, never serializing every entry again.
   *
   * @example
   * journal.queryText('acme', { method: 'DELETE' }) // '{"tenant":"acme","count":1,"dropped":0,"requests":[…]}'
   */
  queryText(tenantId: string, filter: JournalFilter = {}): string {
    const kept = this.#tenants.get(tenantId)
    // The same query of an unchanged journal is the same text: kept with the entries' texts, under the same budget.
    const key = kept && `${tenantId}\n${kept.version}\n${JSON.stringify(filter)}`
    const answered = key === undefined ? undefined : this.#rendered(key)
    if (answered !== undefined) return answered
    const { count, dropped, requests } = this.query(tenantId, filter)
    const texts = requests.map((entry) => this.#rendered(entry) ?? this.#keep(entry, JSON.stringify(entry)))
    const text = `{"tenant":${JSON.stringify(tenantId)},"count":${count},"dropped":${dropped},"requests":[${texts.join(',')}]}`
    return key === undefined ? text : this.#keep(key, text)
  }

  /** A kept text (an entry's JSON, or a query's answer), now the most recently used; `undefined` when none is kept. */
  #rendered(key: JournalEntry | string): string | undefined {
    const text = this.#renderedTexts.get(key)
    if (text === undefined) return undefined
    this.#renderedTexts.delete(key)
    this.#renderedTexts.set(key, text)
    return text
  }

  /** Keeps a text, forgetting the least recently used ones beyond the budget; answers it. */
  #keep(key: JournalEntry | string, text: string): string {
    const rendered = this.#renderedTexts
    rendered.set(key, text)
    this.#renderedChars += text.length
    for (const [oldest, kept] of rendered) {
      if (this.#renderedChars <= journalDefaults.renderedChars) break
      rendered.delete(oldest)
      this.#renderedChars -= kept.length
    }
    return text
  }

  /** Forgets a tenant's entries (on reset, on `DELETE /__sandbox/requests`, on removal). */
  forget(tenantId: string): void {
    const kept = this.#tenants.get(tenantId)
    if (kept) this.#totalBytes -= kept.bytes
    this.#tenants.delete(tenantId)
  }

  /** Calls `listener` with each entry as it is journaled; answers a function that stops it. */
  subscribe(listener: JournalListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * The answer as the journal keeps it: its body a copy, cut to
   * `maxBodyChars`, that shares no memory with the answer's; a long list's
   * body decoded from its first bytes, never read whole (it is decoded from
   * the tenant's kept list on first read); never its `chunks`, views of the
   * tenant's kept list.
   */
  #answer(response: CoreResponse): CoreResponse {
    // `body` is read only without `chunks`: with them it is decoded from the whole list when read.
    const { status, headers, chunks, fault, reason } = response
    const body = chunks ? this.#chunksText(chunks) : this.#textOf(response.body)
    // The usual answer as one literal (no spreads: an object less per answer); the fields in the same order.
    if (fault === undefined && reason === undefined) return { status, headers, body }
    return {
      status,
      headers,
      ...(fault === undefined ? {} : { fault }),
      ...(reason === undefined ? {} : { reason }),
      body,
    }
  }

  /** An answer's text body as kept: a copy, cut to `maxBodyChars`. */
  #textOf(text: string | null): string | null {
    if (text === null) return null
    const max = this.#maxBodyChars
    return text.length <= max ? copyOf(text) : cutCopy(text, max)
  }

  /**
   * A body as text, cut to `maxBodyChars`: only a prefix of the bytes is
   * decoded (a UTF-16 unit takes at most 3 UTF-8 bytes), and a cut body is
   * copied, so nothing of a large body stays alive.
   */
  #bodyText(bytes: Uint8Array): string {
    const max = this.#maxBodyChars
    const prefix = bytes.byteLength > max * 3 ? bytes.subarray(0, max * 3) : bytes
    const text = textCodec().decoder.decode(prefix)
    return text.length > max || prefix !== bytes ? cutCopy(text, max) : text
  }

  /**
   * The text of an answer's chunks (each holds whole characters), cut to
   * `maxBodyChars` as {@link #bodyText} cuts bytes: decoded chunk by chunk,
   * no more than the bytes that may hold the characters kept, without
   * copying them into one array first (an allocation per answer).
   */
  #chunksText(chunks: readonly Uint8Array[]): string {
    const max = this.#maxBodyChars
    const { decoder } = textCodec()
    let room = max * 3
    let text = ''
    for (const chunk of chunks) {
      if (chunk.byteLength > room) return cutCopy(text + decoder.decode(chunk.subarray(0, room)), max)
      text += decoder.decode(chunk)
      room -= chunk.byteLength
    }
    return text.length > max ? cutCopy(text, max) : text
  }

  /** Drops a tenant's oldest kept entry, counting it. */
  #dropOldest(kept: TenantEntries): void {
    const bytes = kept.sizes[kept.head] ?? 0
    kept.bytes -= bytes
    this.#totalBytes -= bytes
    kept.head++
    kept.dropped++
    kept.version = ++this.#versions
    // Compacted once the dropped part is the larger half: amortised O(1) per entry.
    if (kept.head > 32 && kept.head * 2 > kept.entries.length) {
      kept.entries = kept.entries.slice(kept.head)
      kept.sizes = kept.sizes.slice(kept.head)
      kept.head = 0
    }
  }

  /** The tenant whose kept entries take the most bytes: the one that pays when the whole journal is full. */
  #largest(): TenantEntries {
    let largest: TenantEntries | undefined
    for (const kept of this.#tenants.values()) if (!largest || kept.bytes > largest.bytes) largest = kept
    // The journal is over its budget, so some tenant holds bytes.
    return largest as TenantEntries
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
