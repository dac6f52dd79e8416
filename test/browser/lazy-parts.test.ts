/**
 * Issue 41: a page's worker mock answers its first request without loading
 * the parts it only needs once it tests or inspects (zod, the fault rules,
 * the request journal, the coverage, the stored world), which come in one
 * chunk after that answer, or on `mock.ready()`. Driven in Chromium on a page
 * built from the sources with the package's own zod seam
 * (`test/browser/pages/lazy-parts-page.ts`); the parts' chunk is held back
 * by the test until it lets it through.
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { zodOnDemand } from '../../rolldown.config.ts'
import { fixtureTokens } from '../../src/browser.ts'
import { type ExampleSite, launchChromium } from './harness.ts'
import { pageHtml, servePageScript } from './stored-world-pages.ts'

let site: ExampleSite
let browser: Browser
let context: BrowserContext
let page: Page
/** The scripts the page asked for, in order (their paths). */
let scripts: string[]
/** Each script's text, by its path. */
let sources: Map<string, string>
/** Lets the held parts' chunk through. */
let release: () => void

beforeAll(async () => {
  ;[site, browser] = await Promise.all([
    servePageScript('test/browser/pages/lazy-parts-page.ts', (path) => (path === '/' ? pageHtml : undefined), [
      zodOnDemand,
    ]),
    launchChromium(),
  ])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
})
beforeEach(async () => {
  context = await browser.newContext()
  scripts = []
  sources = new Map()
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await context.route('**/*.js', async (route: Route) => {
    const path = new URL(route.request().url()).pathname
    scripts.push(path)
    if (path.startsWith('/parts')) await released
    const response = await route.fetch()
    sources.set(path, await response.text())
    await route.fulfill({ response })
  })
  page = await context.newPage()
})
afterEach(() => context.close())

/** Opens the page and waits until its worker answers. */
async function open(search = ''): Promise<void> {
  await page.goto(`${site.origin}/${search}`)
  await page.waitForFunction(() => document.body.dataset.started !== undefined)
  expect(await page.evaluate(() => document.body.dataset.started)).toBe('true')
}

/** A request from the page: its status and JSON body. */
function call(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  return page.evaluate(
    async ({ path, method, token, body }) => {
      const response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as unknown }
    },
    { path, method: init.method ?? 'GET', token: init.token ?? fixtureTokens.acme.write, body: init.body },
  )
}

/** What a call of `part` in the page threw (its name, code and message), or `undefined`. */
function thrown(part: 'faults' | 'requests' | 'coverage') {
  return page.evaluate((name) => {
    try {
      if (name === 'faults') window.mock.faults.add('acme', { method: 'GET', path: '/plants', status: 503 })
      else if (name === 'requests') window.mock.requests.count()
      else window.mock.coverage.report()
      return undefined
    } catch (error) {
      const { code } = error as { code?: string }
      return { name: (error as Error).name, code, message: (error as Error).message }
    }
  }, part)
}

describe('the default set-up in a page', () => {
  test('answers its first request with no lazy chunk loaded, then loads the parts after it', async () => {
    await open()
    const first = await call('/plants', { token: fixtureTokens.acme.read })
    expect(first.status).toBe(200)
    expect(first.body).toHaveLength(5)
    // What the page ran up to its first answer: its script and the chunks it imports, none of them zod.
    const eager = [...sources.keys()].filter((path) => path !== '/mockServiceWorker.js')
    expect(eager).toContain('/page.js')
    expect(eager.filter((path) => path.startsWith('/parts') || path.startsWith('/plant-generator'))).toEqual([])
    for (const path of eager) expect(sources.get(path)).not.toContain('$ZodType')

    // Right after that answer, in the background: the parts' chunk (held here), with zod in it.
    await expect.poll(() => scripts.some((path) => path.startsWith('/parts'))).toBe(true)
    release()
    await page.evaluate(() => window.mock.ready())
    const parts = [...sources].find(([path]) => path.startsWith('/parts'))
    expect(parts?.[1]).toContain('$ZodType')
  })

  test('faults, requests and coverage throw a PlantStoreError naming mock.ready() until the parts are here', async () => {
    await open()
    await call('/plants')
    for (const part of ['faults', 'requests', 'coverage'] as const) {
      expect(await thrown(part)).toEqual({
        name: 'PlantStoreError',
        code: 'unavailable',
        message: expect.stringContaining('await mock.ready() first') as unknown,
      })
    }
  })

  test('after mock.ready(), journals and counts the answers given before it, and takes fault rules', async () => {
    await open()
    await call('/plants', { token: fixtureTokens.acme.read })
    await call('/plants', { token: fixtureTokens.globex.read })
    release()
    await page.evaluate(() => window.mock.ready())

    expect(await thrown('faults')).toBeUndefined()
    expect(await page.evaluate(() => window.mock.requests.count({ tenant: 'acme' }))).toBe(1)
    expect(await page.evaluate(() => window.mock.requests.count({ status: 200 }))).toBe(2)
    expect(
      await page.evaluate(() =>
        window.mock.coverage.report().operations.find(({ operationId }) => operationId === 'listPlants'),
      ),
    ).toMatchObject({ responses: expect.arrayContaining([expect.objectContaining({ status: 200, hits: 2 })]) })

    // The rule `thrown('faults')` added: Acme's list answers 503 now.
    expect((await call('/plants')).status).toBe(503)
    expect(await page.evaluate(() => window.mock.requests.count({ status: 503 }))).toBe(1)
  })

  test('holds a write whose body zod must check until the parts (with zod) are here, then answers its 400', async () => {
    await open()
    const write = call('/plants', { method: 'POST', body: { id: 100, name: 5 } })
    await expect.poll(() => scripts.some((path) => path.startsWith('/parts'))).toBe(true)
    release()
    const answer = await write
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ message: expect.stringContaining('name must be') as unknown })
    // A valid write goes through.
    expect((await call('/plants', { method: 'POST', body: { id: 101, name: 'Fern' } })).status).toBe(200)
  })
})

describe('a set-up with a world that is not valid', () => {
  test('rejects mock.ready() and store.ready, and answers every request with 500', async () => {
    release()
    await open('?setup=bad-world')
    const rejected = (ready: 'mock' | 'store') =>
      page.evaluate(async (which) => {
        try {
          await (which === 'mock' ? window.mock.ready() : window.mock.store.ready)
          return 'resolved'
        } catch (error) {
          return (error as Error).message
        }
      }, ready)
    expect(await rejected('mock')).toMatch(/id|plants/)
    expect(await rejected('store')).toBe(await rejected('mock'))
    expect((await call('/plants')).status).toBe(500)
  })
})
