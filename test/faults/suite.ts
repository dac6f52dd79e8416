/**
 * The fault-rule cases, written once and run through msw (`faults` of
 * `setupPlantStoreServer`) and over HTTP (`/__sandbox/faults` through
 * `SandboxClient`): the same rules must have the same effect on both.
 */
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { allowOf, plantStorePaths, undeclarableMethods } from '../support/allow.ts'
import { type Answer, expectErrorBody, expectToMatchContract, read } from '../support/contract.ts'

/** The methods the Plant Store contract has on any of its paths. */
const contractMethods = [...new Set(plantStorePaths.flatMap((path) => allowOf(path).split(', ')))]

/** A method the contract has, but not at one of its paths (one with a parameter when it can), as a fault rule would name it. */
const lacking = (() => {
  const paths = [...plantStorePaths].sort((a, b) => Number(b.includes('{')) - Number(a.includes('{')))
  for (const path of paths) {
    const method = contractMethods.find((candidate) => !allowOf(path).split(', ').includes(candidate))
    if (method !== undefined) return { method, path }
  }
  throw new Error('Every path of the contract has every method: no rule can name one it lacks.')
})()

/** An answer as the client saw it, or the network error a transport fault made. */
export type Seen = Answer | { networkError: string }

/** What a rule-adding call answered: the rule, or the Error (status and message). */
export type Added = { rule: { id: string } & Record<string, unknown> } | { error: { status: number; message: string } }

/** One way to reach a Plant Store with fault rules: msw in process, or the sandbox over HTTP. */
export interface FaultDriver {
  /** Adds a rule for a fixture tenant, as its write token would. */
  add(tenant: 'acme' | 'globex', rule: unknown): Promise<Added>
  list(tenant: 'acme' | 'globex'): Promise<Array<Record<string, unknown>>>
  remove(tenant: 'acme' | 'globex', id: string): Promise<boolean>
  clear(tenant: 'acme' | 'globex'): Promise<void>
  /** Sends an API request with a token; `json` is sent as the body. */
  send(method: string, path: string, token: string, json?: unknown): Promise<Seen>
  /** The ids of the tenant's stored plants. */
  plantIds(tenant: 'acme' | 'globex'): number[]
  /** What the tenant's answers were reported as (journal or outcome events): method, path, status. */
  reported(tenant: 'acme' | 'globex'): Promise<Array<[string, string, number]>>
  /** Moves the clock rules and tokens expire against. */
  advance(ms: number): void
  /** Back to the fixture world: data, rules, reports. */
  reset(): Promise<void>
}

const { acme, globex } = fixtureTokens

/**
 * Sends an API request with a bearer token (and `json` as the body) to a base
 * address; a failed transport is answered as a network error.
 */
export async function send(base: string, method: string, path: string, token: string, json?: unknown): Promise<Seen> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (json !== undefined) headers['content-type'] = 'application/json'
  try {
    const body = json === undefined ? {} : { body: JSON.stringify(json) }
    return await read(await fetch(`${base}${path}`, { method, headers, ...body }))
  } catch (error) {
    return { networkError: String(error) }
  }
}

function answer(seen: Seen): Answer {
  if ('networkError' in seen) throw new Error(`expected an answer, got a network error: ${seen.networkError}`)
  return seen
}

function ruleOf(added: Added) {
  if ('error' in added) throw new Error(`the rule was refused: ${added.error.status} ${added.error.message}`)
  return added.rule
}

