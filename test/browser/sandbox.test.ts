/**
 * The same example app, unchanged, against the standalone sandbox over CORS:
 * one walk through every action on each transport, and the page must show
 * exactly the same thing.
 */
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPlantStore, fixtureTokens } from '../../src/index.ts'
import { createApp } from '../../src/server/index.ts'
import {
  ExampleApp,
  type ExampleSite,
  launchChromium,
  type ShownError,
  type ShownPlant,
  saveScreenshot,
  seededPlants,
  serveExample,
} from './harness.ts'

const store = createPlantStore()
let sandbox: Server
let sandboxOrigin: string
let site: ExampleSite
let browser: Browser

beforeAll(async () => {
  sandbox = createApp({ store }).listen(0, '127.0.0.1')
  await once(sandbox, 'listening')
  sandboxOrigin = `http://127.0.0.1:${(sandbox.address() as AddressInfo).port}`
  ;[site, browser] = await Promise.all([serveExample(), launchChromium()])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
  sandbox?.closeAllConnections()
  await new Promise((resolve) => sandbox?.close(resolve))
})

interface Walk {
  seeded: ShownPlant[]
  created: ShownPlant[]
  deleted: ShownPlant[]
  notFound: ShownError | null
  invalid: ShownError | null
  forbidden: ShownError | null
  unauthorized: ShownError | null
}

/** Every action of the app once, recording what the page shows after each. */
async function walk(app: ExampleApp): Promise<Walk> {
  const seeded = await app.plants()
  await app.create({ id: '100', name: 'Twin Fern', tag: 'fern' })
  const created = await app.plants()
  await app.delete('1')
  const deleted = await app.plants()
  await app.delete('999')
  const notFound = await app.error()
  await app.create({ id: '101', name: '' })
  const invalid = await app.error()
  await app.load(fixtureTokens.acme.read)
  await app.create({ id: '102', name: 'Read Only' })
  const forbidden = await app.error()
  await app.load('')
  const unauthorized = await app.error()
  return { seeded, created, deleted, notFound, invalid, forbidden, unauthorized }
}

test('shows the same plants and the same Error messages against the sandbox as through MSW', async () => {
  const mswContext = await browser.newContext()
  const sandboxContext = await browser.newContext()
  try {
    const mocked = await ExampleApp.open(mswContext, site.origin, { token: fixtureTokens.acme.write })
    const real = await ExampleApp.open(sandboxContext, site.origin, {
      token: fixtureTokens.acme.write,
      api: sandboxOrigin,
    })
    const apiCalls: string[] = []
    real.page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/plants')) apiCalls.push(request.url())
    })

    const throughMsw = await walk(mocked)
    const throughSandbox = await walk(real)
    await real.load(fixtureTokens.acme.write)
    await saveScreenshot(real.page, 'example-app-sandbox')

    expect(throughSandbox).toEqual(throughMsw)
    expect(throughMsw.seeded).toEqual(await seededPlants('acme'))
    expect(throughMsw.created.at(-1)).toEqual({ name: 'Twin Fern', tag: 'fern' })
    expect([throughMsw.notFound?.status, throughMsw.invalid?.status]).toEqual(['404', '400'])
    expect([throughMsw.forbidden?.status, throughMsw.unauthorized?.status]).toEqual(['403', '401'])
    // The sandbox itself answered: its store changed, its origin was called, and no service worker was involved.
    expect(store.listPlants('acme').map(({ id }) => id)).toEqual([2, 3, 4, 5, 100])
    expect(apiCalls.length).toBeGreaterThan(0)
    expect(apiCalls.every((url) => url.startsWith(`${sandboxOrigin}/plants`))).toBe(true)
    expect(await real.controller()).toBeNull()
  } finally {
    await mswContext.close()
    await sandboxContext.close()
  }
})
