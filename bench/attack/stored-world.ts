/**
 * Issue 35, F14: the browser's stored world (`setupPlantStoreWorker({
 * persist: true })`) against other pages of its origin, in real Chromium
 * (the browser tests' page, `test/browser/pages/stored-world-page.ts`, built
 * with Vite from the sources). Any page of the origin can post to the tabs'
 * `BroadcastChannel` and share their `localStorage`: the audit saw `null`,
 * `"x"` and `42` throw uncaught TypeErrors in every tab, two apps of one
 * origin discard each other's stored world, and `plantsPerTenant:
 * 1_000_000` block the page 3.4 s and add 447 MB. A tool attack: no sandbox,
 * no victim; its RSS is the largest Chromium renderer's, from `/proc`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { defaultStorageKey } from '../../src/browser/stored-world.ts'
import { findChromium, startChromium } from '../../test/browser/chromium.ts'
import { serveStoredWorldPages } from '../../test/browser/stored-world-pages.ts'
import { residentBytes } from './sandbox-process.ts'
import type { ToolAttack } from './tool-attack.ts'

/** What a hostile page posts on the tabs' channel: none of it is a message of the tabs. */
const junk: readonly unknown[] = [
  null,
  'x',
  42,
  [],
  {},
  { tenantId: 5 },
  { tenantId: null },
  { all: 'yes' },
  { all: false },
  { tenantId: 'acme', more: 1 },
]

/** What the attack adds to each tab: how many messages it has heard on the tabs' channel. */
interface Heard {
  junkSeen(): number
}

/** The page's JS heap may grow this much for a refused set-up (after a garbage collection). */
const heapGrowthBudgetMb = 16

/** The stored-world attack. */
export function storedWorldAttack(): ToolAttack {
  return {
    kind: 'tool',
    id: 'stored-world',
    name: 'browser stored world: hostile pages of its origin',
    summary: `${junk.length} junk channel messages (null, "x", 42, …) to 3 tabs; two apps with other baseUrls; plantsPerTenant 1,000,000`,
    rssBudgetMb: 350,
    budget: `0 page errors; each app keeps its world; quota_exceeded, heap +≤ ${heapGrowthBudgetMb} MB`,
    timeLimitMs: 180_000,
    async run({ ceilingMb }) {
      const pages = await serveStoredWorldPages()
      let browser: Browser | undefined
      const renderers = rendererSampler(ceilingMb, () => void browser?.close().catch(() => undefined))
      try {
        browser = await startChromium(await findChromium())
        const origin = pages.origin
        const channel = await hostileMessages(browser, origin)
        const apps = await twoApps(browser, origin)
        const seeded = await hugeSeed(browser, origin)
        const passedCeiling = renderers.passedCeiling()
        return {
          peakRssMb: renderers.peakMb(),
          peakHeapMb: seeded.heapAfterMb,
          checks: [
            ...(passedCeiling
              ? [{ ok: false, text: `a renderer passed the ceiling of ${ceilingMb} MB: Chromium closed` }]
              : []),
            {
              ok: channel.errors.every((count) => count === 0),
              text: `uncaught page errors per tab once each had heard the ${junk.length} junk messages: ${channel.errors.join(', ')} (budget 0)`,
            },
            {
              ok: apps.a.includes(500) && apps.b.includes(600),
              text: `two apps of one origin (baseUrl https://a.example, seed 1 / https://b.example, seed 2), each wrote a plant, reloaded: A has [${apps.a.join(', ')}], B has [${apps.b.join(', ')}] (budget: A keeps 500, B keeps 600)`,
            },
            {
              ok: seeded.code === 'quota_exceeded',
              text: `plantsPerTenant 1,000,000: ${seeded.code === undefined ? (seeded.error ?? 'set up, not refused') : `refused, ${seeded.code}`} (budget: quota_exceeded at set-up)`,
            },
            {
              ok: seeded.heapAfterMb - seeded.heapBeforeMb <= heapGrowthBudgetMb,
              text: `the page's JS heap ${seeded.heapBeforeMb.toFixed(1)} → ${seeded.heapAfterMb.toFixed(1)} MB after the set-up (budget +${heapGrowthBudgetMb} MB)`,
            },
          ],
          facts: [
            `the set-up of 1,000,000 plants per tenant took ${seeded.setUpMs.toFixed(0)} ms in the page`,
            ...(seeded.error ? [`the page said: ${seeded.error.slice(0, 200)}`] : []),
            ...(channel.messages.length > 0 ? [`first page error: ${channel.messages[0]?.slice(0, 200)}`] : []),
            `console warnings while the two apps reloaded: ${apps.warnings.length}${apps.warnings[0] ? ` (${apps.warnings[0].slice(0, 160)})` : ''}`,
          ],
        }
      } finally {
        renderers.stop()
        await browser?.close().catch(() => undefined)
        await pages.close()
      }
    },
  }
}

