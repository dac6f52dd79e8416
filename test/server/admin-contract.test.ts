/**
 * The sandbox control API against its contract (`contracts/sandbox.openapi.yaml`),
 * over real HTTP: every route driven to its success and to each error status
 * the contract declares, every answer checked against the contract, and a
 * final check that each declared status was driven here or is named with
 * the reason it cannot be (a Redis replica, a change not made yet).
 */
import SwaggerParser from '@apidevtools/swagger-parser'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld, fixtureTokens } from '../../fixtures/world.ts'
import { storageUnavailable } from '../../src/cluster/redis-tenants.ts'
import { sandboxContract as sandboxChecker } from '../../src/contract-testing/contract-checker.ts'
import { journalQueryNames } from '../../src/core/journal-query.ts'
import { templatePattern } from '../../src/core/path-template.ts'
import { FaultRules } from '../../src/faults/index.ts'
import { sandboxContract } from '../../src/generated/sandbox-contract.ts'
import { sandboxContractDocument } from '../../src/generated/sandbox-contract-document.ts'
import { createPlantStore } from '../../src/seeded-store.ts'
import { createApp } from '../../src/server/index.ts'
import { undeclarableMethods } from '../support/allow.ts'
import {
  type Answer,
  expectToMatchSandboxContract,
  read,
  sandboxOpenapi,
  sandboxSchemaAccepts,
} from '../support/contract.ts'
import { nodeRequest } from '../support/node-request.ts'
import { openEventStream } from './event-stream.ts'
import { bearer, type Listening, listen } from './support.ts'

type OperationId = keyof typeof sandboxContract.operations

/** `operationId status` of every answer driven in this file. */
const driven = new Set<string>()

/**
 * Declared statuses this file does not drive, and why. Each must still be
 * declared: the last test fails when one is no longer in the contract.
 */
const notDrivenHere: Record<string, string> = {
  'deleteTenant 503': 'a cluster replica whose Redis refuses the tombstone: test/cluster',
  'tenantCoverage 404': 'only from an admin handler built without coverage (createAdmin without its coverage option)',
  'headTenantCoverage 404': 'as tenantCoverage 404',
  'headInspectorEvents 429': 'a HEAD opens no stream, so it is never over the caps; declared as derived from GET',
  'provisionTenant 429':
    'past the provisioning rate, over HTTP from several addresses: test/server/provisioning-rate.test.ts',
}

const operations = Object.entries(sandboxContract.operations) as Array<
  [OperationId, (typeof sandboxContract.operations)[OperationId]]
>

/** The operation a request is routed to by the contract, if any. */
function operationOf(method: string, path: string): OperationId | undefined {
  const bare = path.split('?')[0] ?? path
  return operations.find(
    ([, operation]) => operation.method === method && templatePattern(operation.path).test(bare),
  )?.[0]
}

let sandbox: Listening
let guarded: Listening
let failing: Listening
let broken: Listening

/** Writes the failing sandbox cannot store. */
const refuse = async () => {
  throw storageUnavailable('The sandbox cannot reach its durable storage; nothing changed.')
}

beforeAll(async () => {
  sandbox = await listen(createApp({ faults: new FaultRules({ maxRulesPerTenant: 2 }), maxStreamsPerTenant: 1 }))
  guarded = await listen(createApp({ adminKey: 'sesame' }))
  failing = await listen(
    createApp({
      store: createPlantStore({ persist: refuse }),
      faults: new FaultRules({ persist: refuse }),
    }),
  )
  const [acme] = buildWorld()
  const brokenStore = createPlantStore({ world: [acme!, { ...acme!, id: 'acme-twin' }] }) // the same tokens twice
  await brokenStore.ready.catch(() => undefined)
  broken = await listen(createApp({ store: brokenStore }))
})
afterAll(async () => {
  await Promise.all([sandbox, guarded, failing, broken].map((listening) => listening.close()))
})

interface CallOptions {
  token?: string
  body?: unknown
  /** A body sent as it is, with this content type. */
  raw?: { type: string; text: string }
  headers?: Record<string, string>
  base?: string
}

