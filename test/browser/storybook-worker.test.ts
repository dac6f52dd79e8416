/**
 * Issue 42, item 5: a story opened by its own URL (`iframe.html?id=…`, as the
 * Storybook guide links it), then the Storybook UI in the same tab, and every
 * story showed "Could not load the plants (404)" (4 of 4 tries): `/plants`
 * went to the preview server, and nothing warned. Reproduced without
 * Storybook, with what matters to the service worker: msw's own worker
 * script, a preview document at `/iframe.html` that starts the worker mock as
 * the guide's preview does (`test/browser/pages/storybook-preview.ts`), a
 * manager page at `/` that embeds it in `#storybook-preview-iframe` and runs
 * no msw, and a server that answers `/plants` 404 as Storybook's does.
 */
import type { Browser, BrowserContext, ConsoleMessage, Frame, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { type ExampleSite, launchChromium } from './harness.ts'
import { pageHtml, servePageScript } from './stored-world-pages.ts'

let storybook: ExampleSite
let browser: Browser
let context: BrowserContext
/** The console warnings of the test's context. */
let warnings: string[]

beforeAll(async () => {
  const manager =
    '<!doctype html><title>Storybook</title>' +
    '<iframe id="storybook-preview-iframe" src="iframe.html?id=plants-plantlist--seeded"></iframe>'
  ;[storybook, browser] = await Promise.all([
    servePageScript('test/browser/pages/storybook-preview.ts', (path) => {
      if (path === '/iframe.html') return pageHtml
      if (path === '/' || path === '/index.html') return manager
      return undefined
    }),
    launchChromium(),
  ])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await storybook?.close()
})
beforeEach(async () => {
  context = await browser.newContext()
  warnings = []
  context.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
})
afterEach(() => context.close())

/** What the story in `frame` got: the status of its list, and what the mock's `start()` answered. */
async function story(frame: Page | Frame): Promise<{ status: string; mocked: string }> {
  await frame.waitForFunction(() => document.body?.dataset.status !== undefined, undefined, { timeout: 10_000 })
  return frame.evaluate(() => ({
    status: document.body.dataset.status ?? '',
    mocked: document.body.dataset.mocked ?? '',
  }))
}

/** The manager's preview frame. */
async function previewFrame(page: Page): Promise<Frame> {
  const frame = await (await page.waitForSelector('#storybook-preview-iframe')).contentFrame()
  if (!frame) throw new Error('The manager page has no preview frame.')
  return frame
}

describe('the worker mock in Storybook (issue 42, item 5)', () => {
  test('a story by its own URL, then the Storybook UI in the same tab: the story is answered by the mock (4 tries)', async () => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const page = await context.newPage()
      await page.goto(`${storybook.origin}/iframe.html?id=plants-plantlist--seeded`)
      expect(await story(page)).toEqual({ status: '200', mocked: 'true' })

      await page.goto(`${storybook.origin}/`)
      expect(await story(await previewFrame(page))).toEqual({ status: '200', mocked: 'true' })
      // And the next story, in the same preview document: the mock still answers.
      const frame = await previewFrame(page)
      expect(
        await frame.evaluate(async () => (await fetch('/plants', { headers: { authorization: 'Bearer x' } })).status),
      ).toBe(401)
      await page.close()
    }
    expect(warnings).toEqual([])
  })

  test('a worker that runs but does not control the page: start() is false and one warning says so', async () => {
    const page = await context.newPage()
    // Registered for another scope: the page is never under it, reloaded or not.
    await page.goto(`${storybook.origin}/iframe.html?scope=/elsewhere/`)
    expect(await story(page)).toEqual({ status: '404', mocked: 'false' })
    expect(warnings).toEqual([
      expect.stringMatching(
        /^\[plant-store-mock\] The Plant Store mock is off: its service worker runs but does not control this page/,
      ),
    ])
  })
})
