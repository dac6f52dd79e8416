/** A tenant's contract coverage in the sandbox, over real HTTP: `GET /__sandbox/coverage`. */
import { fixtureTokens } from 'plant-store-mock'
import { SandboxClient } from 'plant-store-mock/client'
import { createApp } from 'plant-store-mock/server'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { contract } from '../../src/generated/contract.ts'
import { createPlantStore } from '../../src/seeded-store.ts'
import { bearer, type Listening, listen } from '../server/support.ts'
import { undeclarableMethods } from '../support/allow.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { badRequestConditions, share } from '../support/coverage-share.ts'

interface Report {
  tenant: string
  covered: number
  total: number
  percent: number
  operations: Array<{
    operationId: string
    method: string
    path: string
    responses: Array<{ status: number; hits: number; conditions?: Array<{ condition: string; hits: number }> }>
  }>
  undocumented: Array<{ answer: string; hits: number }>
  unrouted: Array<{ answer: string; hits: number }>
}

const store = createPlantStore()
let sandbox: Listening

beforeAll(async () => {
  sandbox = await listen(createApp({ store }))
})
afterEach(async () => {
  for (const token of [fixtureTokens.acme.write, fixtureTokens.globex.write]) {
    await send('POST', '/__sandbox/reset', token)
  }
})
afterAll(() => sandbox.close())

function send(method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = token === undefined ? {} : bearer(token)
  if (body !== undefined) headers['content-type'] = 'application/json'
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
  return fetch(`${sandbox.base}${path}`, init).then(read)
}

async function coverageOf(token: string): Promise<Report> {
  const answer = await send('GET', '/__sandbox/coverage', token)
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-type')).toBe('application/json')
  return JSON.parse(answer.text) as Report
}

function hits(report: Report, operationId: string, status: number): number | undefined {
  return report.operations
    .find((operation) => operation.operationId === operationId)
    ?.responses.find((response) => response.status === status)?.hits
}

const acme = fixtureTokens.acme
const globex = fixtureTokens.globex

