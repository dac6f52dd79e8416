/**
 * A path segment is read once through its percent-encoding (RFC 3986
 * §6.2.2.2): `/plants/%31` is `/plants/1` and `/%70lants` is `/plants`, as
 * independent OpenAPI validators read them, whether msw answers or the
 * sandbox (Express or standalone) does. `%2F` stays data inside its segment,
 * never a separator, and nothing is decoded twice (issue 42, item 7).
 */
import { fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { type Answer, expectErrorBody, read } from '../support/contract.ts'
import { origin } from '../support/msw.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const acme = fixtureTokens.acme

/** The answers every transport must give: the same as for the path written plainly. */
function percentEncodedPaths(send: (method: string, path: string, token: string) => Promise<Answer>) {
  test('GET /%70lants lists the plants as GET /plants does', async () => {
    const encoded = await send('GET', '/%70lants', acme.read)
    const plain = await send('GET', '/plants', acme.read)

    expect(encoded.status).toBe(200)
    expect(encoded.text).toBe(plain.text)
  })

  test('DELETE /plants/%31 deletes plant 1 (204), and then it is gone (404)', async () => {
    const deleted = await send('DELETE', '/plants/%31', acme.write)
    expect(deleted.status).toBe(204)

    expectErrorBody(await send('DELETE', '/plants/1', acme.write), 404)
  })

  test('lower-case hex and every encoded segment are read alike: DELETE /%70%6C%61nts/%32', async () => {
    expect((await send('DELETE', '/%70%6c%61nts/%32', acme.write)).status).toBe(204)
  })

  test('%2F is data inside its segment, never a separator: /plants/3%2F4 is no id', async () => {
    expectErrorBody(await send('DELETE', '/plants/3%2F4', acme.write), 400)
    expect((await send('DELETE', '/plants/3', acme.write)).status).toBe(204)
  })

  test('decodes once: %2531 is the text %31, not 1', async () => {
    expectErrorBody(await send('DELETE', '/plants/%2531', acme.write), 400)
  })
}

describe('through msw (setupServer)', () => {
  const { server, store } = setupPlantStoreServer()
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterEach(() => store.reset())
  afterAll(() => server.close())

  percentEncodedPaths(async (method, path, token) =>
    read(await fetch(`${origin}${path}`, { method, headers: bearer(token) })),
  )
})

for (const kind of ['express', 'standalone'] as const) {
  describe(`over HTTP, the ${kind} sandbox`, () => {
    const sandbox = useSandbox({}, kind)
    afterEach(() => sandbox.store.reset())

    const send = async (method: string, path: string, token: string) =>
      read(await fetch(`${sandbox.base}${path}`, { method, headers: bearer(token) }))
    percentEncodedPaths(send)

    test('/plants%2F3 is one segment, no path of the contract: 404', async () => {
      expectErrorBody(await send('DELETE', '/plants%2F3', acme.write), 404)
    })
  })
}
