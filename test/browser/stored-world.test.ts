/**
 * `setupPlantStoreWorker({ persist: true })` in real Chromium, through the
 * example app (which turns it on): the world survives a reload, the tabs of
 * the origin see each other's writes without one, `store.reset()` resets
 * them all, and a corrupt or outdated stored world is dropped with one
 * warning, never a broken page. The page's mock is reached the documented
 * way, with `inPagePlantStore(page)`.
 */
import type { BrowserContext, ConsoleMessage } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { defaultStorageKey, storedWorldFormat } from '../../src/browser.ts'
import { fixtureTokens, type PlantStore } from '../../src/index.ts'
import { inPagePlantStore, RequestVerificationError } from '../../src/playwright.ts'
import { ExampleApp, type ExampleSite, exampleSiteInChromium, seededPlants, serveStoredWorldPages } from './harness.ts'

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

  test('store.reset() settles once the reset world is stored: a reload right after lists the seeded plants', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    await app.create({ id: '207', name: 'Reset Away' })
    await inPagePlantStore(app.page).reset()
    await app.reload()
    expect(await app.plants()).toEqual(await seededPlants('acme'))
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

  test('keeps what a tenant remembers besides its plants across a reload, and a reset forgets it', async () => {
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    type Handle = { __plantStoreMock: { store: PlantStore } }
    // No rule remembers anything yet: the memory comes in with a restored snapshot, as a stored world holds it.
    await app.page.evaluate(async () => {
      const { store } = (globalThis as unknown as Handle).__plantStoreMock
      const snapshot = store.snapshot()
      const tenants = snapshot.tenants.map((tenant) =>
        tenant.id === 'acme' ? { ...tenant, memory: { deleted: [9] } } : tenant,
      )
      await store.restore({ tenants }, store.provisionedTenants())
    })
    const memory = async () => {
      await app.page.waitForFunction(() => '__plantStoreMock' in globalThis)
      return app.page.evaluate(async () => {
        const { store } = (globalThis as unknown as Handle).__plantStoreMock
        if (!store.settled) await store.ready
        return store.tenantMemory('acme')
      })
    }
    // A reload of the page as it is (the app's own `reload` waits for a new list, which nothing here changes).
    await app.page.reload()
    expect(await memory()).toEqual({ deleted: [9] })
    await inPagePlantStore(app.page).reset()
    await app.page.reload()
    expect(await memory()).toEqual({})
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

/** The page errors and console warnings of a context, from now on. */
function watch(context: BrowserContext): { errors: string[]; warnings: string[] } {
  const seen = { errors: [] as string[], warnings: [] as string[] }
  context.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning') seen.warnings.push(message.text())
    if (message.type() === 'error') seen.errors.push(message.text())
  })
  context.on('weberror', (error) => seen.errors.push(String(error.error())))
  return seen
}

describe('the stored world against other pages of its origin (issue 35, F14)', () => {
  test('ignores channel messages that are not the tabs’ own (null, "x", 42, …) and still follows the real ones', async () => {
    const seen = watch(chromium.context)
    const first = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    const second = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    // A world is stored: each tab reads it when told of a change.
    await first.create({ id: '205', name: 'Stored First' })
    await second.page.evaluate((key) => {
      const channel = new BroadcastChannel(key)
      for (const message of [null, 'x', 42, {}, { tenantId: 5 }, { all: 'yes' }, { tenantId: 'acme', more: 1 }]) {
        channel.postMessage(message)
      }
    }, defaultStorageKey)
    // Posted after the junk: the first tab takes this one in, so it has read every message before it.
    await second.create({ id: '204', name: 'After The Junk' })
    await expect
      .poll(() => inPagePlantStore(first.page).listPlants('acme'))
      .toContainEqual({ id: 204, name: 'After The Junk' })
    expect(seen.errors).toEqual([])
  })
})

describe('the stored world written by another page of its origin (issue 35, F14)', () => {
  test('a stored tenant with more seeded plants than a tenant may hold is discarded, never generated', async () => {
    const seen = watch(chromium.context)
    const app = await ExampleApp.open(chromium.context, chromium.site.origin, { token })
    await app.create({ id: '206', name: 'Before The Forgery' })
    // Another page of the origin rewrites the stored world: its setup fingerprint is kept, Acme's seeds are not.
    await app.page.evaluate((key) => {
      const stored = JSON.parse(localStorage.getItem(key) ?? '{}')
      for (const tenant of stored.snapshot.tenants) if (tenant.id === 'acme') tenant.seedPlants = 1_000_000
      localStorage.setItem(key, JSON.stringify(stored))
    }, defaultStorageKey)
    await app.reload()
    expect(await app.plants()).toEqual(await seededPlants('acme'))
    expect(seen.warnings).toEqual([
      expect.stringMatching(/^\[plant-store-mock\] Discarded the stored world .*tenant "acme" holds more plants/),
    ])
    expect(seen.errors).toEqual([])
  })
})

describe('two apps of one origin, and the seeded plants, with persist: true (issue 35, F14)', () => {
  let pages: ExampleSite | undefined
  beforeAll(async () => {
    pages = await serveStoredWorldPages()
  }, 60_000)
  afterAll(() => pages?.close())

  /** Opens one app of the pages' origin (a path of its own) and sets its mock up with these options. */
  async function openApp(path: string, options: Parameters<Window['setUpMock']>[0]) {
    const page = await chromium.context.newPage()
    await page.goto(`${pages?.origin}${path}`)
    await page.waitForFunction(() => typeof window.setUpMock === 'function')
    const result = await page.evaluate((given) => window.setUpMock(given), options)
    return { page, result }
  }

  test('each app keeps its own world under the default key: one per mocked base URL', async () => {
    const seen = watch(chromium.context)
    const a = await openApp('/a/', { persist: true, baseUrl: 'https://a.example', seed: 1 })
    await a.page.evaluate(() => window.addPlant(500))
    // Another app of the origin, another world (seed 2), the default key too.
    const b = await openApp('/b/', { persist: true, baseUrl: 'https://b.example', seed: 2 })
    await b.page.evaluate(() => window.addPlant(600))
    await a.page.reload()
    await a.page.waitForFunction(() => typeof window.setUpMock === 'function')
    expect(
      await a.page.evaluate(() => window.setUpMock({ persist: true, baseUrl: 'https://a.example', seed: 1 })),
    ).toEqual({ ids: [1, 2, 3, 4, 5, 500] })
    await b.page.reload()
    await b.page.waitForFunction(() => typeof window.setUpMock === 'function')
    expect(
      await b.page.evaluate(() => window.setUpMock({ persist: true, baseUrl: 'https://b.example', seed: 2 })),
    ).toEqual({ ids: [1, 2, 3, 4, 5, 600] })
    expect(seen.warnings).toEqual([])
    expect(seen.errors).toEqual([])
  })

  test('refuses seeded plants beyond a tenant’s quota, in one clear error, before generating any', async () => {
    const huge = await openApp('/', { persist: true, plantsPerTenant: 1_000_000 })
    expect(huge.result).toEqual({
      error:
        'PlantStoreError: setupPlantStoreWorker({ persist }): plantsPerTenant is 1000000 seeded plants; a tenant holds at most 10000 (its quota, as for provisioning).',
      code: 'quota_exceeded',
    })
    const overQuota = await openApp('/', { persist: true, plantsPerTenant: 20, quota: 10 })
    expect(overQuota.result).toMatchObject({ error: expect.stringContaining('a tenant holds at most 10') })
    const within = await openApp('/', { persist: true, plantsPerTenant: 10, quota: 10 })
    expect(within.result).toEqual({ ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] })
  })
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
    // listPlants declares 503 (storage unavailable): the rule's answer is counted in the contract.
    const coverage = await mock.coverage()
    expect(coverage.undocumented).toEqual([])
    expect(coverage.operations.find(({ operationId }) => operationId === 'listPlants')?.responses).toContainEqual(
      expect.objectContaining({ status: 503, hits: 1 }),
    )
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
