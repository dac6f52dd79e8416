import { describe, expect, test } from 'vitest'
import type { CoreRequest } from '../core/http.ts'
import { RequestJournal } from './journal.ts'

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
})