/** Sends a request, checks its answer against the contract, and notes the status as driven. */
async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  let body: string | undefined
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  } else if (options.raw) {
    headers['content-type'] = options.raw.type
    body = options.raw.text
  }
  const url = `${options.base ?? sandbox.base}${path}`
  const answer = await read(await fetch(url, { method, headers, body }))
  expectToMatchSandboxContract(method, path, answer, { origin: headers.origin })
  const operation = operationOf(method, path)
  if (operation) driven.add(`${operation} ${answer.status}`)
  // Every GET is asked as HEAD too (but the stream, whose GET counts open streams): the same status, no body.
  if (method === 'GET' && !path.startsWith('/__sandbox/events')) {
    const head = await read(await fetch(url, { method: 'HEAD', headers }))
    expectToMatchSandboxContract('HEAD', path, head, { origin: headers.origin })
    expect([head.status, head.text], `HEAD ${path}`).toEqual([answer.status, ''])
    const headOperation = operationOf('HEAD', path)
    if (headOperation) driven.add(`${headOperation} ${head.status}`)
  }
  return answer
}

/** Sends a request with a JSON body whatever its method (fetch sends none with GET or HEAD). */
function withBody(method: string, path: string, token: string, body: string): Promise<Answer> {
  const headers = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
  }
  return nodeRequest(`${sandbox.base}${path}`, method, headers, body)
}

async function provision(recipe: unknown = { plants: 2, seed: 7 }) {
  const answer = await call('POST', '/__sandbox/tenants', { body: recipe })
  expect(answer.status).toBe(201)
  return JSON.parse(answer.text) as { tenant: string; tokens: { read: string; write: string } }
}

const tooLarge = { type: 'application/json', text: JSON.stringify({ plants: 1, pad: 'x'.repeat(70_000) }) }

