/** Contract coverage over msw: `coverage` of `setupPlantStoreServer`, with real `fetch` intercepted in process. */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CoverageReport, CoverageThresholdError, fixtureTokens } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { contract } from '../../src/generated/contract.ts'
import { contractAnswers } from '../../src/generated/contract-answers.ts'
import { undeclarableMethods } from '../support/allow.ts'
import { badRequestConditions, coverageLine, share, total } from '../support/coverage-share.ts'

const origin = 'https://plants.test'
const statuses: number[] = []
const { server, store, faults, coverage } = setupPlantStoreServer({
  baseUrl: origin,
  onOutcome: (outcome) => statuses.push(outcome.response.status),
})
let directory: string

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' })
  directory = await mkdtemp(join(tmpdir(), 'plant-store-coverage-'))
})
afterEach(async () => {
  faults.clear()
  coverage.reset()
  statuses.length = 0
  await store.reset()
})
afterAll(async () => {
  server.close()
  await rm(directory, { recursive: true, force: true })
})

function send(method: string, path: string, token?: string, body?: unknown, contentType = 'application/json') {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = contentType
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
  return fetch(`${origin}${path}`, init).then(
    (response) => response.status,
    () => 0,
  )
}

function response(report: CoverageReport, operationId: string, status: number) {
  return report.operations
    .find((operation) => operation.operationId === operationId)
    ?.responses.find((declared) => declared.status === status)
}

const { write, read } = fixtureTokens.acme

describe('coverage.report()', () => {
  test('lists every operation of the contract with every status it declares, all at zero before any request', () => {
    const report = coverage.report()
    expect(report).toMatchObject({ ...share(0), undocumented: [], unrouted: [] })
    expect(report.operations.map(({ operationId, method, path }) => `${operationId} ${method} ${path}`)).toEqual(
      Object.entries(contract.operations).map(([operationId, { method, path }]) => `${operationId} ${method} ${path}`),
    )
    expect(
      report.operations.find(({ operationId }) => operationId === 'addPlant')?.responses.map((r) => r.status),
    ).toEqual([200, 400, 401, 403, 409, 413, 415, 503, 507])
  })

  test('counts each answer under its operation and status, and a status as covered once it was answered', async () => {
    expect(await send('GET', '/plants', write)).toBe(200)
    expect(await send('GET', '/plants', read)).toBe(200)
    expect(await send('POST', '/plants', write, { id: 1, name: 'Fern' })).toBe(409)
    expect(await send('DELETE', '/plants/999', write)).toBe(404)
    const report = coverage.report()
    expect(response(report, 'listPlants', 200)?.hits).toBe(2)
    expect(response(report, 'addPlant', 409)?.hits).toBe(1)
    expect(response(report, 'deletePlant', 404)?.hits).toBe(1)
    expect(response(report, 'addPlant', 200)?.hits).toBe(0)
    expect(report).toMatchObject(share(3))
  })

  test('tells a 401 for a missing token from one for an invalid token and one for an expired token', async () => {
    expect(await send('GET', '/plants')).toBe(401)
    const basic = await fetch(`${origin}/plants`, { headers: { authorization: 'Basic YWNtZTpzZWNyZXQ=' } })
    expect(basic.status).toBe(401)
    expect(await send('GET', '/plants', 'no-such-token')).toBe(401)
    expect(await send('GET', '/plants', 'not a token!')).toBe(401)
    expect(await send('GET', '/plants', fixtureTokens.expired)).toBe(401)
    expect(response(coverage.report(), 'listPlants', 401)).toEqual({
      status: 401,
      hits: 5,
      conditions: [
        { condition: 'missing token', hits: 2 },
        { condition: 'invalid token', hits: 2 },
        { condition: 'expired token', hits: 1 },
      ],
    })
  })

  test('counts a fault rule\'s made-up 401 as covering the status under the condition "other", not as a missing token', async () => {
    faults.add('acme', { method: 'DELETE', status: 401, times: 1 })
    expect(await send('DELETE', '/plants/1', write)).toBe(401)
    expect(response(coverage.report(), 'deletePlant', 401)).toEqual({
      status: 401,
      hits: 1,
      conditions: [
        { condition: 'missing token', hits: 0 },
        { condition: 'invalid token', hits: 0 },
        { condition: 'expired token', hits: 0 },
        { condition: 'other', hits: 1 },
      ],
    })
  })

  test('counts a 400 under the field its message names, and a 403 under the missing scope', async () => {
    expect(await send('POST', '/plants', write, { id: 5 })).toBe(400)
    expect(await send('POST', '/plants', write, { id: 5, name: '' })).toBe(400)
    expect(await send('POST', '/plants', write, { id: 'five', name: 'Fern' })).toBe(400)
    expect(await send('POST', '/plants', write, [])).toBe(400)
    expect(await send('GET', '/plants?limit=-1', write)).toBe(400)
    expect(await send('DELETE', '/plants/1e3', write)).toBe(400)
    expect(await send('POST', '/plants', read, { id: 5, name: 'Fern' })).toBe(403)
    const report = coverage.report()
    // `Prefer` names a 400 of the sandbox only (msw ignores the header): never hit here.
    expect(response(report, 'addPlant', 400)?.conditions).toEqual(
      badRequestConditions('addPlant', { body: 1, id: 1, name: 2 }),
    )
    expect(response(report, 'listPlants', 400)?.conditions).toEqual(badRequestConditions('listPlants', { limit: 1 }))
    expect(response(report, 'deletePlant', 400)?.conditions).toEqual(badRequestConditions('deletePlant', { id: 1 }))
    expect(response(report, 'addPlant', 403)?.conditions).toEqual([{ condition: 'plants:write', hits: 1 }])
  })

  test("lists a fault rule's undeclared status and a transport fault apart, and counts a declared one as covered", async () => {
    faults.add('acme', { method: 'GET', path: '/plants', status: 500, times: 1 })
    faults.add('acme', { method: 'DELETE', status: 503, times: 1 })
    faults.add('acme', { method: 'POST', fault: 'reset', times: 1 })
    expect(await send('GET', '/plants', write)).toBe(500)
    expect(await send('DELETE', '/plants/1', write)).toBe(503)
    expect(await send('POST', '/plants', write, { id: 77, name: 'Fern' })).toBe(0)
    const report = coverage.report()
    expect(report.undocumented).toEqual([
      { answer: 'listPlants 500', hits: 1 },
      { answer: 'addPlant 0 reset', hits: 1 },
    ])
    expect(response(report, 'deletePlant', 503)?.hits).toBe(1)
    expect(report.covered).toBe(1)
  })

  test('lists requests routed to no operation apart, by method and status', async () => {
    const [brew, when] = undeclarableMethods
    expect(await send(brew, '/plants', write)).toBe(405)
    expect(await send(when, '/plants/3', write)).toBe(405)
    expect(coverage.report()).toMatchObject({
      covered: 0,
      unrouted: [
        { answer: `${brew} 405`, hits: 1 },
        { answer: `${when} 405`, hits: 1 },
      ],
    })
  })

  test('keeps at most 16 distinct answers outside the contract and counts the rest under "other"', async () => {
    // 18 server-error statuses the list does not declare (it declares 503).
    const declared: readonly number[] = contractAnswers.operations.listPlants.statuses
    const outside = Array.from({ length: 100 }, (_, index) => 500 + index)
      .filter((status) => !declared.includes(status))
      .slice(0, 18)
    for (const status of outside) {
      faults.add('acme', { method: 'GET', status, times: 1 })
      await send('GET', '/plants', write)
    }
    const { undocumented } = coverage.report()
    expect(undocumented).toHaveLength(17)
    expect(undocumented.at(-1)).toEqual({ answer: 'other', hits: 2 })
  })

  test('reset() forgets every count', async () => {
    await send('GET', '/plants', write)
    await send(undeclarableMethods[0], '/plants', write)
    coverage.reset()
    expect(coverage.report()).toMatchObject({ covered: 0, undocumented: [], unrouted: [] })
  })
})

