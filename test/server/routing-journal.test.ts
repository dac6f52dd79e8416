/**
 * Issue 20.3: the journal records every request made with a tenant's valid
 * token, routing errors included (an unknown path, a method the path lacks),
 * without changing their answers: 404 and 405 need no token.
 */
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { allowOf, undeclarableMethods } from '../support/allow.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const routingErrors = [
  ['DELETE', '/plants', 405],
  [undeclarableMethods[0], '/plants/1', 405],
  ['GET', '/nope', 404],
] as const

for (const server of ['express', 'standalone'] as const) {
  describe(`routing errors in the journal of the ${server} sandbox`, () => {
    const sandbox = useSandbox({}, server)
    const send = async (method: string, path: string, headers: Record<string, string> = {}) =>
      read(await fetch(`${sandbox.base}${path}`, { method, headers }))

    test('journals a 405 and a 404 made with a valid token under its tenant, with operation null', async () => {
      const acme = sandbox.client.tenant(fixtureTokens.acme)
      await acme.requests.clear()
      for (const [method, path, status] of routingErrors) {
        expectErrorBody(await send(method, path, bearer(fixtureTokens.acme.read)), status)
      }
      const { requests } = await acme.requests.list()
      expect(
        requests.map(({ operation, request, response }) => [operation, request.method, request.path, response.status]),
      ).toEqual(routingErrors.map(([method, path, status]) => [null, method, path, status]))
    })

    test('answers routing errors without a token as before, and journals them nowhere', async () => {
      const acme = sandbox.client.tenant(fixtureTokens.acme)
      await acme.requests.clear()
      const refused = await send('DELETE', '/plants')
      expectErrorBody(refused, 405)
      expect(refused.headers.get('allow')).toBe(allowOf('/plants'))
      expectErrorBody(await send('GET', '/nope', bearer('psm_unknown_token')), 404)
      expect((await acme.requests.list()).requests).toEqual([])
    })
  })
}

describe('routing errors in the outcomes of the msw handlers', () => {
  const outcomes: Array<[string | undefined, string, number]> = []
  const { server } = setupPlantStoreServer({
    baseUrl: 'https://plants.test',
    onOutcome: ({ principal, request, response }) =>
      outcomes.push([principal?.tenantId, `${request.method} ${request.path}`, response.status]),
  })
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  test('reports a 405 made with a valid token under its tenant, and one without a token under none', async () => {
    const headers = bearer(fixtureTokens.acme.write)
    expect((await fetch('https://plants.test/plants', { method: 'DELETE', headers })).status).toBe(405)
    expect((await fetch('https://plants.test/plants/1', { method: undeclarableMethods[0], headers })).status).toBe(405)
    expect((await fetch('https://plants.test/plants', { method: 'DELETE' })).status).toBe(405)
    expect(outcomes).toEqual([
      ['acme', 'DELETE /plants', 405],
      ['acme', `${undeclarableMethods[0]} /plants/1`, 405],
      [undefined, 'DELETE /plants', 405],
    ])
  })
})
