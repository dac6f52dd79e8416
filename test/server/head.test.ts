/**
 * HEAD wherever GET works (RFC 9110 §9.3.2): the same status and headers as
 * the GET, with no body, through msw and over real HTTP, as the contract's
 * `headPlants` operation declares.
 */
import { fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { createApp } from 'plant-store-mock/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allowOf, undeclarableMethods } from '../support/allow.ts'
import { expectToMatchContract, read } from '../support/contract.ts'
import { bearer, type Listening, listen } from './support.ts'

const mswOrigin = 'https://plants.head.test'
const msw = setupPlantStoreServer({ baseUrl: mswOrigin })
let http: Listening

beforeAll(async () => {
  msw.server.listen({ onUnhandledFrame: 'bypass' })
  http = await listen(createApp())
})
afterAll(async () => {
  msw.server.close()
  await http.close()
})

const transports = [
  ['msw', () => mswOrigin],
  ['HTTP', () => http.base],
] as const

describe.each(transports)('HEAD /plants through %s', (_name, base) => {
  test('answers the status and headers of GET, with its Content-Length, and no body', async () => {
    for (const query of ['', '?limit=2']) {
      const headers = bearer(fixtureTokens.acme.read)
      const get = await read(await fetch(`${base()}/plants${query}`, { headers }))
      const head = await read(await fetch(`${base()}/plants${query}`, { method: 'HEAD', headers }))
      expect(head.status).toBe(200)
      expect(head.text).toBe('')
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)))
      expectToMatchContract('HEAD', `/plants${query}`, head)
    }
  })

  test('answers 401 with the challenge and no body when the token is missing', async () => {
    const head = await read(await fetch(`${base()}/plants`, { method: 'HEAD' }))
    expect(head.status).toBe(401)
    expect(head.headers.get('www-authenticate')).toBe('Bearer realm="plant-store"')
    expect(head.text).toBe('')
    expectToMatchContract('HEAD', '/plants', head)
  })

  test('answers 400 without a body for an invalid limit', async () => {
    const head = await read(
      await fetch(`${base()}/plants?limit=-1`, { method: 'HEAD', headers: bearer(fixtureTokens.acme.read) }),
    )
    expect(head.status).toBe(400)
    expect(head.text).toBe('')
  })

  test('names HEAD in the Allow header of a 405 on the list', async () => {
    const lacking = await fetch(`${base()}/plants`, {
      method: undeclarableMethods[0],
      headers: bearer(fixtureTokens.acme.write),
    })
    expect(lacking.status).toBe(405)
    expect(lacking.headers.get('allow')).toBe(allowOf('/plants'))
  })
})