/** Registers the shared cases for one driver. */
export function faultRuleCases(name: string, driver: () => FaultDriver): void {
  let d: FaultDriver
  beforeAll(() => {
    d = driver()
  })
  afterEach(() => d.reset())

  describe(`fault rules through ${name}`, () => {
    test('answer a status with the contract’s Error body for the next `times` matching requests, then the real answer', async () => {
      const rule = ruleOf(await d.add('acme', { method: 'GET', path: '/plants', status: 503, times: 2 }))

      for (let i = 0; i < 2; i++) {
        const failed = answer(await d.send('GET', '/plants', acme.read))
        expectErrorBody(failed, 503)
        expect(JSON.parse(failed.text).message).toContain(rule.id)
      }
      const real = answer(await d.send('GET', '/plants', acme.read))
      expectToMatchContract('GET', '/plants', real)
      expect(real.status).toBe(200)
      expect(await d.list('acme')).toMatchObject([{ id: rule.id, fired: 2, remaining: 0, active: false }])
    })

    test('answer 401 and 403 with their WWW-Authenticate challenge, and a custom message', async () => {
      ruleOf(await d.add('acme', { method: 'GET', status: 401, times: 1, message: 'Session expired (fault).' }))
      ruleOf(await d.add('acme', { method: 'GET', status: 403, times: 1 }))

      const unauthorized = answer(await d.send('GET', '/plants', acme.read))
      expectErrorBody(unauthorized, 401)
      expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="plant-store"')
      expect(JSON.parse(unauthorized.text).message).toBe('Session expired (fault).')
      const forbidden = answer(await d.send('GET', '/plants', acme.read))
      expectErrorBody(forbidden, 403)
      expect(forbidden.headers.get('www-authenticate')).toBe('Bearer realm="plant-store", error="insufficient_scope"')
    })

    test('match a path template, a literal path and a method, and nothing else', async () => {
      ruleOf(await d.add('acme', { method: 'DELETE', path: '/plants/{id}', status: 500 }))
      ruleOf(await d.add('acme', { path: '/plants/2', status: 502 }))

      expectErrorBody(answer(await d.send('DELETE', '/plants/1', acme.write)), 500)
      expectErrorBody(answer(await d.send('DELETE', '/plants/2', acme.write)), 500)
      expectErrorBody(answer(await d.send('GET', '/plants/2', acme.write)), 502)
      expect(answer(await d.send('GET', '/plants', acme.read)).status).toBe(200)
      expect(answer(await d.send('DELETE', '/plants/3', globex.write)).status).toBe(204)
    })

    test('fire only for requests of their own tenant', async () => {
      ruleOf(await d.add('globex', { status: 500 }))

      expect(answer(await d.send('GET', '/plants', acme.read)).status).toBe(200)
      expectErrorBody(answer(await d.send('GET', '/plants', globex.read)), 500)
      expect(await d.list('acme')).toEqual([])
      expect(await d.list('globex')).toMatchObject([{ fired: 1 }])
    })

    test('fire in creation order: the first one in force that matches answers', async () => {
      const first = ruleOf(await d.add('acme', { path: '/plants', status: 500, times: 1 }))
      const second = ruleOf(await d.add('acme', { path: '/plants', status: 503, times: 1 }))

      expectErrorBody(answer(await d.send('GET', '/plants', acme.read)), 500)
      expectErrorBody(answer(await d.send('GET', '/plants', acme.read)), 503)
      expect(answer(await d.send('GET', '/plants', acme.read)).status).toBe(200)
      expect((await d.list('acme')).map(({ id, fired }) => [id, fired])).toEqual([
        [first.id, 1],
        [second.id, 1],
      ])
    })

    test('never change stored data: a refused create stores nothing and a failed delete deletes nothing', async () => {
      const before = d.plantIds('acme')
      ruleOf(await d.add('acme', { method: 'POST', status: 503 }))
      ruleOf(await d.add('acme', { method: 'DELETE', fault: 'reset' }))

      expectErrorBody(answer(await d.send('POST', '/plants', acme.write, { id: 900, name: 'Never Stored' })), 503)
      expect(await d.send('DELETE', '/plants/1', acme.write)).toHaveProperty('networkError')
      expect(d.plantIds('acme')).toEqual(before)
    })

    test('delay the real answer, which then runs as usual', async () => {
      ruleOf(await d.add('acme', { method: 'POST', delayMs: 150, times: 1 }))

      const started = performance.now()
      const created = answer(await d.send('POST', '/plants', acme.write, { id: 901, name: 'Late Fern' }))
      expect(performance.now() - started).toBeGreaterThanOrEqual(140)
      expect(created.status).toBe(200)
      expect(d.plantIds('acme')).toContain(901)
    })

    test('stop firing once their window has passed', async () => {
      ruleOf(await d.add('acme', { status: 500, windowMs: 60_000 }))

      expectErrorBody(answer(await d.send('GET', '/plants', acme.read)), 500)
      d.advance(60_001)
      expect(answer(await d.send('GET', '/plants', acme.read)).status).toBe(200)
      expect(await d.list('acme')).toMatchObject([{ fired: 1, active: false, expiresAt: expect.any(String) }])
    })

    test('fail the transport: reset and empty are network errors', async () => {
      ruleOf(await d.add('acme', { fault: 'reset', times: 1 }))
      ruleOf(await d.add('acme', { fault: 'empty', times: 1 }))

      expect(await d.send('GET', '/plants', acme.read)).toHaveProperty('networkError')
      expect(await d.send('GET', '/plants', acme.read)).toHaveProperty('networkError')
      expect(answer(await d.send('GET', '/plants', acme.read)).status).toBe(200)
    })

    test('answer a malformed body (a 200 whose JSON is cut) and a truncated one (the body never completes)', async () => {
      ruleOf(await d.add('acme', { fault: 'malformed', times: 1 }))
      ruleOf(await d.add('acme', { fault: 'truncated', times: 1 }))

      const malformed = answer(await d.send('GET', '/plants', acme.read))
      expect(malformed.status).toBe(200)
      expect(() => JSON.parse(malformed.text)).toThrow(SyntaxError)
      expect(await d.send('GET', '/plants', acme.read)).toHaveProperty('networkError')
    })

    test('are reported like any answer, under the operation they stood in for', async () => {
      ruleOf(await d.add('acme', { method: 'DELETE', status: 503, times: 1 }))
      ruleOf(await d.add('acme', { method: 'GET', fault: 'empty', times: 1 }))

      await d.send('DELETE', '/plants/1', acme.write)
      await d.send('GET', '/plants', acme.read)
      await d.send('GET', '/plants', acme.read)

      expect(await d.reported('acme')).toEqual([
        ['DELETE', '/plants/1', 503],
        ['GET', '/plants', 0],
        ['GET', '/plants', 200],
      ])
    })

    test('are listed with their counters, and deleted one by one or all at once', async () => {
      const a = ruleOf(await d.add('acme', { method: 'post', path: '/plants', status: 503, times: 3 }))
      const b = ruleOf(await d.add('acme', { path: '/plants/{id}', delayMs: 5 }))
      expect(a).toMatchObject({ method: 'POST', path: '/plants', status: 503, times: 3, remaining: 3, fired: 0 })
      expect(a.createdAt).toEqual(expect.any(String))

      expect(await d.remove('acme', a.id)).toBe(true)
      expect(await d.remove('acme', a.id)).toBe(false)
      expect(await d.remove('globex', b.id)).toBe(false)
      expect((await d.list('acme')).map(({ id }) => id)).toEqual([b.id])
      await d.clear('acme')
      expect(await d.list('acme')).toEqual([])
    })

    test('refuse msw’s and Express’s `:id` with a hint naming the contract’s template', async () => {
      const added = await d.add('acme', { method: 'DELETE', path: '/plants/:id', status: 500 })
      expect(added).toEqual({
        error: { status: 400, message: expect.stringContaining('(did you mean "/plants/{id}"?)') },
      })
    })

    test('match HEAD with a GET rule, answering its status without a body', async () => {
      ruleOf(await d.add('acme', { method: 'GET', path: '/plants', status: 503, times: 1 }))

      const head = answer(await d.send('HEAD', '/plants', acme.read))
      expect(head.status).toBe(503)
      expect(head.text).toBe('')
      expect(head.headers.get('retry-after')).toBe('1')
      expect(answer(await d.send('HEAD', '/plants', acme.read)).status).toBe(200)
    })

    test.each([
      ['no action', { path: '/plants' }, 'status, fault or delayMs'],
      ['a status below 400', { status: 200 }, 'status must be an integer from 400 to 599'],
      ['a fractional status', { status: 500.5 }, 'status must be an integer from 400 to 599'],
      ['a status and a fault', { status: 500, fault: 'reset' }, 'fault cannot be given together with status'],
      ['an unknown fault', { fault: 'explode' }, 'fault must be one of reset, empty, truncated, malformed'],
      ['an unknown method', { method: 'BREW', status: 500 }, 'method must be one of'],
      ['a path template the contract lacks', { path: '/trees/{id}', status: 500 }, 'path must be a path such as'],
      ['a path with a query', { path: '/plants?limit=1', status: 500 }, 'path must be a path such as'],
      ['zero times', { status: 500, times: 0 }, 'times must be an integer from 1 to 10000'],
      ['a window of text', { status: 500, windowMs: '10s' }, 'windowMs must be an integer from 1 to 86400000'],
      ['a delay over 30 s', { delayMs: 30_001 }, 'delayMs must be an integer from 1 to 30000'],
      ['a message without a status', { fault: 'reset', message: 'x' }, 'message is only for a status answer'],
      [
        'an unknown field',
        { status: 500, timez: 1 },
        'Unknown field "timez" (did you mean "times"?); use method, path,',
      ],
      [
        'a very long unknown field',
        { status: 500, ['x'.repeat(10_000)]: 1 },
        `Unknown field "${'x'.repeat(40)}…"; use method,`,
      ],
      ['msw’s path syntax', { path: '/plants/:id', status: 500 }, 'path must be a path such as'],
      ['a path the contract lacks', { path: '/plant', status: 500 }, '(did you mean "/plants"?)'],
      ['a literal path the contract does not route', { path: '/nope/1', status: 500 }, 'path must be a path such as'],
      [
        'a method no contract may declare',
        { method: undeclarableMethods[1], status: 500 },
        `method must be one of ${contractMethods.join(', ')}`,
      ],
      [
        'a method the contract lacks at the path',
        { method: lacking.method, path: lacking.path, status: 500 },
        `method must be one the contract has at ${lacking.path}: ${allowOf(lacking.path)}`,
      ],
    ])('refuse a rule with %s with 400 naming the field', async (_what, rule, message) => {
      const added = await d.add('acme', rule)
      expect(added).toEqual({ error: { status: 400, message: expect.stringContaining(message) } })
      expect(await d.list('acme')).toEqual([])
    })

    test('hold at most 50 rules in force per tenant: a 51st is refused with 409 until one is spent', async () => {
      const rules = []
      for (let i = 0; i < 50; i++)
        rules.push(ruleOf(await d.add('acme', { path: `/plants/${i + 100}`, status: 500, times: 1 })))

      expect(await d.add('acme', { status: 500 })).toEqual({ error: { status: 409, message: expect.any(String) } })
      expect(await d.add('globex', { status: 500 })).toHaveProperty('rule')
      await d.send('GET', '/plants/100', acme.read) // spends the first rule
      const added = ruleOf(await d.add('acme', { status: 500 }))
      const listed = (await d.list('acme')).map(({ id }) => id)
      expect(listed).toHaveLength(50)
      expect(listed).not.toContain(rules[0]?.id)
      expect(listed.at(-1)).toBe(added.id)
    })
  })
}
