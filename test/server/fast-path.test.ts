/**
 * The standalone server answers the API's paths on a fast path in front of
 * Express (`createSandbox().listener`, what `startSandbox` and the CLI serve).
 * Nothing may differ from the Express path (`createApp`, what
 * `plantStoreRouter` users get): the same status, headers and body for every
 * kind of request, the same request-log line, and a cached list is never
 * served after a write.
 */
import { PassThrough } from 'node:stream'
import { pino } from 'pino'
import { fixtureTokens } from 'plant-store-mock'
import { createApp, type RunningSandbox, startSandbox } from 'plant-store-mock/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { undeclarableMethods } from '../support/allow.ts'
import { bearer, type Listening, listen } from './support.ts'

const { acme } = fixtureTokens
/** Headers every server sets for itself, and the request id, which differs per request by design. */
const perConnection = new Set(['date', 'connection', 'keep-alive', 'x-request-id'])

interface Logged {
  lines: Array<Record<string, unknown>>
}

function logger(into: Logged) {
  const stream = new PassThrough()
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) into.lines.push(JSON.parse(line) as Record<string, unknown>)
  })
  return pino({ level: 'info' }, stream)
}

for (const corsOrigins of ['*', ['http://app.example']] as const) {
  describe(`with CORS origins ${JSON.stringify(corsOrigins)}`, () => {
    const fastLog: Logged = { lines: [] }
    const expressLog: Logged = { lines: [] }
    let fast: RunningSandbox
    let viaExpress: Listening

    beforeAll(async () => {
      fast = await startSandbox({ port: 0, corsOrigins: [...corsOrigins], requestLog: logger(fastLog) })
      viaExpress = await listen(createApp({ corsOrigins: [...corsOrigins], requestLog: logger(expressLog) }))
    })
    afterAll(async () => {
      await fast.close()
      await viaExpress.close()
    })

    const requests: Array<[string, string, RequestInit]> = [
      ['lists', '/plants?limit=2', { headers: { ...bearer(acme.read), origin: 'http://app.example' } }],
      ['lists with a trailing slash', '/plants/', { headers: bearer(acme.read) }],
      ['answers HEAD', '/plants', { method: 'HEAD', headers: bearer(acme.read) }],
      ['refuses no token', '/plants', { headers: { origin: 'http://elsewhere.example' } }],
      ['refuses a bad limit', '/plants?limit=x', { headers: bearer(acme.read) }],
      [
        'creates',
        '/plants',
        {
          method: 'POST',
          headers: { ...bearer(acme.write), 'content-type': 'application/json' },
          body: '{"id":777,"name":"Fern"}',
        },
      ],
      ['deletes', '/plants/777', { method: 'DELETE', headers: bearer(acme.write) }],
      ['answers 404 for a missing plant', '/plants/777', { method: 'DELETE', headers: bearer(acme.write) }],
      ['answers 405 with Allow', '/plants', { method: undeclarableMethods[0], headers: bearer(acme.write) }],
      ['answers a simulated status', '/plants', { headers: { ...bearer(acme.read), prefer: 'code=403' } }],
      ['refuses an undeclared simulated status', '/plants', { headers: { ...bearer(acme.read), prefer: 'code=409' } }],
      ['echoes a request id', '/plants', { headers: { ...bearer(acme.read), 'x-request-id': 'job-42.step:1' } }],
    ]

    test.each(requests)('%s exactly as the Express path does', async (_name, path, init) => {
      const [a, b] = await Promise.all([fetch(`${fast.url}${path}`, init), fetch(`${viaExpress.base}${path}`, init)])
      expect(a.status).toBe(b.status)
      expect(await a.text()).toBe(await b.text())
      const headers = (response: Response) => [...response.headers].filter(([name]) => !perConnection.has(name))
      expect(headers(a)).toEqual(headers(b))
      const requestId = (init.headers as Record<string, string>)['x-request-id']
      if (requestId) expect(a.headers.get('x-request-id')).toBe(requestId)
      else expect(a.headers.get('x-request-id')).toMatch(/^[\w-]+$/)
    })

    test('writes the same request-log line, but for the request id and the time taken', async () => {
      await new Promise((resolve) => setTimeout(resolve, 50)) // one batch of log lines
      const comparable = ({ req, res, msg, level }: Record<string, unknown>) => ({
        req: { ...(req as object), id: undefined },
        res,
        msg,
        level,
      })
      expect(fastLog.lines.length).toBe(requests.length)
      expect(fastLog.lines.map(comparable)).toEqual(expressLog.lines.map(comparable))
    })

    test('journals each request under the id the request log gave it, on both paths', async () => {
      for (const base of [fast.url, viaExpress.base]) {
        const answer = await fetch(`${base}/plants?limit=1`, { headers: bearer(acme.read) })
        const id = answer.headers.get('x-request-id')
        expect(id).toMatch(/^[\w-]+$/)
        const journal = (await (
          await fetch(`${base}/__sandbox/requests?path=/plants`, { headers: bearer(acme.read) })
        ).json()) as { requests: Array<{ id: string }> }
        expect(journal.requests.map((entry) => entry.id)).toContain(id)
      }
    })
  })
}

describe('the encoded list kept up to date by every write', () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
  })
  afterAll(() => sandbox.close())

  const list = async (limit = '') =>
    (await (await fetch(`${sandbox.url}/plants${limit}`, { headers: bearer(acme.read) })).json()) as Array<{
      name: string
    }>
  const write = (method: string, path: string, body?: string) =>
    fetch(`${sandbox.url}${path}`, {
      method,
      headers: { ...bearer(acme.write), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    })

  test('is never served after a create or a delete, even when lists and writes race', async () => {
    for (let round = 0; round < 20; round++) {
      const id = 5000 + round
      const before = await list()
      // A list in flight while the create is under way may see it or not; the list after it must.
      const [, created] = await Promise.all([list(), write('POST', '/plants', `{"id":${id},"name":"Racer ${id}"}`)])
      expect(created.status).toBe(200)
      expect((await list()).map(({ name }) => name)).toEqual([...before.map(({ name }) => name), `Racer ${id}`])
      expect((await list('?limit=1000')).length).toBe(before.length + 1)
      const [, deleted] = await Promise.all([list(), write('DELETE', `/plants/${id}`)])
      expect(deleted.status).toBe(204)
      expect(await list()).toEqual(before)
    }
  })

  test('is kept per tenant: one tenant writing never changes what another lists', async () => {
    const globex = async () =>
      (await fetch(`${sandbox.url}/plants`, { headers: bearer(fixtureTokens.globex.read) })).text()
    const before = await globex()
    await write('POST', '/plants', '{"id":6001,"name":"Acme only"}')
    expect(await globex()).toBe(before)
  })
})
