/**
 * The example app in real Chromium, its Plant Store answered by MSW's
 * service worker with `plant-store-mock/browser`'s handlers.
 */

import { describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../src/index.ts'
import { inPagePlantStore, routePlantStore } from '../../src/playwright.ts'
import { ExampleApp, exampleSiteInChromium, expectedError, saveScreenshot, seededPlants } from './harness.ts'

/** The example site served, Chromium, and a fresh context per test: no service worker, storage or cache carries over. */
const chromium = exampleSiteInChromium()

describe('the example app on MSW in Chromium', () => {
  test('renders the seeded plants of the token’s tenant, answered by the service worker', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.write })

    expect(await app.plants()).toEqual(await seededPlants('acme'))
    expect(await app.error()).toBeNull()
    expect(await app.controller()).toBe(`${chromium.site.origin}/mockServiceWorker.js`)
    await saveScreenshot(app.page, 'example-app-msw-list') // taken with the list on screen, as just checked
  })

  test('says "Starting the mock…", and shows no form, until the worker is ready; then the list', async () => {
    const page = await chromium.context.newPage()
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    // Hold back the chunk that starts the worker, to look at the page in the meantime.
    await page.route(/\/assets\/mocks-[^/]*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto(`${chromium.site.origin}/?token=${fixtureTokens.acme.write}`, { waitUntil: 'domcontentloaded' })
    const shownControls = () =>
      page.$$eval('form, input, button', (all) => all.filter((e) => e.checkVisibility()).length)

    expect(await page.textContent('#starting')).toBe('Starting the mock…')
    expect(await page.isVisible('#starting')).toBe(true)
    expect(await shownControls()).toBe(0)
    expect(await page.getAttribute('main', 'aria-busy')).toBe('true')

    release()
    await page.waitForFunction(() => document.querySelector('main')?.dataset.revision === '1')

    expect(await page.isHidden('#starting')).toBe(true)
    expect(await shownControls()).toBeGreaterThan(0)
    expect(await page.$$eval('#plants li', (items) => items.filter((item) => item.checkVisibility()).length)).toBe(
      (await seededPlants('acme')).length,
    )
  })

  test('shows a created plant at the end of the list, and the page’s store holds it', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.write })

    await app.create({ id: '100', name: 'Browser Fern', tag: 'fern' })

    expect(await app.error()).toBeNull()
    expect(await app.plants()).toEqual([...(await seededPlants('acme')), { name: 'Browser Fern', tag: 'fern' }])
    const stored = (await inPagePlantStore(app.page).listPlants('acme')).at(-1)
    expect(stored).toEqual({ id: 100, name: 'Browser Fern', tag: 'fern' })
    await saveScreenshot(app.page, 'example-app-msw')
  })

  test('removes a deleted plant from the list', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.write })
    const [first, ...rest] = await seededPlants('acme')

    await app.delete('1')

    expect(await app.error()).toBeNull()
    expect(await app.plants()).toEqual(rest)
    expect(await app.plants()).not.toContainEqual(first)
  })

  test('shows the 401 message when the request carries no token, and no plants', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.write })

    await app.load('')

    expect(await app.error()).toEqual(await expectedError({ method: 'GET', path: '/plants' }))
    expect((await app.error())?.status).toBe('401')
    expect(await app.plants()).toEqual([])
  })

  test('shows the 400 message naming the field when the form is invalid, and stores nothing', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.write })

    await app.create({ id: '101', name: '' })

    const expected = await expectedError({
      method: 'POST',
      path: '/plants',
      token: fixtureTokens.acme.write,
      json: { id: 101, name: '' },
    })
    expect(expected.status).toBe('400')
    expect(await app.error()).toEqual(expected)
    expect(await app.plants()).toEqual(await seededPlants('acme'))
  })

  test('stays under the worker’s control after a reload, which keeps the stored world', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.write })
    await app.create({ id: '102', name: 'Before Reload' })
    expect(await app.plants()).toContainEqual({ name: 'Before Reload' })

    await app.reload()

    expect(await app.controller()).toBe(`${chromium.site.origin}/mockServiceWorker.js`)
    expect(await app.error()).toBeNull()
    expect(await app.plants()).toEqual([...(await seededPlants('acme')), { name: 'Before Reload' }])
  })

  test('shows each of two contexts only its own token’s tenant', async () => {
    const other = await chromium.browser.newContext()
    try {
      const acme = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.write })
      const globex = await ExampleApp.open(other, chromium.site.origin, { token: fixtureTokens.globex.write })

      await acme.create({ id: '103', name: 'Acme Only' })

      expect(await acme.plants()).toEqual([...(await seededPlants('acme')), { name: 'Acme Only' }])
      expect(await globex.plants()).toEqual(await seededPlants('globex'))
      expect(await globex.plants()).not.toEqual(await seededPlants('acme'))
    } finally {
      await other.close()
    }
  })

  test('answers two tabs of one context from the same worker, each with its token’s tenant', async () => {
    const acme = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.acme.read })
    const globex = await ExampleApp.open(chromium.context, chromium.site.origin, { token: fixtureTokens.globex.read })

    expect(await acme.plants()).toEqual(await seededPlants('acme'))
    expect(await globex.plants()).toEqual(await seededPlants('globex'))
    expect(await acme.controller()).toBe(await globex.controller())
  })

  // Regression: an app that awaited worker.start() never mounted where service workers are blocked (issue 37).
  test('mounts with service workers blocked, saying so in one console warning, and routePlantStore answers it', async () => {
    const context = await chromium.browser.newContext({ serviceWorkers: 'block' })
    try {
      const said: string[] = []
      context.on('console', (message) => said.push(`${message.type()}: ${message.text()}`))
      await routePlantStore(context)

      const app = await ExampleApp.open(context, chromium.site.origin, { token: fixtureTokens.acme.write })

      expect(await app.plants()).toEqual(await seededPlants('acme'))
      expect(await app.controller()).toBeNull()
      expect(await app.page.textContent('#transport')).toContain('no service worker could start')
      expect(said.filter((line) => line.includes('[plant-store-mock]'))).toEqual([
        expect.stringMatching(
          /^warning: \[plant-store-mock\] The Plant Store mock is off: its service worker could not start \(\[MSW\] Failed to register the Service Worker: Cannot read properties of undefined \(reading 'active'\)\)/,
        ),
      ])
      expect(said.filter((line) => line.startsWith('error:'))).toEqual([])
    } finally {
      await context.close()
    }
  })
})
