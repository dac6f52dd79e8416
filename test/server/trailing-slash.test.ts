/**
 * Both contracts say a path without parameters answers the same with one
 * trailing slash (`/plants/`, `/__sandbox/faults/`), as the one router routes
 * it; the contract checkers read a path the same way, so such an answer is
 * checked as its operation's. A path with parameters takes no trailing slash.
 */
import { describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { expectErrorBody, expectToMatchContract, expectToMatchSandboxContract, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

for (const server of ['express', 'standalone'] as const) {
  describe(`trailing slashes on the ${server} sandbox`, () => {
    const sandbox = useSandbox({}, server)
    const get = async (path: string) =>
      read(await fetch(`${sandbox.base}${path}`, { headers: bearer(fixtureTokens.acme.read) }))

    test('/plants/ and /__sandbox/faults/ answer as without the slash, as their contracts declare', async () => {
      const plants = await get('/plants/?limit=2')
      expect(plants.status).toBe(200)
      expect(plants.text).toBe((await get('/plants?limit=2')).text)
      expectToMatchContract('GET', '/plants/?limit=2', plants)
      const faults = await get('/__sandbox/faults/')
      expect(faults.status).toBe(200)
      expectToMatchSandboxContract('GET', '/__sandbox/faults/', faults)
    })

    test('a path with parameters and a trailing slash is unknown: 404', async () => {
      const plant = await get('/plants/1/')
      expectErrorBody(plant, 404)
    })
  })
}
