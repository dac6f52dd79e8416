/**
 * `setupPlantStoreWorker({ persist: true })` in real Chromium, through the
 * example app (which turns it on): the world survives a reload, the tabs of
 * the origin see each other's writes without one, `store.reset()` resets
 * them all, and a corrupt or outdated stored world is dropped with one
 * warning, never a broken page. The page's mock is reached the documented
 * way, with `inPagePlantStore(page)`.
 */
import type { ConsoleMessage } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { defaultStorageKey, storedWorldFormat } from '../../src/browser.ts'
import { fixtureTokens } from '../../src/index.ts'
import { inPagePlantStore, RequestVerificationError } from '../../src/playwright.ts'
import { ExampleApp, exampleSiteInChromium, seededPlants } from './harness.ts'

/** The example site served, Chromium, and a fresh context per test: no service worker, storage or cache carries over. */
const chromium = exampleSiteInChromium()

const token = fixtureTokens.acme.write

describe('the stored world of the worker mock (persist: true)', () => {
  test('keeps a created plant across a reload; a second tab sees it and its deletion; reset() resets both', async () => {
    const first = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    await first.create({ id: '200', name: 'Kept Fern', tag: 'fern' })
    const seeded = await seededPlants('acme')

    await first.reload()
    expect(await first.plants()).toEqual([...seeded, { name: 'Kept Fern', tag: 'fern' }])

    // A second tab: its first list already has it.
    const second = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    expect(await second.plants()).toEqual([...seeded, { name: 'Kept Fern', tag: 'fern' }])

    // Deleted in the second tab: the first tab's store follows without a reload.
    await second.delete('200')
    await first.load(token)
    expect(await first.plants()).toEqual(seeded)

    // Created in the first tab: the second's store has it without a reload.
    await first.create({ id: '201', name: 'Seen Everywhere' })
    await expect
      .poll(() => inPagePlantStore(second.page).listPlants('acme'))
      .toContainEqual({
        id: 201,
        name: 'Seen Everywhere',
      })

    // store.reset() in one tab resets every tab, and what is stored.
    await inPagePlantStore(second.page).reset()
    await expect.poll(() => inPagePlantStore(first.page).listPlants('acme')).toHaveLength(seeded.length)
    await first.load(token)
    expect(await first.plants()).toEqual(seeded)
    await second.reload()
    expect(await second.plants()).toEqual(seeded)
  })

  test('answers the first request of a reload from the stored world, never the seeded one', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    const seeded = await seededPlants('acme')

    for (const id of [1, 2, 3]) {
      await app.delete(String(id))
      await app.reload() // the app lists at once on load: that first answer already has the stored world
      expect(await app.plants()).toEqual(seeded.slice(id))
    }
  })

  test('keeps each browser context’s world to itself', async () => {
    const other = await chromium.browser.newContext()
    try {
      const mine = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
      await mine.create({ id: '202', name: 'Mine Only' })
      const theirs = await ExampleApp.open(other, chromium.site.origin, { token })
      expect(await theirs.plants()).toEqual(await seededPlants('acme'))
    } finally {
      await other.close()
    }
  })

  for (const [what, stored] of [
    ['corrupt (not JSON)', '{"format":1,"snap'],
    ['from an older format of the package', JSON.stringify({ format: storedWorldFormat - 1, tenants: [] })],
    [
      'of the right format but the wrong shape',
      JSON.stringify({ format: storedWorldFormat, snapshot: { tenants: 7 } }),
    ],
  ] as const) {
    test(`discards a stored world that is ${what}, with one console warning, and starts from the seeded world`, async () => {
      await chromium.context.addInitScript(
        ([key, value]) => {
          // Only before the first load of the app's tab: the app's own writes must survive the reload below.
          if (location.protocol !== 'http:') return
          if (sessionStorage.getItem('seeded-bad-world') === null) {
            sessionStorage.setItem('seeded-bad-world', '1')
            localStorage.setItem(key, value)
          }
        },
        [defaultStorageKey, stored] as const,
      )
      const warnings: string[] = []
      const errors: string[] = []
      chromium.context.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'warning') warnings.push(message.text())
        if (message.type() === 'error') errors.push(message.text())
      })
      chromium.context.on('weberror', (error) => errors.push(String(error.error())))

      const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token })

      expect(await app.error()).toBeNull()
      expect(await app.plants()).toEqual(await seededPlants('acme'))
      expect(warnings).toEqual([expect.stringMatching(/^\[plant-store-mock\] Discarded the stored world/)])
      expect(errors).toEqual([])
      // And the mock stores again from there.
      await app.create({ id: '203', name: 'After The Warning' })
      await app.reload()
      expect(await app.plants()).toContainEqual({ name: 'After The Warning' })
      expect(warnings).toHaveLength(1)
    })
  }
})

describe('reaching the page’s worker mock from a test (exposeOnWindow: true)', () => {
  test('fault rules left before the app starts answer its first request; coverage and rules are readable', async () => {
    const page = await chromium.context.newPage()
    const mock = inPagePlantStore(page)
    await mock.addFaultRulesOnLoad([['acme', { method: 'GET', path: '/plants', status: 503, times: 1 }]])

    await page.goto(`${chromium.site.origin}/?token=${token}`)
    await page.waitForFunction(() => document.querySelector('main')?.dataset.revision === '1')

    expect(await page.textContent('#error-status')).toBe('503')
    expect(await mock.faultRules('acme')).toMatchObject([{ status: 503, fired: 1, remaining: 0 }])
    // listPlants declares no 503: the rule's answer is counted outside the contract.
    expect((await mock.coverage()).undocumented).toEqual([{ answer: 'listPlants 503', hits: 1 }])
    expect(await mock.clearFaultRules()).toBe(1)
    expect(await mock.faultRules('acme')).toEqual([])
  })

  test("the page mock's journal: verify counts the app's requests as the sandbox client counts the sandbox's", async () => {
    const page = await chromium.context.newPage()
    const mock = inPagePlantStore(page)
    await mock.addFaultRulesOnLoad([['acme', { method: 'GET', path: '/plants', status: 503, times: 1 }]])
    await page.goto(`${chromium.site.origin}/?token=${token}`)
    await page.waitForFunction(() => document.querySelector('main')?.dataset.revision === '1')

    await mock.requests.verify(1, { method: 'GET', path: '/plants', status: 503 })
    expect(await mock.requests.count({ tenant: 'acme' })).toBe(await mock.requests.count())
    const failure = await mock.requests.verify(2, { status: '5xx' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RequestVerificationError)
    expect((failure as Error).message).toBe(
      'Expected exactly 2 request(s) matching any method any path answered 5xx, found 1:\n  GET /plants → 503',
    )
    await mock.requests.clear()
    expect(await mock.requests.count()).toBe(0)
  })
})
