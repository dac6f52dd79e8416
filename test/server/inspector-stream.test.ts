/** The inspector over HTTP: its event stream (auth, tenant isolation, live events, bounds) and its page's headers. */

import { get } from 'node:http'
import { afterEach, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { openEventStream, type StreamEvent } from './event-stream.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer } from './support.ts'

const sandbox = useSandbox({ maxStreamsPerTenant: 2 })
const { store } = sandbox

const streams: Array<Awaited<ReturnType<typeof openEventStream>>> = []
afterEach(async () => {
  for (const stream of streams.splice(0)) await stream.close()
  await store.reset()
})
async function watch(token: string) {
  const stream = await openEventStream(sandbox.base, token)
  streams.push(stream)
  return stream
}

const exchange = (path: string) => (event: StreamEvent) =>
  event.name === 'exchange' && (event.data.request as { path: string }).path === path

describe('GET /__sandbox/events', () => {
  test('needs the token in the Authorization header; a token in the URL is never taken', async () => {
    expectErrorBody(await read(await fetch(`${sandbox.base}/__sandbox/events`)), 401)
    // The stream takes no query parameter: a token there is refused by name, never taken.
    const inQuery = await read(await fetch(`${sandbox.base}/__sandbox/events?token=${fixtureTokens.acme.read}`))
    expectErrorBody(inQuery, 400)
    expect(JSON.parse(inQuery.text).message).toBe('Unknown query parameter "token"; none is accepted here.')
    expectErrorBody(await read(await fetch(`${sandbox.base}/__sandbox/events`, { headers: bearer('psm_nobody') })), 401)
  })

  test('opens with the tenant, its plants, its rules and its journal so far, then streams its exchanges live', async () => {
    await fetch(`${sandbox.base}/plants/5`, { method: 'DELETE', headers: bearer(fixtureTokens.acme.write) })
    const stream = await watch(fixtureTokens.acme.read)
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')

    expect((await stream.until((e) => e.name === 'hello')).data).toEqual({ tenant: 'acme', scopes: ['plants:read'] })
    expect((await stream.until((e) => e.name === 'plants')).data).toMatchObject({ count: 4 })
    expect((await stream.until((e) => e.name === 'faults')).data).toEqual({ faults: [] })
    await stream.until(exchange('/plants/5'))

    await fetch(`${sandbox.base}/plants?limit=1`, {
      headers: { ...bearer(fixtureTokens.acme.read), 'x-request-id': 'live-1' },
    })
    const live = await stream.until(exchange('/plants'))
    expect(live.data).toMatchObject({
      id: 'live-1',
      operation: 'listPlants',
      request: { method: 'GET', path: '/plants', query: 'limit=1', headers: { authorization: 'Bearer [redacted]' } },
      response: { status: 200 },
    })
    expect(JSON.stringify(stream.events)).not.toContain(fixtureTokens.acme.read)
  })

  test('never carries another tenant’s traffic', async () => {
    const acme = await watch(fixtureTokens.acme.read)
    await acme.until((e) => e.name === 'hello')
    await fetch(`${sandbox.base}/plants/2`, { method: 'DELETE', headers: bearer(fixtureTokens.globex.write) })
    await fetch(`${sandbox.base}/plants/3`, { method: 'DELETE', headers: bearer(fixtureTokens.acme.write) })
    await acme.until(exchange('/plants/3'))
    expect(acme.events.some(exchange('/plants/2'))).toBe(false)
    expect(JSON.stringify(acme.events)).not.toContain('globex')
  })

  test('sends the plants again after a write, and the rules whenever they change or fire', async () => {
    const stream = await watch(fixtureTokens.acme.read)
    await stream.until((e) => e.name === 'faults')
    const tenant = sandbox.client.tenant(fixtureTokens.acme)
    await tenant.faults.add({ method: 'GET', status: 503, times: 1 })
    await stream.until((e) => e.name === 'faults' && (e.data.faults as unknown[]).length === 1)
    await fetch(`${sandbox.base}/plants`, { headers: bearer(fixtureTokens.acme.read) })
    await stream.until(
      (e) => e.name === 'faults' && (e.data.faults as Array<{ id: string; fired: number }>)[0]?.fired === 1,
    )
    await stream.until((e) => exchange('/plants')(e) && (e.data.response as { status: number }).status === 503)

    await fetch(`${sandbox.base}/plants`, {
      method: 'POST',
      headers: { ...bearer(fixtureTokens.acme.write), 'content-type': 'application/json' },
      body: '{"id":77,"name":"Streamed Fern"}',
    })
    const grown = await stream.until((e) => e.name === 'plants' && e.data.count === 6)
    await tenant.reset()
    await stream.until(
      (e) => e.name === 'plants' && e.data.count === 5 && stream.events.indexOf(e) > stream.events.indexOf(grown),
    )
  })

  test('refuses more than the streams a tenant may hold with 429, and counts each tenant apart', async () => {
    await watch(fixtureTokens.acme.read)
    await watch(fixtureTokens.acme.write)
    const third = await read(
      await fetch(`${sandbox.base}/__sandbox/events`, { headers: bearer(fixtureTokens.acme.read) }),
    )
    expectErrorBody(third, 429)
    expect(third.headers.get('retry-after')).toBe('5')
    const globex = await watch(fixtureTokens.globex.read)
    expect(globex.response.status).toBe(200)
  })

  test('refuses a duplicated Authorization header as the API does, never taking the first one', async () => {
    const twice = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { host } = new URL(sandbox.base)
        const headers = [
          'host',
          host,
          'authorization',
          `Bearer ${fixtureTokens.acme.read}`,
          'authorization',
          'Bearer psm_b',
        ]
        get(`${sandbox.base}${path}`, { headers }, (res) => {
          let body = ''
          res.setEncoding('utf8').on('data', (chunk: string) => {
            body += chunk
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        }).on('error', reject)
      })
    const api = await twice('/plants')
    const events = await twice('/__sandbox/events')
    expect(api.status).toBe(401)
    expect(events).toEqual(api)
  })

  test('says the token has expired and ends when it does', async () => {
    const token = 'psm_expiring_read'
    const expiresAt = new Date(Date.parse('2026-01-01T00:00:00Z') + 60_000).toISOString()
    await store.addTenant({
      id: 'expiring',
      name: 'Expiring',
      seed: 1,
      plants: 1,
      users: [{ id: 'expiring.read', name: 'Visitor', tokens: [{ token, scopes: ['plants:read'], expiresAt }] }],
    })
    const stream = await watch(token)
    await stream.until((e) => e.name === 'hello')
    sandbox.advance(60_000)
    expect((await stream.until((e) => e.name === 'expired')).data).toEqual({ tenant: 'expiring' })
    await expect.poll(() => stream.ended).toBe(true)
  })

  test('says the tenant is gone and ends when it is deleted', async () => {
    const tenant = await sandbox.client.provision({ plants: 1 })
    const stream = await watch(tenant.tokens.read)
    await stream.until((e) => e.name === 'hello')
    await tenant.delete()
    expect((await stream.until((e) => e.name === 'gone')).data).toEqual({ tenant: tenant.provisioned?.tenant })
    await expect.poll(() => stream.ended).toBe(true)
  })
})

describe('the inspector page', () => {
  test('is served at /__sandbox/ under a strict CSP, with its script and style as separate files', async () => {
    const page = await read(await fetch(`${sandbox.base}/__sandbox/`))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.text).toContain('<script type="module" src="inspector.js"></script>')
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(page.text).not.toMatch(/\sstyle=|<style|https?:\/\//)

    const script = await read(await fetch(`${sandbox.base}/__sandbox/inspector.js`))
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.text).toContain("fetch('events'")
    const style = await read(await fetch(`${sandbox.base}/__sandbox/inspector.css`))
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8')
  })

  test('redirects /__sandbox to /__sandbox/ so that its relative links resolve', async () => {
    const answer = await fetch(`${sandbox.base}/__sandbox`, { redirect: 'manual' })
    expect(answer.status).toBe(308)
    expect(answer.headers.get('location')).toBe('/__sandbox/')
  })
})
