/** Fault rules over HTTP: `/__sandbox/faults` driven through `SandboxClient`, requests sent with real `fetch`. */

import { describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { useSandbox } from '../server/sandbox-fixture.ts'
import { bearer } from '../server/support.ts'
import { allowOf, undeclarableMethods } from '../support/allow.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { sandboxDriver } from './sandbox-driver.ts'
import { faultRuleCases } from './suite.ts'

const sandbox = useSandbox()

faultRuleCases('the sandbox (the Express app)', () => sandboxDriver(sandbox))

const tenants = {
  acme: () => sandbox.client.tenant(fixtureTokens.acme),
  globex: () => sandbox.client.tenant(fixtureTokens.globex),
}

describe('the fault rules API over HTTP', () => {
  const call = async (method: string, path: string, init: RequestInit = {}) =>
    read(await fetch(`${sandbox.base}${path}`, { method, ...init }))

  test('needs the tenant’s token: none is 401, a read-only one cannot add or delete (403)', async () => {
    expectErrorBody(await call('GET', '/__sandbox/faults'), 401)
    expectErrorBody(await call('POST', '/__sandbox/faults', { headers: bearer('psm_unknown') }), 401)
    const readOnly = { ...bearer(fixtureTokens.acme.read), 'content-type': 'application/json' }
    expectErrorBody(await call('POST', '/__sandbox/faults', { headers: readOnly, body: '{"status":500}' }), 403)
    expectErrorBody(await call('DELETE', '/__sandbox/faults', { headers: readOnly }), 403)
    expect((await call('GET', '/__sandbox/faults', { headers: readOnly })).status).toBe(200)
  })

  test('answers 201 with the rule, and GET /__sandbox/faults/{id} with one rule; another tenant gets 404', async () => {
    const write = { ...bearer(fixtureTokens.acme.write), 'content-type': 'application/json' }
    const created = await call('POST', '/__sandbox/faults', { headers: write, body: '{"status":500,"times":1}' })
    expect(created.status).toBe(201)
    const rule = JSON.parse(created.text) as { id: string }
    const one = await call('GET', `/__sandbox/faults/${rule.id}`, { headers: bearer(fixtureTokens.acme.read) })
    expect(JSON.parse(one.text)).toEqual(JSON.parse(created.text))
    expectErrorBody(
      await call('GET', `/__sandbox/faults/${rule.id}`, { headers: bearer(fixtureTokens.globex.read) }),
      404,
    )
    expectErrorBody(
      await call('DELETE', `/__sandbox/faults/${rule.id}`, { headers: bearer(fixtureTokens.globex.write) }),
      404,
    )
    const listed = await call('GET', '/__sandbox/faults', { headers: bearer(fixtureTokens.acme.read) })
    expect(JSON.parse(listed.text)).toEqual({ tenant: 'acme', faults: [JSON.parse(created.text)] })
    await tenants.acme().faults.clear()
  })

  test.each([
    ['malformed JSON', 'application/json', '{"status":', 400],
    ['a JSON array', 'application/json', '[{"status":500}]', 400],
    ['an empty body', 'application/json', '', 400],
    ['a text/plain body', 'text/plain', '{"status":500}', 415],
  ])('refuses %s with the Error body', async (_what, contentType, body, status) => {
    const headers = { ...bearer(fixtureTokens.acme.write), 'content-type': contentType }
    expectErrorBody(await call('POST', '/__sandbox/faults', { headers, body }), status)
  })

  test('answers 405 with Allow for a method the route lacks', async () => {
    const answer = await call(undeclarableMethods[0], '/__sandbox/faults', {
      headers: bearer(fixtureTokens.acme.write),
    })
    expectErrorBody(answer, 405)
    expect(answer.headers.get('allow')).toBe(allowOf('/__sandbox/faults'))
  })

  test('a reset of the tenant removes its rules', async () => {
    await tenants.acme().faults.add({ status: 500 })
    await tenants.acme().reset()
    expect(await tenants.acme().faults.list()).toEqual([])
  })
})
