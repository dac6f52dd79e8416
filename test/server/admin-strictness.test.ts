/**
 * The admin API refuses what it does not know, by name: unknown or misspelt
 * fields of a tenant request and query parameters of every admin route are a
 * 400 naming them (cut to a short length), a tenant's own quota is honoured,
 * and a provisioning body past 64 KiB is a 413.
 */
import { request as httpRequest } from 'node:http'
import { describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const sandbox = useSandbox({ maxTenants: 1000 })

async function provision(body: unknown) {
  return read(
    await fetch(`${sandbox.base}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )
}

function messageOf(answer: { text: string }): string {
  return (JSON.parse(answer.text) as { message: string }).message
}

describe('a tenant request', () => {
  test.each([
    ['a misspelt seed', { plants: 3, sede: 7 }, 'Unknown field "sede" (did you mean "seed"?)'],
    ['a misspelt time-to-live', { ttlSecond: 60 }, 'Unknown field "ttlSecond" (did you mean "ttlSeconds"?)'],
    ['a field in another case', { Plants: 3 }, 'Unknown field "Plants" (did you mean "plants"?)'],
    ['a field far from any', { colour: 'green' }, 'Unknown field "colour"; use plants, seed, quota, ttlSeconds.'],
    ['two unknown fields', { sede: 1, tll: 2 }, 'Unknown fields "sede" (did you mean "seed"?), "tll"'],
    [
      'a misspelt field of an exact plant',
      { plants: [{ id: 1, name: 'Fern', tagg: 'fern' }] },
      'Unknown field "plants.0.tagg" (did you mean "plants.0.tag"?)',
    ],
  ])('refuses %s with 400 naming it', async (_what, body, message) => {
    const answer = await provision(body)
    expectErrorBody(answer, 400)
    expect(messageOf(answer)).toContain(message)
  })

  test('echoes an unknown field of any length cut to 40 characters', async () => {
    const answer = await provision({ [`${'x'.repeat(5000)}`]: 1 })
    expectErrorBody(answer, 400)
    expect(messageOf(answer)).toContain(`Unknown field "${'x'.repeat(40)}…"`)
    expect(messageOf(answer).length).toBeLessThan(120)
  })

  test('honours a quota of its own: a create past it is 507', async () => {
    const answer = await provision({ plants: 2, seed: 1, quota: 2 })
    expect(answer.status).toBe(201)
    const { tokens, quota } = JSON.parse(answer.text) as { tokens: { write: string }; quota: number }
    expect(quota).toBe(2)
    const created = await read(
      await fetch(`${sandbox.base}/plants`, {
        method: 'POST',
        headers: { ...bearer(tokens.write), 'content-type': 'application/json' },
        body: '{"id":99,"name":"One too many"}',
      }),
    )
    expectErrorBody(created, 507)
    expect(messageOf(created)).toContain('quota of 2 plants')
  })

  test('takes a quota through the sandbox client too', async () => {
    const tenant = await sandbox.client.provision({ plants: 1, quota: 4 })
    expect(tenant.provisioned).toMatchObject({ plants: 1, quota: 4 })
  })

  test('starts a tenant with a small quota with no more plants than it may hold', async () => {
    const answer = await provision({ quota: 3 })
    expect(answer.status).toBe(201)
    expect(JSON.parse(answer.text)).toMatchObject({ plants: 3, quota: 3 })
  })

  test.each([
    ['a quota of 0', { quota: 0 }, 'quota must be an integer from 1 to 10000'],
    ['a quota past the sandbox’s', { quota: 10_001 }, 'quota must be an integer from 1 to 10000'],
    ['a quota that is a string', { quota: '5' }, 'quota must be an integer from 1 to 10000'],
    ['more plants than its quota', { plants: 3, quota: 2 }, 'plants must be an integer from 0 to 2 (the quota)'],
    [
      'more exact plants than its quota',
      {
        plants: [
          { id: 1, name: 'A' },
          { id: 2, name: 'B' },
        ],
        quota: 1,
      },
      'plants must not hold more than the quota of 1 plants',
    ],
  ])('refuses %s with 400 naming the field', async (_what, body, message) => {
    const answer = await provision(body)
    expectErrorBody(answer, 400)
    expect(messageOf(answer)).toContain(message)
  })
})

describe('the admin API’s query parameters', () => {
  const token = fixtureTokens.acme.write
  test.each([
    ['GET', '/__sandbox/plants?limt=2', 'Unknown query parameter "limt" (did you mean "limit"?)'],
    ['GET', '/__sandbox/requests?methd=GET', 'Unknown query parameter "methd" (did you mean "method"?)'],
    ['DELETE', '/__sandbox/requests?method=GET', 'Unknown query parameter "method"; none is accepted here.'],
    ['GET', '/__sandbox/faults?all=1', 'Unknown query parameter "all"'],
    ['POST', '/__sandbox/reset?tenant=acme', 'Unknown query parameter "tenant"'],
    ['GET', '/__sandbox/health?verbose', 'Unknown query parameter "verbose"'],
    ['GET', `/__sandbox/plants?${'q'.repeat(3000)}=1`, `Unknown query parameter "${'q'.repeat(40)}…"`],
  ])('%s %s is refused with 400 naming the parameter', async (method, path, message) => {
    const answer = await read(await fetch(`${sandbox.base}${path}`, { method, headers: bearer(token) }))
    expectErrorBody(answer, 400)
    expect(messageOf(answer)).toContain(message)
  })

  test('the known ones still work', async () => {
    const answer = await read(await fetch(`${sandbox.base}/__sandbox/plants?limit=1`, { headers: bearer(token) }))
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text).plants).toHaveLength(1)
  })
})

test('a path without parameters answers the same with one trailing slash, as the contract says', async () => {
  const statusOf = (path: string) =>
    new Promise<number>((resolve, reject) => {
      // node:http: the test setup checks every fetch against the contract's paths as written.
      httpRequest(`${sandbox.base}${path}`, { headers: bearer(fixtureTokens.acme.read) }, (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      })
        .on('error', reject)
        .end()
    })
  for (const path of ['/__sandbox/faults', '/__sandbox/requests', '/__sandbox/plants', '/__sandbox/health']) {
    expect(await statusOf(`${path}/`), path).toBe(200)
  }
  // The stream answers its headers at once; only its status is read.
  expect(await statusOf('/__sandbox/events/')).toBe(200)
})

test('an unknown admin path is a 404 naming it with its /__sandbox prefix', async () => {
  const answer = await read(await fetch(`${sandbox.base}/__sandbox/tenant`, { method: 'POST' }))
  expectErrorBody(answer, 404)
  expect(messageOf(answer)).toBe('No sandbox route for POST /__sandbox/tenant.')
})

describe('the provisioning body budget', () => {
  test('a body past 64 KiB is 413 with an Error body', async () => {
    const answer = await provision({ plants: [{ id: 1, name: 'x'.repeat(70_000) }] })
    expectErrorBody(answer, 413)
    expect(messageOf(answer)).toContain('65536 bytes')
  })

  test('a body streamed without end is answered 413 after 64 KiB, without reading the rest', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const limit = 256 // chunks: 16 MiB at most
    const url = new URL(`${sandbox.base}/__sandbox/tenants`)
    const { status, body, sent } = await new Promise<{ status: number; body: string; sent: number }>(
      (resolve, reject) => {
        let sent = 0
        let answered = false
        const request = httpRequest(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        })
        request.on('response', (response) => {
          answered = true
          let text = ''
          response.on('data', (data: Buffer) => {
            text += data.toString('utf8')
          })
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, sent }))
        })
        request.on('error', (error) => (answered ? undefined : reject(error)))
        const pump = () => {
          while (!answered && sent < limit) {
            sent++
            if (!request.write(chunk)) return void request.once('drain', pump)
          }
          if (!answered) request.end()
        }
        request.write('{"plants": 1, "seed": 1, "pad": "')
        pump()
      },
    )
    expect(status).toBe(413)
    expect(JSON.parse(body)).toMatchObject({ error: 413 })
    // The server stopped reading: the client could not push the whole 16 MiB before the answer came.
    expect(sent).toBeLessThan(limit)
  })
})
