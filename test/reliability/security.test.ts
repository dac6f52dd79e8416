/**
 * Security: no internal detail in answers, no `X-Powered-By`, browser
 * protections on the docs pages, the admin API locked by its key, and
 * tokens and the admin key never written to logs or the journal.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { renderError } from '../../src/core/errors.ts'
import { createPlantStore } from '../../src/index.ts'
import { type RunningSandbox, startSandbox } from '../../src/server/index.ts'
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
    await fetch(`${sandbox.url}/plants`, { headers: { ...headers(tenant.tokens.read), prefer: 'code=500' } })
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