/** Rejects when a step of the attack takes longer than `ms` (a page's `evaluate` has no timeout of its own). */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** Opens a page of the origin at `path` and sets its mock up with these options. */
async function openApp(
  context: BrowserContext,
  url: string,
  options: Parameters<Window['setUpMock']>[0],
): Promise<{ page: Page; result: Awaited<ReturnType<Window['setUpMock']>> }> {
  const page = await context.newPage()
  await page.goto(url)
  await page.waitForFunction(() => typeof window.setUpMock === 'function')
  const result = await bounded(
    page.evaluate((given) => window.setUpMock(given), options),
    60_000,
    'setting the mock up',
  )
  return { page, result }
}

/**
 * Three tabs with `persist: true` and a stored world (each tab's store reads
 * it when told of a change); the third posts the junk on a channel of the
 * tabs' name, so its own store hears it too. Each tab counts the messages on
 * a channel it opened after its store's: a channel's messages are queued to
 * its listeners in the order they were opened, so once a tab counted all of
 * them, its store's listener has run for each.
 */
async function hostileMessages(browser: Browser, origin: string): Promise<{ errors: number[]; messages: string[] }> {
  const context = await browser.newContext()
  try {
    const tabs: Page[] = []
    const errors: number[] = []
    const messages: string[] = []
    for (let i = 0; i < 3; i++) {
      const { page } = await openApp(context, `${origin}/`, { persist: true })
      const index = i
      errors.push(0)
      page.on('pageerror', (error) => {
        errors[index] = (errors[index] ?? 0) + 1
        messages.push(String(error))
      })
      tabs.push(page)
    }
    const attacker = tabs[2] as Page
    await tabs[0]?.evaluate(() => window.addPlant(900))
    for (const tab of tabs) {
      await tab.evaluate((key) => {
        const counter = new BroadcastChannel(key)
        let seen = 0
        counter.onmessage = () => {
          seen++
        }
        Object.assign(window, { junkCounter: counter, junkSeen: () => seen })
      }, defaultStorageKey)
      // localStorage reaches another tab's renderer a moment after the write: the store must see the world first.
      await tab.waitForFunction((key) => localStorage.getItem(key) !== null, defaultStorageKey, {
        timeout: 10_000,
        polling: 100,
      })
    }
    await attacker.evaluate(
      ([key, posted]) => {
        const channel = new BroadcastChannel(key)
        for (const message of posted) channel.postMessage(message)
      },
      [defaultStorageKey, junk] as const,
    )
    for (const tab of tabs) {
      await tab.waitForFunction((count) => (window as unknown as Heard).junkSeen() === count, junk.length, {
        timeout: 10_000,
        polling: 100,
      })
    }
    return { errors, messages }
  } finally {
    await context.close()
  }
}

