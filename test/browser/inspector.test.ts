/**
 * The live inspector at /__sandbox/ in real Chromium: a tenant's plants,
 * fault rules and live requests, never another tenant's, responsive with a
 * busy tenant, and the token never in a URL sent to the server.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest'
import { SandboxClient, type SandboxTenant } from '../../src/client/index.ts'
import { createApp } from '../../src/server/index.ts'
import { type Listening, listen } from '../server/support.ts'
import { launchChromium, saveScreenshot } from './harness.ts'

let sandbox: Listening
let origin: string
let browser: Browser
let context: BrowserContext
let client: SandboxClient

beforeAll(async () => {
  ;[sandbox, browser] = await Promise.all([listen(createApp()), launchChromium()])
  origin = sandbox.base
  client = new SandboxClient({ baseUrl: origin })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
})
afterEach(async () => {
  await context.close()
})

/** Sends one API request as the tenant (from Node, as the tenant's app would). */
async function send(tenant: SandboxTenant, method: string, path: string, init: RequestInit = {}) {
  const headers = { authorization: `Bearer ${tenant.tokens.write}`, ...(init.headers as Record<string, string>) }
  return fetch(`${origin}${path}`, { ...init, method, headers }).then(
    (response) => response.status,
    () => 0,
  )
}

/** Opens the inspector with the token in the fragment, recording every URL the page asks for. */
async function openInspector(token: string): Promise<{ page: Page; urls: string[]; problems: string[] }> {
  const page = await context.newPage()
  const urls: string[] = []
  const problems: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(`${origin}/__sandbox/#token=${token}`)
  await page.waitForSelector('#state[data-state="live"]')
  return { page, urls, problems }
}

const rows = (page: Page) =>
  page.$$eval('#tail tbody tr', (trs) =>
    trs.map((tr) => ({
      id: (tr as HTMLElement).dataset.id,
      status: (tr as HTMLElement).dataset.status,
      className: tr.className,
      text: tr.textContent ?? '',
    })),
  )

test('shows the tenant’s plants, fault rules and live requests with status colours and ids, and nothing of another tenant', async () => {
  const shop = await client.provision({
    plants: [
      { id: 1, name: 'Monstera', tag: 'tropical' },
      { id: 2, name: 'Aloe' },
    ],
  })
  const other = await client.provision({ plants: 1 })
  await shop.faults.add({ method: 'POST', path: '/plants', status: 503, times: 1 })
  await shop.faults.add({ method: 'DELETE', path: '/plants/1', fault: 'reset' })
  const { page, urls, problems } = await openInspector(shop.tokens.read)

  expect(await page.textContent('#tenant')).toBe(shop.provisioned?.tenant)
  expect(await page.$$eval('#plants li', (items) => items.map((item) => item.textContent))).toEqual([
    '#1 Monsteratropical',
    '#2 Aloe',
  ])
  expect(await page.$$eval('#faults tbody tr', (trs) => trs.length)).toBe(2)

  await send(shop, 'GET', '/plants', { headers: { 'x-request-id': 'inspector-list-1' } })
  await send(shop, 'POST', '/plants', {
    headers: { 'content-type': 'application/json' },
    body: '{"id":3,"name":"Fig"}',
  })
  await send(shop, 'POST', '/plants', {
    headers: { 'content-type': 'application/json' },
    body: '{"id":3,"name":"Fig"}',
  })
  await send(shop, 'DELETE', '/plants/404')
  await send(shop, 'DELETE', '/plants/1')
  await send(other, 'DELETE', '/plants/4242')
  await page.waitForFunction(() => document.querySelectorAll('#tail tbody tr').length >= 5)
  await page.waitForFunction(() => document.querySelectorAll('#plants li').length === 3)

  const shown = await rows(page)
  expect(shown.map(({ status, className }) => [status, className])).toEqual([
    ['0', 's0'],
    ['404', 's4'],
    ['200', 's2'],
    ['503', 's5'],
    ['200', 's2'],
  ])
  expect(shown.at(-1)?.id).toBe('inspector-list-1')
  expect(shown[0]?.text).toContain('fault: reset')
  expect(shown.some(({ text }) => text.includes('/plants/4242'))).toBe(false)
  const colours = await page.$$eval('#tail tbody tr .status', (cells) =>
    cells.map((cell) => getComputedStyle(cell).color),
  )
  expect(new Set(colours).size).toBe(4)
  expect(await page.$$eval('#faults tbody tr .fired', (cells) => cells.map((cell) => cell.textContent))).toEqual([
    '1',
    '1',
  ])

  // The token never travels in a URL: the fragment is dropped from the address bar and was never sent.
  expect(page.url()).toBe(`${origin}/__sandbox/`)
  expect(urls.length).toBeGreaterThan(0)
  expect(urls.filter((url) => url.includes(shop.tokens.read))).toEqual([])
  expect(problems).toEqual([])
  await saveScreenshot(page, 'inspector-live-tail')
})

