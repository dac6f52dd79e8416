/**
 * An end-to-end test as a Playwright suite would write one against the
 * shared sandbox: provision a tenant, add a fault rule, drive the example app
 * (served by Vite, talking to the sandbox over CORS) in real Chromium, see the
 * error in the page, verify the journal, delete the tenant.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { SandboxClient } from '../../src/client/index.ts'
import { createApp } from '../../src/server/index.ts'
import { type Listening, listen } from '../server/support.ts'
import { ExampleApp, type ExampleSite, launchChromium, saveScreenshot, serveExample } from './harness.ts'

let sandbox: Listening
let site: ExampleSite
let browser: Browser

beforeAll(async () => {
  ;[sandbox, site, browser] = await Promise.all([listen(createApp()), serveExample(), launchChromium()])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
  await sandbox?.close()
})

test('a fault rule makes the app show the error, the journal proves what it sent, and the tenant is deleted', async () => {
  const sandboxClient = new SandboxClient({ baseUrl: sandbox.base })
  const tenant = await sandboxClient.provision({
    plants: [
      { id: 1, name: 'Monstera', tag: 'tropical' },
      { id: 2, name: 'Aloe' },
    ],
    ttlSeconds: 600,
  })
  const rule = await tenant.faults.add({ method: 'POST', path: '/plants', status: 503, times: 1 })
  const context = await browser.newContext()
  try {
    const app = await ExampleApp.open(context, site.origin, { api: sandbox.base, token: tenant.tokens.write })
    expect(await app.plants()).toEqual([{ name: 'Monstera', tag: 'tropical' }, { name: 'Aloe' }])

    // The first create meets the rule: the page shows the sandbox's 503 Error body.
    await app.create({ id: '3', name: 'Fiddle Leaf Fig', tag: 'ficus' })
    expect(await app.error()).toEqual({ status: '503', message: `Fault rule ${rule.id} answered 503.` })
    expect(await app.plants()).toEqual([{ name: 'Monstera', tag: 'tropical' }, { name: 'Aloe' }])
    await saveScreenshot(app.page, 'sandbox-e2e-fault-shown')

    // The rule is spent: the retry goes through.
    await app.create({ id: '3', name: 'Fiddle Leaf Fig', tag: 'ficus' })
    expect(await app.error()).toBeNull()
    expect(await app.plants()).toContainEqual({ name: 'Fiddle Leaf Fig', tag: 'ficus' })

    // The journal proves what the app sent: exactly two creates, one refused by the rule, and no delete.
    await tenant.requests.verify(2, { method: 'POST', path: '/plants' })
    await tenant.requests.verify(1, { method: 'POST', path: '/plants', status: 503 })
    await tenant.requests.verify(0, { method: 'DELETE' })
    const { requests } = await tenant.requests.list({ method: 'POST' })
    expect(requests.map(({ request }) => request.body)).toEqual([
      null, // the rule answered before the body was read
      '{"id":3,"name":"Fiddle Leaf Fig","tag":"ficus"}',
    ])
    expect(await tenant.faults.get(rule.id)).toMatchObject({ fired: 1, remaining: 0, active: false })

    // Deleted: its tokens stop working at once, and the app says so.
    await tenant.delete()
    await app.load(tenant.tokens.write)
    expect(await app.error()).toEqual({ status: '401', message: 'The access token is not recognised.' })
    expect(await app.plants()).toEqual([])
  } finally {
    await context.close()
  }
})