/** Two apps of one origin (`/a/`, `/b/`) with the default key and other base URLs and seeds; each writes, then reloads. */
async function twoApps(browser: Browser, origin: string): Promise<{ a: number[]; b: number[]; warnings: string[] }> {
  const context = await browser.newContext()
  const warnings: string[] = []
  context.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  try {
    const optionsA = { persist: true, baseUrl: 'https://a.example', seed: 1 }
    const optionsB = { persist: true, baseUrl: 'https://b.example', seed: 2 }
    const a = await openApp(context, `${origin}/a/`, optionsA)
    await a.page.evaluate(() => window.addPlant(500))
    const b = await openApp(context, `${origin}/b/`, optionsB)
    await b.page.evaluate(() => window.addPlant(600))
    const reloaded = async ({ page }: { page: Page }, options: typeof optionsA) => {
      await page.reload()
      await page.waitForFunction(() => typeof window.setUpMock === 'function')
      const result = await bounded(
        page.evaluate((given) => window.setUpMock(given), options),
        60_000,
        'setting the mock up',
      )
      return 'ids' in result ? result.ids : []
    }
    return { a: await reloaded(a, optionsA), b: await reloaded(b, optionsB), warnings }
  } finally {
    await context.close()
  }
}

/** `plantsPerTenant: 1_000_000` with `persist: true`: what the set-up answers, how long it took, the heap around it. */
async function hugeSeed(
  browser: Browser,
  origin: string,
): Promise<{ code?: string; error?: string; setUpMs: number; heapBeforeMb: number; heapAfterMb: number }> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => typeof window.setUpMock === 'function')
    const cdp = await context.newCDPSession(page)
    const heapMb = async () => {
      await cdp.send('HeapProfiler.collectGarbage')
      const { usedSize } = await cdp.send('Runtime.getHeapUsage')
      return usedSize / 1e6
    }
    const heapBeforeMb = await heapMb()
    const { result, ms } = await bounded(
      page.evaluate(async () => {
        const started = performance.now()
        const result = await window.setUpMock({ persist: true, plantsPerTenant: 1_000_000 })
        return { result, ms: performance.now() - started }
      }),
      120_000,
      'the set-up of 1,000,000 plants per tenant',
    )
    const heapAfterMb = await heapMb()
    return {
      ...('error' in result ? { error: result.error, ...(result.code ? { code: result.code } : {}) } : {}),
      setUpMs: ms,
      heapBeforeMb,
      heapAfterMb,
    }
  } finally {
    await context.close()
  }
}

/**
 * Samples the resident memory of this process's Chromium renderers from
 * `/proc` every 200 ms: the peak of the largest; `onCeiling` once one passes
 * the ceiling.
 */
function rendererSampler(
  ceilingMb: number,
  onCeiling: () => void,
): { peakMb: () => number; passedCeiling: () => boolean; stop: () => void } {
  let peak = 0
  let passed = false
  const sample = () => {
    for (const pid of rendererPids()) {
      const rss = residentBytes(pid)
      peak = Math.max(peak, rss)
      if (!passed && rss > ceilingMb * 1e6) {
        passed = true
        onCeiling()
      }
    }
  }
  const timer = setInterval(sample, 200)
  return {
    peakMb: () => peak / 1e6,
    passedCeiling: () => passed,
    stop: () => clearInterval(timer),
  }
}

/** The Chromium renderer processes descended from this process (`--type=renderer` on their command line). */
function rendererPids(): number[] {
  const parents = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // pid (comm) state ppid …: the command name may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(name), ppid)
    } catch {
      // gone since the listing
    }
  }
  const descends = (pid: number): boolean => {
    for (let at = parents.get(pid), hops = 0; at !== undefined && hops < 64; at = parents.get(at), hops++) {
      if (at === process.pid) return true
    }
    return false
  }
  return [...parents.keys()].filter((pid) => {
    if (!descends(pid)) return false
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')
    } catch {
      return false
    }
  })
}