test('stays responsive with a busy tenant: bounded rows, batched updates', async () => {
  const busy = await client.provision({ plants: 3 })
  const { page, problems } = await openInspector(busy.tokens.read)
  const total = 3000
  const roundTrips: number[] = []
  let sending = true
  const probing = (async () => {
    while (sending) {
      const started = performance.now()
      await page.evaluate(() => document.querySelectorAll('#tail tbody tr').length)
      roundTrips.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  for (let sent = 0; sent < total; sent += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, i) => send(busy, 'GET', `/plants?limit=${(sent + i) % 3}`)))
  }
  await page.waitForFunction((expected) => {
    const text = document.querySelector('#tail-count')?.textContent ?? ''
    return Number(/\((\d+) seen/.exec(text)?.[1]) >= expected
  }, total)
  sending = false
  await probing

  expect(await page.$$eval('#tail tbody tr', (trs) => trs.length)).toBe(200)
  expect(Math.max(...roundTrips)).toBeLessThan(1000)
  expect(problems).toEqual([])
  await saveScreenshot(page, 'inspector-busy-tenant')
  const median = roundTrips.sort((a, b) => a - b)[roundTrips.length >> 1] ?? Number.NaN
  process.stdout.write(
    `[inspector] ${total} requests: page round trips median ${median.toFixed(1)} ms, max ${Math.max(...roundTrips).toFixed(1)} ms\n`,
  )
})

test('says why it cannot watch with a bad token, and that a deleted tenant is gone', async () => {
  const page = await context.newPage()
  await page.goto(`${origin}/__sandbox/#token=psm_not_a_real_token`)
  await page.waitForSelector('#state[data-state="error"]')
  expect(await page.textContent('#state')).toBe('401: The access token is not recognised.')
  await saveScreenshot(page, 'inspector-bad-token')

  const doomed = await client.provision({ plants: 1 })
  await page.fill('#token', doomed.tokens.read)
  await page.click('#connect button[type=submit]')
  await page.waitForSelector('#state[data-state="live"]')
  await doomed.delete()
  await page.waitForSelector('#state[data-state="gone"]')
  expect(await page.textContent('#state')).toContain('no longer exists')
})

test('switches to the tenant of a #token= link opened in a tab already showing the page', async () => {
  const first = await client.provision({ plants: 1 })
  const second = await client.provision({ plants: 2 })
  const { page, problems } = await openInspector(first.tokens.read)
  expect(await page.textContent('#tenant')).toBe(first.provisioned?.tenant)
  await page.evaluate((token) => {
    location.hash = `token=${token}`
  }, second.tokens.read)
  await page.waitForFunction(
    (tenant) => document.querySelector('#tenant')?.textContent === tenant,
    second.provisioned?.tenant,
  )
  expect(await page.$$eval('#plants li', (items) => items.length)).toBe(2)
  expect(page.url()).toBe(`${origin}/__sandbox/`)
  expect(problems).toEqual([])
})

test('keeps the fault rules within their column at 1280 px, and counts "1 time"', async () => {
  const shop = await client.provision({ plants: 1 })
  await shop.faults.add({ method: 'DELETE', path: '/plants/{id}', delayMs: 1500, status: 503, times: 1 })
  await shop.faults.add({ method: 'POST', path: '/plants', delayMs: 2500, fault: 'truncated', times: 250 })
  const { page } = await openInspector(shop.tokens.read)
  const edges = await page.evaluate(() => ({
    faults: document.querySelector('#faults')?.getBoundingClientRect().right ?? Number.NaN,
    panel: document.querySelector('#tenant-panel')?.getBoundingClientRect().right ?? Number.NaN,
    tail: document.querySelector('#tail-panel')?.getBoundingClientRect().left ?? Number.NaN,
  }))
  expect(edges.faults).toBeLessThanOrEqual(edges.panel)
  expect(edges.faults).toBeLessThan(edges.tail)
  expect(await page.$$eval('#faults tbody tr', (trs) => trs.map((tr) => tr.children[3]?.textContent))).toEqual([
    '1 time',
    '250 times',
  ])
  await saveScreenshot(page, 'inspector-fault-rules-1280')
})

test('shows the live requests, and keeps what waits bounded, when no animation frames come (a background tab)', async () => {
  const quiet = await client.provision({ plants: 1 })
  const page = await context.newPage()
  // A background tab gets no animation frames at all.
  await page.addInitScript(() => {
    window.requestAnimationFrame = () => 0
  })
  await page.goto(`${origin}/__sandbox/#token=${quiet.tokens.read}`)
  await page.waitForSelector('#state[data-state="live"]')
  for (let i = 0; i < 250; i++) await send(quiet, 'GET', `/plants?limit=${i % 3}`)
  // Polled on a timer: the page's animation frames (the default polling) are switched off.
  await page.waitForFunction(
    () => /\(250 seen/.test(document.querySelector('#tail-count')?.textContent ?? ''),
    undefined,
    { polling: 100 },
  )
  expect(await page.$$eval('#tail tbody tr', (trs) => trs.length)).toBe(200)
})
