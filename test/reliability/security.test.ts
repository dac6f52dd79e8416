/**
 * Security: no internal detail in answers, no `X-Powered-By`, browser
 * protections on the docs pages, the admin API locked by its key, and
 * tokens and the admin key never written to logs or the journal.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildWorld } from '../../fixtures/world.ts'
import { renderError } from '../../src/core/errors.ts'
import { createPlantStore } from '../../src/index.ts'
import { createApp, type RunningSandbox, startSandbox } from '../../src/server/index.ts'
import { listen } from '../server/support.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { startCli } from './cli.ts'
import { internalDetail } from './support.ts'

const adminKey = 'k3y-that-must-never-be-logged-0123456789'
let logged = ''
const logs = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged += chunk.toString('utf8')
    done()
  },
})
let sandbox: RunningSandbox

beforeAll(async () => {
  sandbox = await startSandbox({
    store: createPlantStore(),
    host: '127.0.0.1',
    port: 0,
    adminKey,
    requestLog: pino({ level: 'trace' }, logs),
    eventLog: pino({ level: 'trace' }, logs),
  })
})
afterAll(() => sandbox.close())

async function provision(): Promise<{ tenant: string; tokens: { read: string; write: string } }> {
  const response = await fetch(`${sandbox.url}/__sandbox/tenants`, {
    method: 'POST',
    headers: { 'x-admin-key': adminKey },
  })
  expect(response.status).toBe(201)
  return (await response.json()) as { tenant: string; tokens: { read: string; write: string } }
}

describe('answers', () => {
  test('no answer carries X-Powered-By, on the API, the admin API, the docs or an unknown path', async () => {
    for (const path of ['/plants', '/plants/1', '/__sandbox/health', '/docs/', '/', '/openapi.json', '/nowhere']) {
      const response = await fetch(`${sandbox.url}${path}`)
      await response.arrayBuffer()
      expect(response.headers.get('x-powered-by'), path).toBeNull()
    }
  })

  test('the docs pages carry a content security policy and the other browser protections', async () => {
    for (const path of ['/docs/', '/']) {
      const response = await fetch(`${sandbox.url}${path}`)
      expect(response.status).toBe(200)
      await response.text()
      const policy = response.headers.get('content-security-policy') ?? ''
      expect(policy).toContain("default-src 'self'")
      expect(policy).toContain("script-src 'self'")
      expect(policy).toContain("frame-ancestors 'none'")
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    }
  })

  test('an unexpected failure is a 500 with a generic message, never its own message or stack', () => {
    const failure = new TypeError('Cannot read properties of undefined (reading "x") at /work/main/src/core/store.ts:1')
    const response = renderError(failure)
    expect(response.status).toBe(500)
    expect(response.body).toBe('{"error":500,"message":"The Plant Store failed to answer this request."}')
    expect(response.body).not.toMatch(internalDetail)
  })
})

describe('the admin API', () => {
  test('is locked when a key is set: no key, a wrong key, a prefix or a longer key are 401 with an Error body', async () => {
    for (const key of [undefined, '', 'wrong', adminKey.slice(0, -1), `${adminKey}x`, adminKey.toUpperCase()]) {
      const answer = await read(
        await fetch(`${sandbox.url}/__sandbox/tenants`, {
          method: 'POST',
          headers: key === undefined ? {} : { 'x-admin-key': key },
        }),
      )
      expectErrorBody(answer, 401)
    }
    await provision()
  })
})

describe('with an admin key, the fixture world (whose tokens the README prints)', () => {
  const write = { authorization: 'Bearer psm_acme_write', 'content-type': 'application/json' }
  const attempt = async (method: string, path: string, body?: string) =>
    read(await fetch(`${sandbox.url}${path}`, { method, headers: write, ...(body ? { body } : {}) }))

  test.each([
    ['POST', '/plants', '{"id":900,"name":"Graffiti"}'],
    ['DELETE', '/plants/1', undefined],
    ['POST', '/__sandbox/faults', '{"status":503}'],
    ['DELETE', '/__sandbox/faults', undefined],
    ['POST', '/__sandbox/reset', undefined],
    ['DELETE', '/__sandbox/requests', undefined],
  ])('refuses %s %s with its write token: 403 saying the world is read-only', async (method, path, body) => {
    const answer = await attempt(method, path, body)
    expectErrorBody(answer, 403)
    expect(JSON.parse(answer.text).message).toContain('read-only on a sandbox with an admin key')
  })

  test('changes nothing and still answers reads', async () => {
    await attempt('POST', '/plants', '{"id":901,"name":"Graffiti"}')
    const list = await read(await fetch(`${sandbox.url}/plants`, { headers: write }))
    expect(list.status).toBe(200)
    expect(list.text).not.toContain('Graffiti')
    expect((await read(await fetch(`${sandbox.url}/__sandbox/faults`, { headers: write }))).status).toBe(200)
  })

  test('leaves a tenant provisioned with the key free to write', async () => {
    const { tokens } = await provision()
    const created = await read(
      await fetch(`${sandbox.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.write}`, 'content-type': 'application/json' },
        body: '{"id":902,"name":"Mine"}',
      }),
    )
    expect(created.status).toBe(200)
  })

  test('is writable again when the sandbox serves a world of its own (--fixtures) or has no key', async () => {
    for (const options of [{ adminKey, world: buildWorld() }, {}]) {
      const other = await listen(createApp(options))
      try {
        const answer = await read(
          await fetch(`${other.base}/plants`, { method: 'POST', headers: write, body: '{"id":903,"name":"Fine"}' }),
        )
        expect(answer.status).toBe(200)
      } finally {
        await other.close()
      }
    }
  })
})

describe('the admin API across web origins', () => {
  const evil = 'http://evil.test'
  const preflight = (base: string, origin: string) =>
    fetch(`${base}/__sandbox/tenants`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-admin-key' },
    }).then(read)

  test('by default no other origin may call it, while the Plant Store API keeps CORS for every origin', async () => {
    const refused = await preflight(sandbox.url, evil)
    expectErrorBody(refused, 403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    const api = await fetch(`${sandbox.url}/plants`, { headers: { origin: evil } })
    await api.arrayBuffer()
    expect(api.headers.get('access-control-allow-origin')).toBe('*')
    const health = await fetch(`${sandbox.url}/__sandbox/health`, { headers: { origin: evil } })
    expect(health.status).toBe(200)
    await health.arrayBuffer()
    expect(health.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('refuses a cross-origin write that needs no preflight (a form’s POST) before anything runs', async () => {
    const open = await listen(createApp({}))
    try {
      const before = await fetch(`${open.base}/__sandbox/tenants`, { method: 'POST', headers: { origin: evil } })
      expect(before.status).toBe(403)
      expect((await before.json()).message).toContain('--cors-origins')
      const own = await fetch(`${open.base}/__sandbox/tenants`, { method: 'POST', headers: { origin: open.base } })
      expect(own.status).toBe(201)
      const tool = await fetch(`${open.base}/__sandbox/tenants`, { method: 'POST' })
      expect(tool.status).toBe(201)
    } finally {
      await open.close()
    }
  })

  test('allows the origins listed in --cors-origins, and only those', async () => {
    const app = 'http://app.test'
    const listed = await listen(createApp({ corsOrigins: [app] }))
    try {
      const allowed = await preflight(listed.base, app)
      expect(allowed.status).toBe(204)
      expect(allowed.headers.get('access-control-allow-origin')).toBe(app)
      expectErrorBody(await preflight(listed.base, evil), 403)
      const provisioned = await fetch(`${listed.base}/__sandbox/tenants`, { method: 'POST', headers: { origin: app } })
      expect(provisioned.status).toBe(201)
      expect(provisioned.headers.get('access-control-allow-origin')).toBe(app)
      await provisioned.arrayBuffer()
    } finally {
      await listed.close()
    }
  })
})

describe('tokens', () => {
  test('are matched in full: only the identical string is accepted', async () => {
    const status = async (token: string) =>
      (await fetch(`${sandbox.url}/plants`, { headers: { authorization: `Bearer ${token}` } })).status
    expect(await status('psm_acme_write')).toBe(200)
    for (const other of ['psm_acme_writ', 'psm_acme_writf', 'psm_acme_write_', 'Psm_acme_write', 'x'.repeat(4096)]) {
      expect(await status(other)).toBe(401)
    }
  })

  test('tokens and the admin key never reach the logs or the journal', async () => {
    const tenant = await provision()
    const secrets = [tenant.tokens.read, tenant.tokens.write, adminKey, 'psm_unknown_but_secret_token']
    const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' })
    await fetch(`${sandbox.url}/plants`, { headers: headers(tenant.tokens.read) })
    await fetch(`${sandbox.url}/plants`, {
      method: 'POST',
      headers: headers(tenant.tokens.write),
      body: '{"id":9,"name":"x"}',
    })
    await fetch(`${sandbox.url}/plants`, {
      method: 'POST',
      headers: headers(tenant.tokens.read),
      body: '{"id":9,"name":"x"}',
    })
    await fetch(`${sandbox.url}/plants/9`, { method: 'DELETE', headers: headers(tenant.tokens.write) })
    await fetch(`${sandbox.url}/plants`, { headers: headers('psm_unknown_but_secret_token') })
    await fetch(`${sandbox.url}/plants`, { headers: { ...headers(tenant.tokens.read), prefer: 'code=403' } })
    await fetch(`${sandbox.url}/__sandbox/tenants`, { method: 'POST', headers: { 'x-admin-key': `${adminKey}!` } })
    const journal = await (
      await fetch(`${sandbox.url}/__sandbox/requests`, { headers: headers(tenant.tokens.read) })
    ).text()
    expect(JSON.parse(journal).requests.length).toBeGreaterThanOrEqual(4)
    expect(logged.length).toBeGreaterThan(0)
    for (const secret of secrets) {
      expect(logged).not.toContain(secret)
      expect(journal).not.toContain(secret)
    }
  })

  test('the CLI at the most verbose log level never prints a provisioned token or the admin key', async () => {
    const key = 'cli-admin-key-never-printed-0123456789'
    const cli = await startCli(['--log-level', 'trace'], { PLANT_STORE_ADMIN_KEY: key })
    try {
      const created = await fetch(`${cli.url}/__sandbox/tenants`, { method: 'POST', headers: { 'x-admin-key': key } })
      const { tokens } = (await created.json()) as { tokens: { read: string; write: string } }
      await fetch(`${cli.url}/plants`, { headers: { authorization: `Bearer ${tokens.read}` } })
      await fetch(`${cli.url}/plants/1`, { method: 'DELETE', headers: { authorization: `Bearer ${tokens.write}` } })
      expect(await cli.stop('SIGTERM')).toBe(0)
      for (const secret of [key, tokens.read, tokens.write]) expect(cli.output()).not.toContain(secret)
      expect(cli.output()).not.toMatch(/\n\s+at /)
    } finally {
      await cli.stop('SIGKILL')
    }
  }, 30_000)
})
