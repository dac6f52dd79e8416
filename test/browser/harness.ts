/**
 * What the browser tests share: the example app built once with Vite and
 * served on a loopback port, the Chromium the global setup found (the
 * system's, or the one shipped in `@sparticuz/chromium`) driven by
 * playwright-core, and a page object that drives the app the way a person does.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build, type PreviewServer, preview } from 'vite'
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest'
import { toPlant } from '../../src/core/schemas.ts'
import { createCore, createPlantStore } from '../../src/index.ts'
import { startChromium } from './chromium.ts'
import { artifactsDir } from './global-setup.ts'
import type { ExampleSite } from './stored-world-pages.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const configFile = join(projectRoot, 'example/vite.config.ts')

export type { ExampleSite } from './stored-world-pages.ts'
export { serveStoredWorldPages } from './stored-world-pages.ts'

/** Builds the example app into a temporary folder and serves it with `vite preview` on 127.0.0.1, port 0. */
export async function serveExample(): Promise<ExampleSite> {
  const outDir = await mkdtemp(join(tmpdir(), 'plant-store-example-'))
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  const server: PreviewServer = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  })
  const address = server.httpServer.address()
  if (address === null || typeof address === 'string') throw new Error('vite preview is not listening on a port')
  return {
    origin: `http://127.0.0.1:${address.port}`,
    async close() {
      await server.close()
      await rm(outDir, { recursive: true, force: true })
    },
  }
}

/** Launches the Chromium the global setup chose, headless, with a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return startChromium(inject('chromium'))
}

/** What {@link exampleSiteInChromium} gives a test file. */
export interface ExampleSiteInChromium {
  readonly site: ExampleSite
  readonly browser: Browser
  /** A new context for each test, closed after it. */
  readonly context: BrowserContext
}

/**
 * Serves the example site and launches Chromium once for the file (both
 * closed after it), with a fresh context for each test: no service worker,
 * storage or cache carries over. Call it at the top of a test file.
 *
 * @example
 * const chromium = exampleSiteInChromium()
 * test('…', async () => { await chromium.context.newPage() })
 */
export function exampleSiteInChromium(): ExampleSiteInChromium {
  let site: ExampleSite | undefined
  let browser: Browser | undefined
  let context: BrowserContext | undefined
  beforeAll(async () => {
    ;[site, browser] = await Promise.all([serveExample(), launchChromium()])
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })
  beforeEach(async () => {
    context = await browser?.newContext()
  })
  afterEach(async () => {
    await context?.close()
  })
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${what} is not started: use it inside a test.`)
    return value
  }
  return {
    get site() {
      return started(site, 'example site')
    },
    get browser() {
      return started(browser, 'browser')
    },
    get context() {
      return started(context, 'browser context')
    },
  }
}

/** Saves a full-page screenshot under `test-results/browser/`. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true })
  const path = join(artifactsDir, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

export interface ShownError {
  status: string
  message: string
}

export interface ShownPlant {
  name: string
  tag?: string
}

/** The example app in one tab, driven through its form fields and buttons. */
export class ExampleApp {
  readonly page: Page

  private constructor(page: Page) {
    this.page = page
  }

  /** Opens the app (MSW unless `api` is given) and waits for its first list to load. */
  static async open(
    context: BrowserContext,
    origin: string,
    options: { token?: string; api?: string } = {},
  ): Promise<ExampleApp> {
    const app = new ExampleApp(await context.newPage())
    const search = new URLSearchParams()
    if (options.api !== undefined) search.set('api', options.api)
    if (options.token !== undefined) search.set('token', options.token)
    await app.settle(() => app.page.goto(`${origin}/?${search}`))
    return app
  }

  /** Loads the plants with this token in the field (empty: no token). */
  async load(token: string): Promise<void> {
    await this.page.fill('#token', token)
    await this.settle(() => this.page.click('#session button'))
  }

  /** Fills the create form and submits it. */
  async create(plant: { id: string; name: string; tag?: string }): Promise<void> {
    await this.page.fill('#create [name=id]', plant.id)
    await this.page.fill('#create [name=name]', plant.name)
    await this.page.fill('#create [name=tag]', plant.tag ?? '')
    await this.settle(() => this.page.click('#create button'))
  }

  /** Deletes by the id typed into the delete form. */
  async delete(id: string): Promise<void> {
    await this.page.fill('#delete [name=id]', id)
    await this.settle(() => this.page.click('#delete button'))
  }

  /** Reloads the tab and waits for the app to load its list again. */
  async reload(): Promise<void> {
    await this.settle(() => this.page.reload())
  }

  /** The plants the list shows on screen (items that are rendered and not hidden), in order. */
  plants(): Promise<ShownPlant[]> {
    return this.page.$$eval('#plants li', (items) =>
      items
        .filter((item) => item.checkVisibility())
        .map((item) => {
          const { name = '', tag } = (item as HTMLElement).dataset
          return tag === undefined ? { name } : { name, tag }
        }),
    )
  }

  /** The Error the app shows, or `null` when it shows none. */
  async error(): Promise<ShownError | null> {
    if (await this.page.isHidden('#error')) return null
    return {
      status: (await this.page.textContent('#error-status')) ?? '',
      message: (await this.page.textContent('#error-message')) ?? '',
    }
  }

  /** The script URL of the service worker controlling the tab, or `null`. */
  controller(): Promise<string | null> {
    return this.page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)
  }

  /** Runs an action and waits until the app has finished one more request cycle. */
  private async settle(action: () => Promise<unknown>): Promise<void> {
    const before = await this.page
      .evaluate(() => document.querySelector('main')?.dataset.revision ?? '0')
      .catch(() => '0') // before the first navigation there is no page to ask
    await action()
    await this.page.waitForFunction((previous) => {
      const revision = document.querySelector('main')?.dataset.revision
      return revision !== undefined && revision !== '0' && revision !== previous
    }, before)
  }
}

/**
 * The Error body the Plant Store answers for a request, computed in Node by
 * the same core the browser runs, so a test can say what the page must show.
 */
export async function expectedError(request: {
  method: string
  path: string
  token?: string
  json?: unknown
}): Promise<ShownError> {
  const body = request.json === undefined ? new Uint8Array(0) : new TextEncoder().encode(JSON.stringify(request.json))
  const headers: Record<string, string> = {}
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`
  if (request.json !== undefined) headers['content-type'] = 'application/json'
  const answer = await createCore(createPlantStore())({
    method: request.method,
    path: request.path,
    query: '',
    header: (name) => headers[name] ?? null,
    readBody: async () => body,
  })
  const error = JSON.parse(answer.body ?? 'null') as { error: number; message: string }
  return { status: String(error.error), message: error.message }
}

/** The seeded plants of a fixture tenant, as the list shows them. */
export async function seededPlants(tenantId: string): Promise<ShownPlant[]> {
  const store = createPlantStore()
  await store.ready
  return store.listPlants(tenantId).map(toPlant)
}
