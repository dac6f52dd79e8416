/**
 * Issue 27: what the sandbox contract allows, the sandbox accepts. Requests
 * are generated from the served contract's own schemas (fast-check): every
 * query parameter of every operation, fault rules and tenant recipes; each
 * generated value is checked against the contract (ajv) and must not be
 * answered 400. Where the contract names a rule its schemas cannot state (a
 * recipe's plants within its quota), the generator keeps to it and says so.
 * Fault rules are also checked the other way: a rule the contract refuses is
 * a 400.
 */
import { METHODS } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sandboxContract as checker } from '../../src/contract-testing/contract-checker.ts'
import { FaultRules } from '../../src/faults/index.ts'
import { sandboxContract } from '../../src/generated/sandbox-contract.ts'
import { createPlantStore } from '../../src/seeded-store.ts'
import { createApp } from '../../src/server/index.ts'
import { undeclarableMethods } from '../support/allow.ts'
import { read } from '../support/contract.ts'
import { arbitrary, at, faultRules, type Schema, tenantRecipes } from '../support/schema-arbitrary.ts'
import { bearer, type Listening, listen } from './support.ts'

let sandbox: Listening
/** A tenant of the world, so that journal queries find something. */
const token = 'psm_acme_write'

beforeAll(async () => {
  sandbox = await listen(
    createApp({
      store: createPlantStore(),
      faults: new FaultRules({ maxRulesPerTenant: 10_000 }),
      maxTenants: 10_000,
    }),
  )
  // A little traffic of every kind for the journal: routed, unrouted, refused.
  for (const [method, path] of [
    ['GET', '/plants'],
    [undeclarableMethods[0], '/plants/1'],
    ['GET', '/nope'],
    ['PROPFIND', '/plants'],
  ]) {
    await fetch(`${sandbox.base}${path}`, { method, headers: bearer(token) }).catch(() => undefined)
  }
})
afterAll(() => sandbox.close())

async function send(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = bearer(token)
  if (body !== undefined) headers['content-type'] = 'application/json'
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
  return read(await fetch(`${sandbox.base}${path}`, init))
}

/** How many generated requests each property sends. */
const runs = 60

describe('every query the contract allows is answered, never with a 400', () => {
  const queried = Object.entries(sandboxContract.operations).filter(([, { query }]) => query.length > 0)

  test('the contract has queries to generate', () => {
    expect(queried.map(([id]) => id).sort()).toEqual([
      'headListRequests',
      'headListTenantPlants',
      'listRequests',
      'listTenantPlants',
    ])
  })

  test.each(queried)('%s', async (_operationId, { method, path }) => {
    const pointer = `/paths/${path.replaceAll('/', '~1')}/${method.toLowerCase()}/parameters`
    const parameters = at(pointer) as unknown as Array<{ name: string; in: string; schema: Schema }>
    const query = fc.record(
      Object.fromEntries(
        parameters.filter((parameter) => parameter.in === 'query').map(({ name, schema }) => [name, arbitrary(schema)]),
      ),
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(query, async (values) => {
        const search = new URLSearchParams()
        for (const [name, value] of Object.entries(values)) {
          const index = parameters.findIndex((parameter) => parameter.name === name)
          expect(checker.schemaProblems(`${pointer}/${index}/schema`, value), `${name}=${value}`).toBeUndefined()
          search.set(name, String(value))
        }
        const answer = await send(method, `${path}?${search}`)
        expect(answer.status, `${method} ${path}?${search}: ${answer.text}`).toBe(200)
      }),
      { numRuns: runs },
    )
  })

  test('the journal takes every method Node accepts, in any case', async () => {
    const schema = '/paths/~1__sandbox~1requests/get/parameters/0/schema'
    expect(at(schema.replace(/\/schema$/, '/name') as string)).toBe('method')
    for (const name of METHODS) {
      for (const method of [name, name.toLowerCase()]) {
        expect(checker.schemaProblems(schema, method), method).toBeUndefined()
        const answer = await send('GET', `/__sandbox/requests?method=${encodeURIComponent(method)}`)
        expect(answer.status, method).toBe(200)
      }
    }
  })
})

describe('fault rules: the contract accepts a rule exactly when the sandbox does', () => {
  test('every rule generated from the contract that it accepts is added (201)', async () => {
    await fc.assert(
      fc.asyncProperty(faultRules, async (value) => {
        const answer = await send('POST', '/__sandbox/faults', value)
        expect(answer.status, `${JSON.stringify(value)}: ${answer.text}`).toBe(201)
        await send('DELETE', `/__sandbox/faults/${(JSON.parse(answer.text) as { id: string }).id}`)
      }),
      { numRuns: runs },
    )
  })

  test('any method and path, routed or not: 201 when the contract accepts the rule, else 400', async () => {
    const path = fc.oneof(
      arbitrary(at('/components/schemas/RulePath')),
      arbitrary(at('/components/schemas/JournalPath')),
      fc.constantFrom('/plants', '/plants/', '/plants/{id}', '/plants/:id', '/plants/a:b', '/plant', '/plants//'),
    )
    const method = fc.oneof(
      fc.constantFrom(...METHODS),
      fc.constantFrom(...METHODS).map((name) => name.toLowerCase()),
    )
    const candidate = fc.record({ method, path, status: fc.constant(503) }, { requiredKeys: ['status'] })
    await fc.assert(
      fc.asyncProperty(candidate, async (value) => {
        const answer = await send('POST', '/__sandbox/faults', value)
        const problems = checker.schemaProblems('#/components/schemas/FaultRuleInput', value)
        expect(answer.status, `${JSON.stringify(value)}: ${problems ?? 'accepted'}; ${answer.text}`).toBe(
          problems === undefined ? 201 : 400,
        )
        if (answer.status === 201) {
          await send('DELETE', `/__sandbox/faults/${(JSON.parse(answer.text) as { id: string }).id}`)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('tenant recipes: every recipe the contract allows is provisioned (201)', () => {
  test('within the rule the contract states in words: its plants fit its quota', async () => {
    await fc.assert(
      fc.asyncProperty(tenantRecipes, async (generated) => {
        expect(checker.schemaProblems('#/components/schemas/TenantRecipe', generated)).toBeUndefined()
        const answer = await read(
          await fetch(`${sandbox.base}/__sandbox/tenants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(generated),
          }),
        )
        expect(answer.status, `${JSON.stringify(generated).slice(0, 300)}: ${answer.text}`).toBe(201)
      }),
      { numRuns: runs },
    )
  })
})
