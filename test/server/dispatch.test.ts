/**
 * Issue 19.3: one dispatcher for the Plant Store API and the sandbox control
 * API, routed from the contracts. Every path of both contracts answers a
 * method it lacks with 405 and the `Allow` the contracts give it; HEAD is
 * derived from GET on every GET path (the GET's status and headers, its
 * `Content-Length`, no body), and where a contract declares a HEAD it agrees
 * with its GET.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { contract } from '../../src/generated/contract.ts'
import { sandboxContract } from '../../src/generated/sandbox-contract.ts'
import { fixtureTokens } from '../../src/index.ts'
import { createApp } from '../../src/server/index.ts'
import { allowOf, wrongMethodCases } from '../support/allow.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { bearer, type Listening, listen } from './support.ts'

let http: Listening
let faultId: string

beforeAll(async () => {
  http = await listen(createApp())
  // A rule for a path no test here asks, so that GET /__sandbox/faults/{id} has one to answer.
  const added = await fetch(`${http.base}/__sandbox/faults`, {
    method: 'POST',
    headers: { ...bearer(fixtureTokens.acme.write), 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/plants/987654321', status: 503, times: 1 }),
  })
  faultId = ((await added.json()) as { id: string }).id
})
afterAll(() => http.close())

const send = async (method: string, path: string, headers: Record<string, string> = {}) =>
  read(await fetch(`${http.base}${path}`, { method, headers }))

describe('a method a path lacks', () => {
  test.each(wrongMethodCases('x'))('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const answer = await send(method, path, bearer(fixtureTokens.acme.write))
    expectErrorBody(answer, 405)
    expect(answer.headers.get('allow')).toBe(allow)
  })
})

/** Every GET path of both contracts but the inspector's event stream (a stream never ends to compare). */
const getPaths = [...Object.values(contract.operations), ...Object.values(sandboxContract.operations)]
  .filter(({ method, path }) => method === 'GET' && path !== '/__sandbox/events')
  .map(({ path }) => path)

describe('HEAD, derived from GET', () => {
  test.each(getPaths)('answers HEAD %s with the status and headers of its GET, and no body', async (template) => {
    // A fault rule's id below /__sandbox, a plant of acme's (the fixture world's first) elsewhere.
    const path = template.replace('{id}', template.startsWith('/__sandbox/') ? faultId : '1')
    const headers = bearer(fixtureTokens.acme.read)
    const get = await send('GET', path, headers)
    const head = await send('HEAD', path, headers)
    expect(get.status).toBe(200)
    expect(head.status).toBe(get.status)
    expect(head.text).toBe('')
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)))
  })

  test('answers HEAD of the inspector stream with its headers after signing in, and no body', async () => {
    const head = await send('HEAD', '/__sandbox/events', bearer(fixtureTokens.acme.read))
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(head.text).toBe('')
    expect((await send('HEAD', '/__sandbox/events')).status).toBe(401)
  })

  test('is refused as its GET is: 401 without a token on a path that needs one', async () => {
    expect((await send('HEAD', '/__sandbox/requests')).status).toBe(401)
    expect((await send('HEAD', '/plants')).status).toBe(401)
  })

  test.each([
    ['contracts/openapi.yaml', Object.values(contract.operations)],
    ['contracts/sandbox.openapi.yaml', Object.values(sandboxContract.operations)],
  ])('agrees with every HEAD that %s declares: same path as a GET, same scopes', (_file, operations) => {
    for (const head of operations.filter(({ method }) => method === 'HEAD')) {
      const get = operations.find(({ method, path }) => method === 'GET' && path === head.path)
      expect(get, `HEAD ${head.path} has a GET`).toBeDefined()
      expect(head.scopes).toEqual(get?.scopes)
      expect(allowOf(head.path).split(', ')).toContain('HEAD')
    }
  })
})
