/**
 * The admin API's origin guard (issue 27, H1 and L3), over HTTP against the
 * standalone sandbox: it guards exactly the requests the router gives the
 * admin API, whatever their letter case, encoding, trailing slash or
 * repeated slashes, and a page served under a name that is not one of the
 * sandbox's own (a DNS rebinding) does not pass for one of its pages.
 * Every refusal is a 403 Error body without a CORS grant, and nothing ran.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../fixtures/world.ts'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { startCli } from '../reliability/cli.ts'
import { expectErrorBody } from '../support/contract.ts'

const evil = 'https://evil.example'
let sandbox: RunningSandbox
let port: number

beforeAll(async () => {
  sandbox = await startSandbox({ store: createPlantStore(), host: '127.0.0.1', port: 0 })
  port = Number(new URL(sandbox.url).port)
})
afterAll(() => sandbox.close())

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/** One request with the headers exactly as given (`Host` included), which fetch would not send. */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const acmeWrite = { authorization: `Bearer ${fixtureTokens.acme.write}` }

/** A plant in Acme's tenant, gone after a reset: proof that a refused reset did not run. */
async function plantThatAResetRemoves(id: number): Promise<void> {
  const created = await fetch(`${sandbox.url}/plants`, {
    method: 'POST',
    headers: { ...acmeWrite, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: `Guard fern ${id}` }),
  })
  expect(created.status).toBe(200)
}

