/**
 * Issue 29.4: the journal keeps why an Error answer was given as data (the
 * core's `reason`: a 400's field and rule, a 403's scope), so a test asks the
 * journal which field was refused instead of matching the message's words.
 * Through HTTP, on both sandboxes, and against the sandbox contract.
 */
import { describe, expect, expectTypeOf, test } from 'vitest'
import type { Reason } from '../../src/core/errors.ts'
import type { components } from '../../src/generated/sandbox-openapi.ts'
import { fixtureTokens } from '../../src/index.ts'
import { expectToMatchSandboxContract, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const json = { 'content-type': 'application/json' }

for (const server of ['express', 'standalone'] as const) {
  describe(`reasons in the journal of the ${server} sandbox`, () => {
    const sandbox = useSandbox({}, server)
    const send = (method: string, path: string, token: string, body?: unknown) =>
      fetch(`${sandbox.base}${path}`, {
        method,
        headers: { ...bearer(token), ...(body === undefined ? {} : json) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })

    test('keeps the field and rule of a 400, the scope of a 403, and none on a success', async () => {
      const { read: reader, write } = fixtureTokens.acme
      const acme = sandbox.client.tenant(fixtureTokens.acme)
      await acme.requests.clear()
      expect((await send('POST', '/plants', write, { id: 900_001 })).status).toBe(400)
      expect((await send('GET', '/plants?limit=ten', reader)).status).toBe(400)
      expect((await send('POST', '/plants', write, { id: 2 ** 53, name: 'Fern' })).status).toBe(400)
      expect((await send('DELETE', '/plants/1', reader)).status).toBe(403)
      expect((await send('GET', '/plants?limit=1', reader)).status).toBe(200)

      const answer = await read(await fetch(`${sandbox.base}/__sandbox/requests`, { headers: bearer(reader) }))
      expectToMatchSandboxContract('GET', '/__sandbox/requests', answer)
      const { requests } = await acme.requests.list()
      expect(requests.map(({ response }) => [response.status, response.reason])).toEqual([
        [400, { field: 'name', rule: 'required' }],
        [400, { field: 'limit', rule: 'format' }],
        [400, { field: 'id', rule: 'too_big' }],
        [403, { scope: 'plants:write' }],
        [200, undefined],
      ])
      // Only answers filtered by what they were refused for, from the data the journal keeps.
      expect(requests.filter(({ response }) => response.reason?.rule === 'required')).toHaveLength(1)
    })
  })
}

test("the core's Reason is the sandbox contract's ErrorReason", () => {
  expectTypeOf<Reason>().toEqualTypeOf<Readonly<components['schemas']['ErrorReason']>>()
})
