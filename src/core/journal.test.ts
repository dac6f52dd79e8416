import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, test } from 'vitest'
import type { CoreRequest } from './http.ts'
import { RequestJournal } from './journal.ts'

/** V8's `gc()`, made available in this process without `--expose-gc`. */
function collector(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

function request(headers: Record<string, string>): CoreRequest {
  return {
    method: 'POST',
    path: '/plants',
    query: '',
    header: (name) => headers[name] ?? null,
    readBody: async () => new Uint8Array(0),
  }
}

describe('RequestJournal', () => {
  test('redacts the credential of the Authorization header and keeps its scheme', () => {
    const journal = new RequestJournal()
    journal.record('t', request({ authorization: 'Bearer secret' }), { status: 200, headers: {}, body: null })
    expect(journal.entries('t')[0]?.request.headers.authorization).toBe('Bearer [redacted]')
  })

  test('cuts long bodies to its limit and keeps the request body it was given', () => {
    const journal = new RequestJournal({ maxBodyChars: 4 })
    const body = new TextEncoder().encode('{"id":1}')
    journal.record('t', request({}), { status: 200, headers: {}, body: '0123456789' }, body)
    const [entry] = journal.entries('t')
    expect(entry?.request.body).toBe('{"id…')
    expect(entry?.response.body).toBe('0123…')
  })

  test('keeps a long list cut from its first bytes, never reading its whole body (decoded from the list when read)', () => {
    const journal = new RequestJournal({ maxBodyChars: 8 })
    const chunks = [new TextEncoder().encode('[{"name":"Fern"}'), new TextEncoder().encode(',{"name":"Ivy"}]')]
    const response = {
      status: 200,
      headers: {},
      chunks,
      get body(): string {
        throw new Error('the whole body was read')
      },
    }
    journal.record('t', request({}), response)
    expect(journal.entries('t')[0]?.response).toEqual({ status: 200, headers: {}, body: '[{"name"…' })
  })

  test('answers a query as JSON.stringify would, as entries come, are dropped and forgotten', () => {
    const journal = new RequestJournal({ capacity: 5 })
    const expected = (tenantId: string, filter = {}) =>
      JSON.stringify({ tenant: tenantId, ...journal.query(tenantId, filter) })
    const filters = [{}, { method: 'POST' }, { status: { class: 2 } }, { limit: 2 }, { method: 'GET' }]
    for (let i = 0; i < 12; i++) {
      const answer =
        i % 3 === 0 ? { status: 500, headers: {}, body: null } : { status: 200, headers: {}, body: `"${i}\u00e9 🌿"` }
      journal.record(
        i % 2 ? 'a' : 'b',
        request({ 'content-type': 'application/json' }),
        answer,
        new Uint8Array([0x7b, 0x7d]),
      )
      for (const tenantId of ['a', 'b', 'none']) {
        for (const filter of filters) expect(journal.queryText(tenantId, filter)).toBe(expected(tenantId, filter))
      }
    }
    journal.forget('a')
    expect(journal.queryText('a')).toBe(expected('a'))
  })

  test('keeps the last entries of a tenant, oldest first, and counts those it dropped', () => {
    const journal = new RequestJournal({ capacity: 3 })
    for (const status of [201, 202, 203, 204, 205])
      journal.record('t', request({}), { status, headers: {}, body: null })
    expect(journal.entries('t').map(({ response }) => response.status)).toEqual([203, 204, 205])
    expect(journal.query('t')).toMatchObject({ count: 3, dropped: 2 })
  })

  test('keeps each tenant apart and forgets one on request', () => {
    const journal = new RequestJournal({ capacity: 2 })
    for (const tenant of ['a', 'a', 'a', 'b'])
      journal.record(tenant, request({}), { status: 204, headers: {}, body: null })
    expect(journal.entries('a')).toHaveLength(2)
    expect(journal.entries('b')).toHaveLength(1)
    journal.forget('a')
    expect(journal.entries('a')).toEqual([])
  })

  test('counts bytes: a tenant over its budget drops its own oldest entries, and counts them', () => {
    const journal = new RequestJournal({ capacity: 1000, maxTenantBytes: 20_000 })
    for (let i = 0; i < 20; i++) journal.record('t', request({}), { status: 200, headers: {}, body: 'x'.repeat(4000) })
    const { count, dropped } = journal.query('t')
    expect(count).toBeLessThan(20)
    expect(count + dropped).toBe(20)
    expect(journal.totalBytes).toBeLessThanOrEqual(20_000)
  })

  test('holds the sandbox-wide budget by dropping the oldest entries of the tenant holding the most', () => {
    const journal = new RequestJournal({ capacity: 1000, maxTenantBytes: 40_000, maxTotalBytes: 50_000 })
    for (let i = 0; i < 3; i++)
      journal.record('quiet', request({}), { status: 200, headers: {}, body: 'q'.repeat(1000) })
    for (let i = 0; i < 30; i++)
      journal.record('busy', request({}), { status: 200, headers: {}, body: 'b'.repeat(4000) })
    expect(journal.totalBytes).toBeLessThanOrEqual(50_000)
    expect(journal.query('quiet')).toMatchObject({ count: 3, dropped: 0 })
    expect(journal.query('busy').dropped).toBeGreaterThan(0)
    journal.forget('busy')
    expect(journal.totalBytes).toBeLessThan(10_000)
  })

  test('keeps copies of long bodies, never slices that keep the whole answer alive', () => {
    const gc = collector()
    const journal = new RequestJournal({ capacity: 100, maxTenantBytes: 10 << 20 })
    gc()
    const before = process.memoryUsage().heapUsed
    // 100 distinct answers and requests of 512 KiB (below the size Node keeps off the V8 heap): 100 MiB if pinned.
    for (let i = 0; i < 100; i++) {
      const body = Buffer.alloc(512 << 10, 97 + (i % 26)).toString('latin1')
      journal.record('t', request({}), { status: 200, headers: {}, body }, Buffer.alloc(512 << 10, 98))
    }
    gc()
    const retained = process.memoryUsage().heapUsed - before
    expect(journal.entries('t')).toHaveLength(100)
    expect(retained).toBeLessThan(8 << 20)
  })
})