describe('coverage.table()', () => {
  test('prints the covered share, a line per declared answer with its hits and causes, and the answers apart', async () => {
    await send('GET', '/plants', write)
    await send('GET', '/plants')
    faults.add('acme', { status: 500, times: 1 })
    await send('GET', '/plants', write)
    const table = coverage.table()
    expect(table.startsWith(`${coverageLine(2)}\n`)).toBe(true)
    expect(table).toMatch(/✓ listPlants +GET +\/plants +200 +1\n/)
    expect(table).toMatch(/✓ listPlants +GET +\/plants +401 +1 +missing token 1 · invalid token 0 · expired token 0\n/)
    expect(table).toMatch(/✗ deletePlant +DELETE +\/plants\/\{id\} +404 +0\n/)
    expect(table).toContain('Outside the contract: listPlants 500 ×1')
    expect(table.split('\n')).toHaveLength(1 + total + 1)
  })

  test("counts the node-tests guide's failed list (GET /plants 503) under listPlants 503, not outside the contract", async () => {
    faults.add('acme', { method: 'GET', path: '/plants', status: 503, times: 1 })
    expect(await send('GET', '/plants', write)).toBe(503)
    const table = coverage.table()
    expect(table).toMatch(/✓ listPlants +GET +\/plants +503 +1\n/)
    expect(table).not.toContain('Outside the contract')
    expect(coverage.report().undocumented).toEqual([])
  })
})

describe('coverage.check()', () => {
  test('prints the table, writes the JSON report and resolves when the threshold is met', async () => {
    await send('POST', '/plants', write, { id: 1, name: 'Fern' })
    await send('GET', '/plants', fixtureTokens.expired)
    const printed: string[] = []
    const json = join(directory, 'nested', 'plant-store.json')
    const report = await coverage.check({
      min: 5,
      require: ['addPlant 409', 'listPlants 401 expired token'],
      json,
      print: (table) => printed.push(table),
    })
    expect(printed).toEqual([coverage.table()])
    expect(JSON.parse(await readFile(json, 'utf8'))).toEqual(report)
    expect(report.covered).toBe(2)
  })

  test('rejects with every shortfall when the percentage or a required answer is not met', async () => {
    await send('GET', '/plants', write)
    const failure = await coverage
      .check({
        min: 50,
        require: [
          'listPlants 200',
          'addPlant 409',
          'listPlants 401 expired token',
          'addPlant 418',
          'addPlant 400 colour',
        ],
        print: false,
      })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(CoverageThresholdError)
    expect((failure as CoverageThresholdError).shortfalls).toEqual([
      `${share(1).percent} % of the declared answers are covered; at least 50 % are required.`,
      'addPlant 409 was never answered.',
      'listPlants 401 (expired token) was never answered.',
      '"addPlant 418" is not an answer the contract declares (write "<operationId> <status> [condition]").',
      `"addPlant 400 colour": addPlant 400 has no condition "colour" (it has: ${badRequestConditions('addPlant', {})
        .map(({ condition }) => condition)
        .join(', ')}).`,
    ])
    expect((failure as Error).message).toContain(
      `Plant Store contract coverage is below the threshold:\n  - ${share(1).percent} %`,
    )
  })
})

describe('the outcome listener', () => {
  test('still reaches a listener given to setupPlantStoreServer, beside the coverage', async () => {
    await send('GET', '/plants', write)
    expect(statuses).toEqual([200])
    expect(coverage.report().covered).toBe(1)
  })
})