function expectRefused(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text}`).toBe(403)
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) if (typeof value === 'string') headers.set(name, value)
  expectErrorBody({ status: answer.status, headers, text: answer.text }, 403)
  expect(answer.headers['access-control-allow-origin'], what).toBeUndefined()
}

describe('the guard matches the admin API as the router does', () => {
  test('POST /__SANDBOX/tenants from another origin is refused, no tenant made (H1: was 201 with CORS *)', async () => {
    const before = sandbox.store.provisionedTenants().length
    for (const path of ['/__SANDBOX/tenants', '/__Sandbox/tenants', '/__sandbox/TENANTS', '/__sAnDbOx/tenants?x=1']) {
      expectRefused(await send(sandbox.url, 'POST', path, { origin: evil }), path)
    }
    expect(sandbox.store.provisionedTenants()).toHaveLength(before)
  })

  test('a preflight to /__Sandbox/faults, in any case, gets no CORS grant', async () => {
    for (const path of ['/__Sandbox/faults', '/__SANDBOX/reset', '/__sandbox/Faults', '/__SANDBOX/tenants/']) {
      const answer = await send(sandbox.url, 'OPTIONS', path, {
        origin: evil,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      })
      expectRefused(answer, `OPTIONS ${path}`)
      expect(answer.headers['access-control-allow-methods'], path).toBeUndefined()
    }
  })

  test('trailing slashes and repeated slashes inside the mount are guarded too: no reset, no rule', async () => {
    await plantThatAResetRemoves(910_001)
    for (const path of ['/__sandbox/reset/', '/__SANDBOX/reset/', '/__sandbox//reset', '/__sandbox/faults/']) {
      expectRefused(await send(sandbox.url, 'POST', path, { origin: evil, ...acmeWrite }, '{"status":503}'), path)
    }
    expect(sandbox.store.listPlants('acme').some(({ id }) => id === 910_001)).toBe(true)
    const faults = await send(sandbox.url, 'GET', '/__sandbox/faults', acmeWrite)
    expect(JSON.parse(faults.text).faults).toEqual([])
  })

  test('paths the router does not mount at /__sandbox (encoded, a leading //) never reach the admin API', async () => {
    const before = sandbox.store.provisionedTenants().length
    for (const path of [
      '/%5F%5Fsandbox/tenants',
      '/%5f%5fSANDBOX/tenants',
      '//__sandbox/tenants',
      '/./__sandbox/tenants',
      '/__sandbox%2Ftenants',
    ]) {
      const answer = await send(sandbox.url, 'POST', path, { origin: evil, 'content-type': 'application/json' }, '{}')
      // Not the admin API: the Plant Store's 404 for a path it does not have (no tenant, whatever CORS says).
      expect(answer.status, `${path}: ${answer.text}`).toBe(404)
      expect(JSON.parse(answer.text).message, path).toMatch(/^No route for/)
    }
    // Inside the mount an encoded name is still the admin API's request, and guarded.
    expectRefused(await send(sandbox.url, 'POST', '/__sandbox/%74enants', { origin: evil }), '/__sandbox/%74enants')
    expect(sandbox.store.provisionedTenants()).toHaveLength(before)
  })

  test('the sandbox’s own pages and tools without an Origin still reach it, in any letter case', async () => {
    const own = await send(sandbox.url, 'POST', '/__SANDBOX/tenants', {
      origin: sandbox.url,
      host: `127.0.0.1:${port}`,
    })
    expect(own.status).toBe(201)
    const tool = await send(sandbox.url, 'POST', '/__sandbox/tenants')
    expect(tool.status).toBe(201)
    const read = await send(sandbox.url, 'GET', '/__SANDBOX/health', { origin: evil })
    expect(read.status).toBe(200)
    expect(read.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('the same-origin rule trusts only the sandbox’s own host names (L3, DNS rebinding)', () => {
  const rebound = (name: string) => ({
    origin: `http://${name}:${port}`,
    host: `${name}:${port}`,
    'content-type': 'application/json',
    ...acmeWrite,
  })

  test('Origin and Host both rebind.attacker.example: POST /__sandbox/reset is refused and nothing is reset', async () => {
    await plantThatAResetRemoves(910_002)
    const answer = await send(sandbox.url, 'POST', '/__sandbox/reset', rebound('rebind.attacker.example'))
    expectRefused(answer, 'rebound reset')
    expect(JSON.parse(answer.text).message).toContain('--allowed-host')
    const preflight = await send(sandbox.url, 'OPTIONS', '/__sandbox/faults', {
      ...rebound('rebind.attacker.example'),
      'access-control-request-method': 'POST',
    })
    expectRefused(preflight, 'rebound preflight')
    expect(sandbox.store.listPlants('acme').some(({ id }) => id === 910_002)).toBe(true)
  })

  test('IP addresses, localhost and *.localhost are the sandbox’s own', async () => {
    for (const name of ['127.0.0.1', 'localhost', 'LocalHost', 'app.localhost', '[::1]']) {
      const answer = await send(sandbox.url, 'POST', '/__sandbox/faults', rebound(name), '{"status":503,"times":1}')
      expect(answer.status, `${name}: ${answer.text}`).toBe(201)
    }
    await send(sandbox.url, 'DELETE', '/__sandbox/faults', acmeWrite)
  })

  test('issue 35: an https Origin is not the page of a sandbox that serves http: its reset is refused', async () => {
    await plantThatAResetRemoves(910_003)
    const answer = await send(sandbox.url, 'POST', '/__sandbox/reset', {
      ...acmeWrite,
      origin: `https://127.0.0.1:${port}`,
      host: `127.0.0.1:${port}`,
    })
    expectRefused(answer, 'https origin')
    expect(sandbox.store.listPlants('acme').some(({ id }) => id === 910_003)).toBe(true)
  })

  test('issue 35: a rebound page reads no journal, with or without an Origin, GET and HEAD alike', async () => {
    const acmeRead = { authorization: `Bearer ${fixtureTokens.acme.read}` }
    const name = `rebind.attacker.example:${port}`
    // A page's same-origin GET carries no Origin: only its Host tells it apart.
    for (const [method, headers] of [
      ['GET', { ...acmeRead, host: name }],
      ['GET', { ...acmeRead, host: name, origin: `http://${name}` }],
      ['HEAD', { ...acmeRead, host: name }],
      ['GET', { ...acmeRead, host: `REBIND.attacker.example.:${port}` }],
    ] as const) {
      const answer = await send(sandbox.url, method, '/__sandbox/requests', headers)
      expect(answer.status, `${method} ${JSON.stringify(headers)}`).toBe(403)
      if (method === 'GET') expectRefused(answer, `${method} with Host ${headers.host}`)
    }
    // The same reads under the sandbox's own names, and tools without a Host of a name, are answered.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await send(sandbox.url, 'GET', '/__sandbox/requests', { ...acmeRead, host })).status, host).toBe(200)
    }
  })

  test('--allowed-host adds a name (repeatable); without it the name is refused', async () => {
    const cli = await startCli(['--allowed-host', 'sandbox.test', '--allowed-host', 'ci.internal,other.test'])
    try {
      const cliPort = new URL(cli.url).port
      const as = (name: string) => ({ origin: `http://${name}:${cliPort}`, host: `${name}:${cliPort}` })
      for (const name of ['sandbox.test', 'ci.internal', 'other.test']) {
        expect((await send(cli.url, 'POST', '/__sandbox/tenants', as(name))).status, name).toBe(201)
      }
      expectRefused(await send(cli.url, 'POST', '/__sandbox/tenants', as('rebind.attacker.example')), 'not listed')
    } finally {
      await cli.stop()
    }
  })
})