describe('GET /__sandbox/coverage', () => {
  test("answers the caller tenant's coverage of every declared answer, and nothing another tenant provoked", async () => {
    expect((await send('GET', '/plants', acme.read)).status).toBe(200)
    expect((await send('POST', '/plants', acme.write, { id: 1, name: 'Fern' })).status).toBe(409)
    expect((await send('POST', '/plants', acme.read, { id: 9, name: 'Fern' })).status).toBe(403)
    expect((await send('DELETE', '/plants/999', globex.write)).status).toBe(404)
    expect((await send(undeclarableMethods[0], '/plants', acme.write)).status).toBe(405)

    const report = await coverageOf(acme.read)
    expect(report).toMatchObject({ tenant: 'acme', ...share(3) })
    expect(report.operations).toHaveLength(Object.keys(contract.operations).length)
    expect(report.operations[0]).toMatchObject({ operationId: 'listPlants', method: 'GET', path: '/plants' })
    expect(hits(report, 'listPlants', 200)).toBe(1)
    expect(hits(report, 'addPlant', 409)).toBe(1)
    expect(hits(report, 'deletePlant', 404)).toBe(0)
    const forbidden = report.operations[2]?.responses.find(({ status }) => status === 403)
    expect(forbidden).toEqual({ status: 403, hits: 1, conditions: [{ condition: 'plants:write', hits: 1 }] })
    // A request routed to no operation but made with a valid token is the caller's, as in the journal.
    expect(report.unrouted).toEqual([{ answer: `${undeclarableMethods[0]} 405`, hits: 1 }])

    const other = await coverageOf(globex.read)
    expect(other).toMatchObject({ tenant: 'globex', covered: 1, undocumented: [], unrouted: [] })
    expect(hits(other, 'deletePlant', 404)).toBe(1)
  })

  test('counts Prefer: code answers as declared ones: the status asked, or a 400 about Prefer; never undocumented', async () => {
    const prefer = (code: string) => ({ ...bearer(acme.read), prefer: `code=${code}` })
    expect((await fetch(`${sandbox.base}/plants`, { headers: prefer('403') }).then(read)).status).toBe(403)
    expect((await fetch(`${sandbox.base}/plants`, { headers: prefer('409') }).then(read)).status).toBe(400)
    expect((await fetch(`${sandbox.base}/plants`, { headers: prefer('418') }).then(read)).status).toBe(400)
    const report = await coverageOf(acme.read)
    const badRequest = report.operations[0]?.responses.find(({ status }) => status === 400)
    expect(badRequest).toEqual({
      status: 400,
      hits: 2,
      conditions: badRequestConditions('listPlants', { Prefer: 2 }),
    })
    expect(hits(report, 'listPlants', 403)).toBe(1)
    expect(report.undocumented).toEqual([])
  })

  test("counts a fault rule's answers: a declared status as covered, an undeclared one and a transport fault apart", async () => {
    for (const rule of [
      { method: 'POST', status: 507, times: 1 },
      { method: 'GET', status: 500, times: 1 },
      { method: 'DELETE', fault: 'reset', times: 1 },
    ]) {
      expect((await send('POST', '/__sandbox/faults', acme.write, rule)).status).toBe(201)
    }
    expect((await send('POST', '/plants', acme.write, { id: 40, name: 'Fern' })).status).toBe(507)
    expect((await send('GET', '/plants', acme.write)).status).toBe(500)
    await expect(fetch(`${sandbox.base}/plants/1`, { method: 'DELETE', headers: bearer(acme.write) })).rejects.toThrow()
    const report = await coverageOf(acme.write)
    expect(hits(report, 'addPlant', 507)).toBe(1)
    expect(report.covered).toBe(1)
    expect(report.undocumented).toEqual([
      { answer: 'listPlants 500', hits: 1 },
      { answer: 'deletePlant 0 reset', hits: 1 },
    ])
  })

  test('starts again from zero when the tenant clears its journal or resets', async () => {
    await send('GET', '/plants', acme.write)
    expect((await coverageOf(acme.read)).covered).toBe(1)
    expect((await send('DELETE', '/__sandbox/requests', acme.write)).status).toBe(204)
    expect((await coverageOf(acme.read)).covered).toBe(0)

    await send('GET', '/plants', acme.write)
    expect((await send('POST', '/__sandbox/reset', acme.write)).status).toBe(204)
    expect((await coverageOf(acme.read)).covered).toBe(0)
  })

  test('forgets a provisioned tenant with the tenant', async () => {
    const created = await send('POST', '/__sandbox/tenants', undefined, { plants: 1 })
    const { tenant, tokens } = JSON.parse(created.text) as { tenant: string; tokens: { read: string; write: string } }
    await send('GET', '/plants', tokens.read)
    expect((await coverageOf(tokens.read)).covered).toBe(1)
    expect((await send('DELETE', `/__sandbox/tenants/${tenant}`, tokens.write)).status).toBe(204)
    expectErrorBody(await send('GET', '/__sandbox/coverage', tokens.read), 401)
  })

  test('needs a token with plants:read, as the rest of the admin API does', async () => {
    const missing = await send('GET', '/__sandbox/coverage')
    expectErrorBody(missing, 401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="plant-store"')
    expectErrorBody(await send('GET', '/__sandbox/coverage', 'no-such-token'), 401)
    expectErrorBody(await send('DELETE', '/__sandbox/coverage', acme.write), 405)
  })
})

describe('SandboxTenant.coverage()', () => {
  test("answers the tenant's coverage as GET /__sandbox/coverage does (the 401 of Acme's expired token counted for no tenant)", async () => {
    const tenant = new SandboxClient({ baseUrl: sandbox.base }).tenant(acme)
    await send('GET', '/plants', acme.read)
    await send('GET', '/plants', acme.expired)
    const report = await tenant.coverage()
    expect(report).toEqual(await coverageOf(acme.read))
    expect(report).toMatchObject({ tenant: 'acme', ...share(1) })
    expect(hits(report, 'listPlants', 200)).toBe(1)
  })
})
