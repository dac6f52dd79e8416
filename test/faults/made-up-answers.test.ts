/**
 * Issue 20.2: every answer the sandbox and msw make up (a fault rule's
 * status, `Prefer: code`) is checked against the contract like any other:
 * each status they can produce, on each operation, carries the headers the
 * contract requires for it (a 503's `Retry-After`, a 401's challenge).
 * Issue 27: `Prefer: code` makes an operation answer only a status it
 * declares (a 400 for any other), so its answers are all in the contract.
 */
import { getResponse } from 'msw'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { plantStoreContract } from '../../src/contract-testing/contract-checker.ts'
import { fixtureTokens } from '../../src/index.ts'
import { useSandbox } from '../server/sandbox-fixture.ts'
import { type Answer, expectMadeUpAnswerToMatchContract, expectToMatchContract, read } from '../support/contract.ts'
import { nodeRequest } from '../support/node-request.ts'

const { acme } = fixtureTokens

/** Every status a fault rule can answer, and `Prefer: code` can ask for. */
const statuses = Array.from({ length: 200 }, (_, i) => 400 + i)

/** Each operation of the contract, as one request. */
const operations = [
  ['GET', '/plants', acme.read],
  ['HEAD', '/plants', acme.read],
  ['POST', '/plants', acme.write],
  ['DELETE', '/plants/1', acme.write],
] as const

/**
 * Sends one request with node:http (which msw intercepts too) rather than
 * fetch: fetch turns a 407 into a network error, whatever the server sent.
 */
function request(
  base: string,
  method: string,
  path: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const body = method === 'POST' ? JSON.stringify({ id: 990, name: 'Never Stored' }) : undefined
  const all = { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }
  return nodeRequest(`${base}${path}`, method, all, body)
}

describe('made-up answers of the sandbox', () => {
  const sandbox = useSandbox({}, 'standalone')

  test('a fault rule’s status, for each status and operation, matches the contract', async () => {
    const tenant = sandbox.client.tenant(acme)
    for (const status of statuses) {
      await tenant.faults.add({ status, times: operations.length })
      for (const [method, path, token] of operations) {
        const answer = await request(sandbox.base, method, path, token)
        expect(answer.status).toBe(status)
        expectMadeUpAnswerToMatchContract(method, path, answer)
      }
      await tenant.faults.clear()
    }
    expect(sandbox.store.listPlants('acme').map(({ id }) => id)).not.toContain(990)
  })

  test('Prefer: code answers each status the operation declares, and 400 for any other, as the contract says', async () => {
    let declared = 0
    for (const status of statuses) {
      for (const [method, path, token] of operations) {
        const answer = await request(sandbox.base, method, path, token, { prefer: `code=${status}` })
        const operation = plantStoreContract.operationOf(method, path)!
        if (operation.responses[String(status)]) {
          declared++
          expect(answer.status, `${method} ${path} code=${status}`).toBe(status)
          expect(answer.headers.get('preference-applied')).toBe(`code=${status}`)
        } else {
          expect(answer.status, `${method} ${path} code=${status}`).toBe(400)
          expect(answer.headers.get('preference-applied')).toBeNull()
          if (method !== 'HEAD') expect(JSON.parse(answer.text).message).toMatch(/^Prefer must ask \w+ for a status/)
        }
        // Declared either way: the contract's own statuses, checked whole.
        expectToMatchContract(method, path, answer)
      }
    }
    expect(declared).toBeGreaterThan(10)
    expect(sandbox.store.listPlants('acme').map(({ id }) => id)).not.toContain(990)
  })

  test('Prefer: code that is no status never runs the operation', async () => {
    for (const code of ['200', '600', 'abc', '', '5xx']) {
      const answer = await request(sandbox.base, 'POST', '/plants', acme.write, { prefer: `code=${code}` })
      expect(answer.status, code).toBe(400)
      expectToMatchContract('POST', '/plants', answer)
    }
    expect(sandbox.store.listPlants('acme').map(({ id }) => id)).not.toContain(990)
  })

  test('a made-up 503 says when to retry', async () => {
    const answer = await request(sandbox.base, 'DELETE', '/plants/1', acme.write, { prefer: 'code=503' })
    expect(answer.headers.get('retry-after')).toBe('1')
  })
})

/** Statuses fetch does not hand over as they came. */
const fetchQuirks = new Set([407, 421])

describe('made-up answers of the msw handlers', () => {
  const origin = 'https://made-up.test'
  const { server, faults, handlers } = setupPlantStoreServer({ baseUrl: origin })
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  /**
   * Through fetch, intercepted; a 407 and a 421 straight from the handlers
   * (msw's `getResponse`), since fetch turns a 407 into a network error and
   * retries a 421. A HEAD answer is then read as fetch reads one: no body.
   */
  async function send(method: string, path: string, token: string): Promise<Answer> {
    const init = {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify({ id: 990, name: 'Never Stored' }) } : {}),
    }
    if (!fetchQuirks.has(faults.list('acme')[0]?.status ?? 0)) return read(await fetch(`${origin}${path}`, init))
    const response = await getResponse([...handlers], new Request(`${origin}${path}`, init))
    if (!response) throw new Error(`no handler answered ${method} ${path}`)
    return { status: response.status, headers: response.headers, text: method === 'HEAD' ? '' : await response.text() }
  }

  test('a fault rule’s status, for each status and operation, matches the contract', async () => {
    for (const status of statuses) {
      faults.add('acme', { status, times: operations.length })
      for (const [method, path, token] of operations) {
        const answer = await send(method, path, token)
        expect(answer.status).toBe(status)
        expectMadeUpAnswerToMatchContract(method, path, answer)
      }
      faults.clear()
    }
  })
})
