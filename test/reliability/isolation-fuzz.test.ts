/**
 * Isolation fuzz over real HTTP: tenants provisioned through the admin API
 * of the sandbox, and 10,000 random operations (list, create, delete, reset,
 * journal reads, writes with a read token) spread across them, the tenants'
 * streams running concurrently. Ids come from a small shared range, so most
 * ids a tenant touches exist in other tenants too. A model per tenant says
 * what every answer must be; any foreign plant in a list, any answer that
 * differs between "exists elsewhere" and "exists nowhere", any foreign
 * journal entry, fails.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { expectErrorBody } from '../support/contract.ts'
import { errorFieldsOf, type ModelPlant, type ModelTenant, plantModel, resetModel } from '../support/tenant-model.ts'

const tenantsPerRun = 12
const operationsPerRun = 2000
const runs = 5

type Plant = ModelPlant
type Tenant = ModelTenant

const store = createPlantStore()
let sandbox: RunningSandbox
let operationsRun = 0

beforeAll(async () => {
  sandbox = await startSandbox({ store, host: '127.0.0.1', port: 0, maxTenants: 1000 })
})
afterAll(() => sandbox.close())

async function provision(seed: number): Promise<Tenant> {
  const response = await fetch(`${sandbox.url}/__sandbox/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ plants: 3, seed }),
  })
  expect(response.status).toBe(201)
  const { tenant, tokens } = (await response.json()) as { tenant: string; tokens: { read: string; write: string } }
  const seeded = store.listPlants(tenant).map((plant) => ({ ...plant }))
  return { id: tenant, read: tokens.read, write: tokens.write, seeded, plants: [...seeded] }
}

const id = fc.integer({ min: -2, max: 12 })
const operation = fc.record({
  actor: fc.nat({ max: tenantsPerRun - 1 }),
  action: fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), id, tag: fc.boolean() }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('delete' as const), id }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('list' as const),
        limit: fc.option(fc.nat({ max: 20 }), { nil: undefined }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('writeWithReadToken' as const), id }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('journal' as const) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
  ),
})
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** Runs one operation of `tenant` and checks its answer against the model. */
async function apply(tenant: Tenant, { action }: Operation, serial: number): Promise<void> {
  operationsRun++
  switch (action.kind) {
    case 'list': {
      const answer = await call(
        'GET',
        `/plants${action.limit === undefined ? '' : `?limit=${action.limit}`}`,
        tenant.read,
      )
      const expected = plantModel.listPlants(tenant, { limit: action.limit })
      expect(answer.status).toBe(expected.status)
      expect(JSON.parse(answer.text)).toEqual(expected.body)
      return
    }
    case 'create': {
      // The name carries the tenant: a foreign plant anywhere would show whose it is.
      const plant: Plant = { id: action.id, name: `${tenant.id} #${serial}`, ...(action.tag ? { tag: 'fuzz' } : {}) }
      const answer = await call('POST', '/plants', tenant.write, plant)
      const expected = plantModel.addPlant(tenant, plant)
      if (expected.status >= 400) {
        expectErrorBody(answer, expected.status)
        expect(errorFieldsOf(JSON.parse(answer.text))).toEqual(expected.fields ?? {})
        return
      }
      expect(answer.status, answer.text).toBe(expected.status)
      expect(JSON.parse(answer.text)).toEqual(expected.body)
      return
    }
    case 'delete': {
      const answer = await call('DELETE', `/plants/${action.id}`, tenant.write)
      const expected = plantModel.deletePlant(tenant, action.id)
      if (expected.status >= 400) {
        // The same answer whether the id exists in another tenant or nowhere.
        expectErrorBody(answer, expected.status)
        expect(JSON.parse(answer.text)).toEqual({
          ...expected.fields,
          error: expected.status,
          message: expected.message,
        })
        return
      }
      expect(answer.status, answer.text).toBe(expected.status)
      return
    }
    case 'writeWithReadToken': {
      const created = await call('POST', '/plants', tenant.read, { id: action.id, name: 'intruder' })
      expectErrorBody(created, 403)
      const deleted = await call('DELETE', `/plants/${action.id}`, tenant.read)
      expectErrorBody(deleted, 403)
      return
    }
    case 'journal': {
      const answer = await call('GET', '/__sandbox/requests', tenant.read)
      expect(answer.status).toBe(200)
      const journal = JSON.parse(answer.text) as {
        tenant: string
        requests: Array<{ request: { body: string | null; headers: Record<string, string> } }>
      }
      expect(journal.tenant).toBe(tenant.id)
      for (const { request } of journal.requests) {
        if (request.body?.includes('"name":"t_')) {
          expect(request.body).toContain(`"name":"${tenant.id} #`)
        }
        expect(request.headers.authorization ?? 'Bearer [redacted]').toBe('Bearer [redacted]')
      }
      return
    }
    case 'reset': {
      const answer = await call('POST', '/__sandbox/reset', tenant.write)
      expect(answer.status, answer.text).toBe(204)
      resetModel(tenant)
      return
    }
  }
}

test('10,000 random operations across provisioned tenants never read, write, delete or reveal another tenant plants', async () => {
  let run = 0
  await fc.assert(
    fc.asyncProperty(
      fc.array(operation, { minLength: operationsPerRun, maxLength: operationsPerRun }),
      async (operations) => {
        run++
        const tenants = await Promise.all(Array.from({ length: tenantsPerRun }, (_, i) => provision(run * 100 + i)))
        // Each tenant's operations run in order; the tenants run concurrently.
        await Promise.all(
          tenants.map(async (tenant, index) => {
            for (const [serial, op] of operations.entries()) if (op.actor === index) await apply(tenant, op, serial)
          }),
        )
        for (const tenant of tenants) expect(store.listPlants(tenant.id)).toEqual(tenant.plants)
      },
    ),
    { numRuns: runs, endOnFailure: true },
  )
  expect(operationsRun).toBeGreaterThanOrEqual(10_000)
}, 120_000)