describe('the sandbox control API answers as its contract says', () => {
  test('POST /__sandbox/tenants: 201, 400, 401 without the admin key, 413 and 415', async () => {
    await provision()
    await provision({ plants: [{ id: 1, name: 'Fern', tag: null }], ttlSeconds: 60 })
    expect((await call('POST', '/__sandbox/tenants')).status).toBe(201)
    expect((await call('POST', '/__sandbox/tenants', { body: { plants: -1 } })).status).toBe(400)
    expect((await call('POST', '/__sandbox/tenants', { raw: { type: 'application/json', text: '{' } })).status).toBe(
      400,
    )
    expect((await call('POST', '/__sandbox/tenants', { raw: tooLarge })).status).toBe(413)
    expect((await call('POST', '/__sandbox/tenants', { raw: { type: 'text/plain', text: '{}' } })).status).toBe(415)
    expect((await call('POST', '/__sandbox/tenants', { base: guarded.base })).status).toBe(401)
    const keyed = await call('POST', '/__sandbox/tenants', { base: guarded.base, headers: { 'x-admin-key': 'sesame' } })
    expect(keyed.status).toBe(201)
  })

  test('DELETE /__sandbox/tenants/{id}: 204, 401, 403 for a read token and for a world tenant, 404 for another', async () => {
    const { tenant, tokens } = await provision()
    const other = await provision()
    expect((await call('DELETE', `/__sandbox/tenants/${tenant}`)).status).toBe(401)
    expect((await call('DELETE', `/__sandbox/tenants/${tenant}`, { token: tokens.read })).status).toBe(403)
    expect((await call('DELETE', `/__sandbox/tenants/${other.tenant}`, { token: tokens.write })).status).toBe(404)
    expect((await call('DELETE', '/__sandbox/tenants/acme', { token: fixtureTokens.acme.write })).status).toBe(403)
    expect((await call('DELETE', `/__sandbox/tenants/${tenant}`, { token: tokens.write })).status).toBe(204)
    expect((await call('DELETE', `/__sandbox/tenants/${tenant}`, { token: tokens.write })).status).toBe(401)
  })

  test('POST /__sandbox/reset: 204, 401, 403, and 503 when the write cannot be stored', async () => {
    const { tokens } = await provision()
    expect((await call('POST', '/__sandbox/reset', { token: tokens.write })).status).toBe(204)
    expect((await call('POST', '/__sandbox/reset', { token: 'psm_nobody' })).status).toBe(401)
    expect((await call('POST', '/__sandbox/reset', { token: tokens.read })).status).toBe(403)
    const failed = await call('POST', '/__sandbox/reset', { token: fixtureTokens.acme.write, base: failing.base })
    expect(failed.status).toBe(503)
  })

  test('GET and DELETE /__sandbox/requests: 200 with the journal, 204, 400, 401 and 403', async () => {
    const { tokens } = await provision()
    await fetch(`${sandbox.base}/plants`, { headers: bearer(tokens.read) })
    await fetch(`${sandbox.base}/plants/1`, { method: 'DELETE', headers: bearer(tokens.write) })
    const listed = await call('GET', '/__sandbox/requests?method=delete&path=/plants/{id}&status=2xx&limit=5', {
      token: tokens.read,
    })
    expect(JSON.parse(listed.text)).toMatchObject({ count: 1, dropped: 0 })
    expect((await call('GET', '/__sandbox/requests', { token: tokens.read })).status).toBe(200)
    expect((await call('GET', '/__sandbox/requests?limit=0', { token: tokens.read })).status).toBe(400)
    expect((await call('GET', '/__sandbox/requests?colour=red', { token: tokens.read })).status).toBe(400)
    expect((await call('GET', '/__sandbox/requests')).status).toBe(401)
    expect((await call('DELETE', '/__sandbox/requests', { token: tokens.write })).status).toBe(204)
    expect((await call('DELETE', '/__sandbox/requests', { token: 'psm_nobody' })).status).toBe(401)
    expect((await call('DELETE', '/__sandbox/requests', { token: tokens.read })).status).toBe(403)
    // A read token that lacks plants:read does not exist; a fixture's expired token is the closest 401.
    expect((await call('GET', '/__sandbox/requests', { token: fixtureTokens.expired })).status).toBe(401)
  })

  test('/__sandbox/faults and /__sandbox/faults/{id}: every status, 503 when the rules cannot be stored', async () => {
    const { tokens } = await provision()
    const rule = { method: 'post', path: '/plants', status: 503, message: 'Down for a test.', times: 1 }
    const added = await call('POST', '/__sandbox/faults', { token: tokens.write, body: rule })
    expect(added.status).toBe(201)
    const { id } = JSON.parse(added.text) as { id: string }
    await call('POST', '/__sandbox/faults', { token: tokens.write, body: { path: '/plants/{id}', delayMs: 5 } })
    expect((await call('POST', '/__sandbox/faults', { token: tokens.write, body: { fault: 'reset' } })).status).toBe(
      409,
    )
    expect((await call('POST', '/__sandbox/faults', { token: tokens.write, body: { times: 0 } })).status).toBe(400)
    expect((await call('POST', '/__sandbox/faults', { token: tokens.write, raw: tooLarge })).status).toBe(413)
    const text = { type: 'text/plain', text: '{"status":503}' }
    expect((await call('POST', '/__sandbox/faults', { token: tokens.write, raw: text })).status).toBe(415)
    expect((await call('POST', '/__sandbox/faults', { body: rule })).status).toBe(401)
    expect((await call('POST', '/__sandbox/faults', { token: tokens.read, body: rule })).status).toBe(403)
    expect((await call('GET', '/__sandbox/faults', { token: tokens.read })).status).toBe(200)
    expect((await call('GET', '/__sandbox/faults')).status).toBe(401)
    expect((await call('GET', `/__sandbox/faults/${id}`, { token: tokens.read })).status).toBe(200)
    expect((await call('GET', '/__sandbox/faults/f_none', { token: tokens.read })).status).toBe(404)
    expect((await call('GET', `/__sandbox/faults/${id}`)).status).toBe(401)
    expect((await call('DELETE', `/__sandbox/faults/${id}`, { token: tokens.read })).status).toBe(403)
    expect((await call('DELETE', `/__sandbox/faults/${id}`, { token: tokens.write })).status).toBe(204)
    expect((await call('DELETE', `/__sandbox/faults/${id}`, { token: tokens.write })).status).toBe(404)
    expect((await call('DELETE', `/__sandbox/faults/${id}`)).status).toBe(401)
    expect((await call('DELETE', '/__sandbox/faults', { token: tokens.write })).status).toBe(204)
    expect((await call('DELETE', '/__sandbox/faults', { token: tokens.read })).status).toBe(403)
    expect((await call('DELETE', '/__sandbox/faults')).status).toBe(401)

    const acme = fixtureTokens.acme
    const refused = await call('POST', '/__sandbox/faults', { token: acme.write, body: rule, base: failing.base })
    expect(refused.status).toBe(503)
    expect((await call('DELETE', '/__sandbox/faults', { token: acme.write, base: failing.base })).status).toBe(204)
    // Nothing to delete is no change, so nothing to store: write one rule in while the storage takes it.
    let stored = false
    const sometimes = new FaultRules({ persist: async () => (stored ? refuse() : undefined) })
    const flaky = await listen(createApp({ faults: sometimes }))
    try {
      const kept = await call('POST', '/__sandbox/faults', { token: acme.write, body: rule, base: flaky.base })
      const keptId = (JSON.parse(kept.text) as { id: string }).id
      stored = true
      expect(
        (await call('DELETE', `/__sandbox/faults/${keptId}`, { token: acme.write, base: flaky.base })).status,
      ).toBe(503)
      expect((await call('DELETE', '/__sandbox/faults', { token: acme.write, base: flaky.base })).status).toBe(503)
    } finally {
      await flaky.close()
    }
  })

  test('GET /__sandbox/plants: 200, 400 for a bad limit, 401 and 403', async () => {
    const { tokens } = await provision({ plants: 3, seed: 1 })
    const answer = await call('GET', '/__sandbox/plants?limit=2', { token: tokens.read })
    expect(JSON.parse(answer.text)).toMatchObject({ count: 3, plants: [{ id: expect.any(Number) }, {}] })
    expect((await call('GET', '/__sandbox/plants?limit=-1', { token: tokens.read })).status).toBe(400)
    expect((await call('GET', '/__sandbox/plants', { token: 'psm_nobody' })).status).toBe(401)
    expect((await call('GET', '/__sandbox/plants', { headers: { authorization: 'Basic eDp5' } })).status).toBe(401)
    expect((await call('GET', '/__sandbox/plants?limit=1', { token: tokens.write })).status).toBe(200)
  })

  test('GET and HEAD /__sandbox/health and /__sandbox/ready: 200, and 503 with Retry-After when not ready', async () => {
    for (const method of ['GET', 'HEAD']) {
      expect((await call(method, '/__sandbox/health')).status).toBe(200)
      expect((await call(method, '/__sandbox/ready')).status).toBe(200)
      expect((await call(method, '/__sandbox/ready', { base: broken.base })).status).toBe(503)
    }
  })

  test('GET /__sandbox/events: a text/event-stream, 401, and 429 beyond the streams a tenant may hold', async () => {
    const { tokens } = await provision()
    const stream = new AbortController()
    const open = await fetch(`${sandbox.base}/__sandbox/events`, {
      headers: bearer(tokens.read),
      signal: stream.signal,
    })
    try {
      // The stream never ends: its status and headers are checked, not its body.
      expectToMatchSandboxContract('GET', '/__sandbox/events', { status: open.status, headers: open.headers, text: '' })
      expect(open.status).toBe(200)
      driven.add('inspectorEvents 200')
      expect((await call('GET', '/__sandbox/events', { token: tokens.read })).status).toBe(429)
    } finally {
      stream.abort()
    }
    expect((await call('GET', '/__sandbox/events')).status).toBe(401)
    expect((await call('GET', '/__sandbox/events?token=x', { token: tokens.read })).status).toBe(400)
    for (const [token, status] of [
      [tokens.read, 200],
      [undefined, 401],
      ['psm_nobody', 401],
    ] as const) {
      expect((await call('HEAD', '/__sandbox/events', { token })).status).toBe(status)
    }
    expect((await call('HEAD', '/__sandbox/events?token=x', { token: tokens.read })).status).toBe(400)
  })

  test("GET /__sandbox/events: each event's data matches the schema the contract gives its name", async () => {
    const { tenant, tokens } = await provision()
    const stream = await openEventStream(sandbox.base, tokens.read)
    const events = '/paths/~1__sandbox~1events/get/responses/200/x-events'
    const ok = sandboxOpenapi.paths['/__sandbox/events']?.get?.responses['200'] as { 'x-events'?: object } | undefined
    const declared = Object.keys(ok?.['x-events'] ?? {})
    try {
      await fetch(`${sandbox.base}/plants`, { headers: bearer(tokens.read) })
      await call('POST', '/__sandbox/faults', { token: tokens.write, body: { status: 503, times: 1 } })
      for (const name of ['hello', 'plants', 'faults', 'coverage', 'exchange']) {
        await stream.until((event) => event.name === name)
      }
      await call('DELETE', `/__sandbox/tenants/${tenant}`, { token: tokens.write })
      await stream.until((event) => event.name === 'gone')
    } finally {
      await stream.close()
    }
    for (const { name, data } of stream.events) {
      expect(declared, `event ${name}`).toContain(name)
      expect(sandboxChecker.schemaProblems(`${events}/${name}/schema`, data), `event ${name}`).toBeUndefined()
    }
    // Its ends that need a clock, a slow client or a cluster are driven in test/server/inspector-*.test.ts.
    expect(declared.sort()).toEqual(
      ['coverage', 'exchange', 'expired', 'faults', 'gone', 'hello', 'plants', 'released', 'skipped'].sort(),
    )
  })

  test('a token without plants:read answers 403 wherever plants:read is needed', async () => {
    // Every token has plants:read today; a fault rule answering 403 is how a 403 reaches a reader.
    const readers = operations.filter(
      ([operationId, operation]) =>
        (operation.scopes as readonly string[]).includes('plants:read') &&
        !Object.hasOwn(notDrivenHere, `${operationId} 403`),
    )
    expect(readers.length).toBeGreaterThan(0)
    const lacking = createPlantStore({
      world: [
        {
          id: 'writers',
          name: 'Writers only',
          seed: 1,
          plants: 1,
          users: [{ id: 'w', name: 'Writer', tokens: [{ token: 'psm_writer_only', scopes: ['plants:write'] }] }],
        },
      ],
    })
    const writers = await listen(createApp({ store: lacking }))
    try {
      for (const [, operation] of readers) {
        const path = operation.path.replace('{id}', 'f_none')
        if (operation.path === '/__sandbox/events' && operation.method === 'GET') {
          expect((await call('GET', path, { token: 'psm_writer_only', base: writers.base })).status).toBe(403)
          continue
        }
        expect((await call(operation.method, path, { token: 'psm_writer_only', base: writers.base })).status).toBe(403)
      }
    } finally {
      await writers.close()
    }
  })

  test('GET /__sandbox/openapi.json serves the contract, valid, with this sandbox as its server', async () => {
    const answer = await call('GET', '/__sandbox/openapi.json')
    expect(answer.status).toBe(200)
    const served = JSON.parse(answer.text) as typeof sandboxContractDocument
    expect(served.servers).toEqual([{ url: sandbox.base, description: expect.any(String) }])
    expect({ ...served, servers: sandboxContractDocument.servers }).toEqual(sandboxContractDocument)
    const api = await SwaggerParser.validate(served as never)
    expect('openapi' in api && api.openapi).toBe('3.1.0')
    expect((await call('HEAD', '/__sandbox/openapi.json')).status).toBe(200)
    expect((await call('GET', '/__sandbox/openapi.json?format=yaml')).status).toBe(400)
    expect((await call('POST', '/__sandbox/openapi.json')).status).toBe(405)
  })

  test('the docs page shows the sandbox control API beside the Plant Store API', async () => {
    const initializer = await (await fetch(`${sandbox.base}/docs/swagger-initializer.js`)).text()
    const urls = [...initializer.matchAll(/url: '([^']+)'/g)].map(([, url]) => new URL(url!, `${sandbox.base}/docs/`))
    expect(urls.map(({ pathname }) => pathname)).toEqual(['/openapi.json', '/__sandbox/openapi.json'])
    const titles = await Promise.all(
      urls.map(async (url) => ((await (await fetch(url)).json()) as { info: { title: string } }).info.title),
    )
    expect(titles).toEqual(['OpenAPI Plant Store', 'Plant Store sandbox control API'])
    expect(await (await fetch(`${sandbox.base}/`)).text()).toContain('href="__sandbox/openapi.json"')
  })

  test('an unknown path is its 404 and a method a path lacks its 405 with Allow', async () => {
    expect((await call('GET', '/__sandbox/nothing-here')).status).toBe(404)
    expect((await call('GET', '/__sandbox/faults/f_1/more')).status).toBe(404)
    expect((await call(undeclarableMethods[0], '/__sandbox/faults', { token: fixtureTokens.acme.write })).status).toBe(
      405,
    )
    expect((await call('GET', '/__sandbox/reset')).status).toBe(405)
    expect((await call('POST', '/__sandbox/health')).status).toBe(405)
    expect((await call('GET', '/__sandbox/tenants')).status).toBe(405)
  })

  test('the request schemas accept the bodies the sandbox takes and refuse the ones it answers 400', async () => {
    const { tokens } = await provision()
    const rules = [
      { status: 418 },
      { method: 'delete', path: '/plants/42', fault: 'truncated', windowMs: 1000 },
      { delayMs: 10, times: 2 },
      {},
      { status: 503, fault: 'reset' },
      { fault: 'empty', message: 'only with a status' },
      { status: 399 },
      { status: 500, colour: 'red' },
      { method: 'BREW', status: 500 },
    ]
    for (const rule of rules) {
      const answer = await call('POST', '/__sandbox/faults', { token: tokens.write, body: rule })
      const accepted = sandboxSchemaAccepts('#/components/schemas/FaultRuleInput', rule)
      expect(accepted.ok, `${JSON.stringify(rule)} → ${answer.status}: ${accepted.errors}`).toBe(answer.status === 201)
      if (answer.status === 201) await call('DELETE', '/__sandbox/faults', { token: tokens.write })
    }
    const recipes = [
      {},
      { plants: 0 },
      { plants: [{ id: 1, name: 'Fern' }], ttlSeconds: 86_400 },
      { plants: 1.5 },
      { seed: 2 ** 31 },
      { ttlSeconds: 0 },
      { plants: [{ id: 1 }] },
    ]
    for (const recipe of recipes) {
      const answer = await call('POST', '/__sandbox/tenants', { body: recipe })
      const accepted = sandboxSchemaAccepts('#/components/schemas/TenantRecipe', recipe)
      expect(accepted.ok, `${JSON.stringify(recipe)} → ${answer.status}: ${accepted.errors}`).toBe(
        answer.status === 201,
      )
    }
  })

  test('every operation refuses a query parameter it does not take with 400', async () => {
    const { tenant, tokens } = await provision()
    const unknown = '?colour=red'
    const queried: Array<[string, string, string | undefined]> = [
      ['GET', '/__sandbox/health', undefined],
      ['HEAD', '/__sandbox/health', undefined],
      ['GET', '/__sandbox/ready', undefined],
      ['HEAD', '/__sandbox/ready', undefined],
      ['GET', '/__sandbox/faults', tokens.read],
      ['GET', '/__sandbox/faults/f_none', tokens.read],
      ['DELETE', '/__sandbox/faults/f_none', tokens.write],
      ['DELETE', '/__sandbox/faults', tokens.write],
      ['DELETE', '/__sandbox/requests', tokens.write],
      ['GET', '/__sandbox/coverage', tokens.read],
      ['POST', '/__sandbox/reset', tokens.write],
      ['DELETE', `/__sandbox/tenants/${tenant}`, tokens.write],
      ['GET', '/__sandbox/events', tokens.read],
      ['HEAD', '/__sandbox/events', tokens.read],
      ['GET', '/__sandbox/openapi.json', undefined],
      ['HEAD', '/__sandbox/openapi.json', undefined],
    ]
    for (const [method, path, token] of queried) {
      expect((await call(method, `${path}${unknown}`, { token })).status, `${method} ${path}`).toBe(400)
    }
  })

  test('every operation that declares no body refuses one with 400, and the connection closes', async () => {
    const { tenant, tokens } = await provision()
    const undeclared = operations.filter(([, operation]) => !operation.body)
    expect(undeclared.length).toBeGreaterThan(10)
    for (const [operationId, operation] of undeclared) {
      const path = operation.path.replace('{id}', operation.path.startsWith('/__sandbox/tenants') ? tenant : 'f_none')
      const token = (operation.scopes as readonly string[]).includes('plants:write') ? tokens.write : tokens.read
      // node:http, since fetch sends no body with GET or HEAD.
      const answer = await withBody(operation.method, path, token, '{}')
      expectToMatchSandboxContract(operation.method, path, answer)
      expect(answer.status, operationId).toBe(400)
      expect(answer.headers.get('connection'), operationId).toBe('close')
      if (operation.method !== 'HEAD') expect(JSON.parse(answer.text).message).toContain('takes no request body')
    }
    // The tenant is still there: its DELETE refused the body and ran nothing.
    expect((await call('GET', '/__sandbox/plants', { token: tokens.read })).status).toBe(200)
  })

  test("GET /__sandbox/coverage: 200 with the tenant's coverage, 401 without a token", async () => {
    const { tokens } = await provision()
    await fetch(`${sandbox.base}/plants`, { headers: bearer(tokens.read) })
    const answer = await call('GET', '/__sandbox/coverage', { token: tokens.read })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toMatchObject({ covered: 1 })
    expect((await call('GET', '/__sandbox/coverage')).status).toBe(401)
  })

  test('POST /__sandbox/tenants: 403 from a web origin the sandbox does not list, 503 at capacity with none idle', async () => {
    const refused = await call('POST', '/__sandbox/tenants', { headers: { origin: 'http://elsewhere.example' } })
    expect(refused.status).toBe(403)
    const full = await listen(createApp({ maxTenants: 1 }))
    try {
      expect((await call('POST', '/__sandbox/tenants', { base: full.base })).status).toBe(201)
      const answer = await call('POST', '/__sandbox/tenants', { base: full.base })
      expect(answer.status).toBe(503)
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
    } finally {
      await full.close()
    }
  })

  test("POST /__sandbox/tenants: 507 when the new tenant's plants do not fit the sandbox's plant bytes", async () => {
    const small = await listen(createApp({ plantBytesTotal: 64 << 10 }))
    try {
      const answer = await call('POST', '/__sandbox/tenants', { base: small.base, body: { plants: 1000 } })
      expect(answer.status).toBe(507)
    } finally {
      await small.close()
    }
  })

  test('the journal query takes exactly the query parameters the contract gives GET /__sandbox/requests', () => {
    expect([...journalQueryNames].sort()).toEqual([...sandboxContract.operations.listRequests.query].sort())
  })

  test('drove every status the contract declares, or names why it cannot here', () => {
    const declared = operations.flatMap(([operationId, operation]) => {
      const responses = sandboxOpenapi.paths[operation.path]?.[operation.method.toLowerCase()]?.responses
      return Object.keys(responses ?? {}).map((status) => `${operationId} ${status}`)
    })
    const missing = declared.filter((pair) => !driven.has(pair) && !Object.hasOwn(notDrivenHere, pair))
    expect(missing, 'declared statuses no test here drove').toEqual([])
    const stale = Object.keys(notDrivenHere).filter((pair) => !declared.includes(pair) || driven.has(pair))
    expect(stale, 'exemptions that are driven or no longer declared').toEqual([])
    const undeclared = [...driven].filter((pair) => !declared.includes(pair))
    expect(undeclared).toEqual([])
  })
})
