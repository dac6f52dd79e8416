/**
 * Issue 18: lists of every length come from one serialization per tenant
 * (kept until its next write), and `HEAD /plants` answers the list's
 * `Content-Length` without encoding it. Through msw and over HTTP, each
 * limit's GET body is the list as the contract describes it, and HEAD's
 * length is that body's UTF-8 length, across writes.
 */
import { fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { toPlant } from '../../src/core/schemas.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const mswOrigin = 'https://plants.lengths.test'
const msw = setupPlantStoreServer({ baseUrl: mswOrigin })
beforeAll(() => msw.server.listen({ onUnhandledFrame: 'bypass' }))
afterAll(() => msw.server.close())
const sandbox = useSandbox()

const transports = [
  ['msw', () => mswOrigin, msw.store],
  ['HTTP', () => sandbox.base, sandbox.store],
] as const

describe.each(transports)('lists of every length through %s', (_name, base, store) => {
  test('GET answers each limit’s list and HEAD its UTF-8 length, before and after writes', async () => {
    const { read, write } = fixtureTokens.acme
    const expected = (limit: number) => JSON.stringify(store.listPlants('acme', limit).map(toPlant))
    for (const [id, name] of [
      [7001, 'Ficus “Ali” 🌿'],
      [7002, 'Lily é\u007f'],
    ] as const) {
      for (let limit = 0; limit <= 12; limit++) {
        const url = `${base()}/plants?limit=${limit}`
        const get = await fetch(url, { headers: bearer(read) })
        const text = await get.text()
        expect(text, `limit=${limit}`).toBe(expected(limit))
        const head = await fetch(url, { method: 'HEAD', headers: bearer(read) })
        expect(head.headers.get('content-length'), `limit=${limit}`).toBe(String(Buffer.byteLength(text)))
      }
      const created = await fetch(`${base()}/plants`, {
        method: 'POST',
        headers: { ...bearer(write), 'content-type': 'application/json' },
        body: JSON.stringify({ id, name, tag: 'new' }),
      })
      expect(created.status).toBe(200)
    }
    const all = await (await fetch(`${base()}/plants`, { headers: bearer(read) })).text()
    expect(JSON.parse(all).slice(-2)).toEqual([
      { name: 'Ficus “Ali” 🌿', tag: 'new' },
      { name: 'Lily é\u007f', tag: 'new' },
    ])
    await store.reset()
  })
})

describe('a long list over HTTP', () => {
  test('is sent as the bytes the tenant keeps: the same JSON, its Content-Length, and a journal entry cut from it', async () => {
    const { read, write } = fixtureTokens.globex
    for (let id = 9000; id < 9200; id++) {
      const created = await fetch(`${sandbox.base}/plants`, {
        method: 'POST',
        headers: { ...bearer(write), 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: `${id} ${'植'.repeat(200)}`, tag: '葉'.repeat(60) }),
      })
      expect(created.status).toBe(200)
    }
    const expected = (limit?: number) => JSON.stringify(sandbox.store.listPlants('globex', limit).map(toPlant))
    for (const limit of [150, 80, undefined]) {
      const url = `${sandbox.base}/plants${limit === undefined ? '' : `?limit=${limit}`}`
      const answer = await fetch(url, { headers: bearer(read) })
      const text = await answer.text()
      expect(text.length, 'long enough to be sent as bytes').toBeGreaterThan(16_384)
      expect(text, `limit=${limit}`).toBe(expected(limit))
      expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    }
    const journal = await fetch(`${sandbox.base}/__sandbox/requests?method=GET&limit=1`, { headers: bearer(read) })
    const [entry] = ((await journal.json()) as { requests: Array<{ response: { body: string } }> }).requests
    expect(entry?.response.body).toBe(`${expected().slice(0, 4096)}…`)
    await sandbox.store.reset()
  })
})
