/**
 * The live inspector at /__sandbox/ in real Chromium: a tenant's plants,
 * fault rules and live requests, never another tenant's, responsive with a
 * busy tenant, and the token never in a URL sent to the server; its contract
 * coverage grid, each exchange in full, and the controls a write token gets
 * (fault rules, clearing the journal, a reset), which a read-only one does not.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest'
import { SandboxClient, type SandboxTenant } from '../../src/client/index.ts'
import { createApp } from '../../src/server/index.ts'
import { type Listening, listen } from '../server/support.ts'
import { launchChromium, saveScreenshot } from './harness.ts'
import { inspectorHasSeen } from './inspector-page.ts'

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
  // How fast the page answers meanwhile is a benchmark's figure (bench/inspector.ts), not asserted here.
  const busy = await client.provision({ plants: 3 })
  const { page, problems } = await openInspector(busy.tokens.read)
  const total = 3000
  const shownRows: number[] = []
  let sending = true
  const probing = (async () => {
    // The page keeps answering while the tenant is busy, and never shows more than its 200 rows.
    while (sending) {
      shownRows.push(await page.evaluate(() => document.querySelectorAll('#tail tbody tr').length))
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  for (let sent = 0; sent < total; sent += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, i) => send(busy, 'GET', `/plants?limit=${(sent + i) % 3}`)))
  }
  await inspectorHasSeen(page, total)
  sending = false
  await probing

  expect(await page.$$eval('#tail tbody tr', (trs) => trs.length)).toBe(200)
  expect(shownRows.length).toBeGreaterThan(0)
  expect(Math.max(...shownRows)).toBeLessThanOrEqual(200)
  expect(problems).toEqual([])
  await saveScreenshot(page, 'inspector-busy-tenant')
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

/** The coverage grid's cell of an operation's status. */
const coverageCell = (operation: string, status: number) =>
  `#coverage tr[data-operation="${operation}"] td[data-status="${status}"]`

/** Waits until the grid counts `hits` for an operation's status. */
async function waitForHits(page: Page, operation: string, status: number, hits: number) {
  await page.waitForSelector(`${coverageCell(operation, status)}[data-hits="${hits}"]`)
}

test('shows the tenant’s contract coverage, counting a hit as soon as a request provokes it, with the causes of a status', async () => {
  const shop = await client.provision({ plants: 2 })
  const { page, problems } = await openInspector(shop.tokens.write)
  await waitForHits(page, 'listPlants', 200, 0)
  expect(await page.textContent('#coverage-summary')).toMatch(/^\(0 of \d+ answers, 0%\)$/)

  await send(shop, 'GET', '/plants')
  await send(shop, 'POST', '/plants', { headers: { 'content-type': 'application/json' }, body: '{"id":9}' })
  await waitForHits(page, 'listPlants', 200, 1)
  await waitForHits(page, 'addPlant', 400, 1)

  const invalid = await page.$eval(coverageCell('addPlant', 400), (td) => ({
    text: td.textContent,
    title: (td as HTMLElement).title,
    className: td.className,
  }))
  expect(invalid.text).toBe('1name 1')
  expect(invalid.title).toContain('name: 1')
  expect(invalid.className).toContain('hit')
  expect(await page.$eval(coverageCell('deletePlant', 204), (td) => td.className)).toContain('miss')
  // A status an operation does not declare has an empty cell.
  expect(await page.$$eval('#coverage td.undeclared', (cells) => cells.length)).toBeGreaterThan(0)
  expect(await page.textContent('#coverage-summary')).toMatch(/^\(2 of \d+ answers/)
  expect(problems).toEqual([])
  await saveScreenshot(page, 'inspector-coverage')
})

test('shows an exchange in full on a click: request and response headers and bodies, the token redacted', async () => {
  const shop = await client.provision({ plants: 1 })
  const { page, problems } = await openInspector(shop.tokens.write)
  await send(shop, 'POST', '/plants', {
    headers: { 'content-type': 'application/json', 'x-request-id': 'inspector-detail-1' },
    body: '{"id":3,"name":"Fig","tag":"indoor"}',
  })
  await page.click('#tail tbody tr[data-id="inspector-detail-1"]')
  await page.waitForSelector('#exchange[open]')

  expect(await page.textContent('#exchange-title')).toBe('POST /plants')
  expect(await page.textContent('#exchange-meta')).toContain('inspector-detail-1')
  const headers = (table: string) =>
    page.$$eval(`${table} tbody tr`, (trs) =>
      Object.fromEntries(trs.map((tr) => [tr.children[0]?.textContent, tr.children[1]?.textContent])),
    )
  const sent = await headers('#request-headers')
  expect(sent.authorization).toBe('Bearer [redacted]')
  expect(sent['content-type']).toBe('application/json')
  expect(JSON.parse((await page.textContent('#request-body')) ?? '')).toEqual({ id: 3, name: 'Fig', tag: 'indoor' })
  expect(await page.textContent('#response-line')).toBe('200')
  expect((await headers('#response-headers'))['content-type']).toBe('application/json')
  expect(JSON.parse((await page.textContent('#response-body')) ?? '')).toEqual({ name: 'Fig', tag: 'indoor' })
  // The request body is shown indented, as JSON is easier read.
  expect(await page.textContent('#request-body')).toContain('\n  "name": "Fig"')
  expect(await page.content()).not.toContain(shop.tokens.write)
  await saveScreenshot(page, 'inspector-exchange-detail')

  await page.keyboard.press('Escape')
  await page.waitForSelector('#exchange:not([open])', { state: 'attached' })
  expect(problems).toEqual([])
})

test('adds a fault rule from its form, which the next API call gets, says why the sandbox refuses a bad one, and removes it', async () => {
  const shop = await client.provision({ plants: 1 })
  const { page, problems } = await openInspector(shop.tokens.write)
  await page.selectOption('#add-fault [name=method]', 'GET')
  await page.fill('#add-fault [name=path]', '/plants')
  await page.fill('#add-fault [name=status]', '503')
  await page.click('#add-fault button[type=submit]')
  await page.waitForFunction(() => document.querySelectorAll('#faults tbody tr').length === 1)
  expect(await page.textContent('#faults tbody tr')).toContain('GET /plants')
  expect(await send(shop, 'GET', '/plants')).toBe(503)
  expect(await send(shop, 'GET', '/plants')).toBe(503)
  // listPlants declares 503 (storage unavailable): the grid counts it in its cell, nothing apart.
  await waitForHits(page, 'listPlants', 503, 2)
  expect(await page.textContent('#coverage-extra')).not.toContain('listPlants 503')

  // The server checks the rule: its Error message is shown as it is.
  const refused = await fetch(`${origin}/__sandbox/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shop.tokens.write}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 503, times: 0 }),
  })
  expect(refused.status).toBe(400)
  const { message } = (await refused.json()) as { message: string }
  await page.fill('#add-fault [name=status]', '503')
  await page.fill('#add-fault [name=times]', '0')
  await page.click('#add-fault button[type=submit]')
  await page.waitForSelector('#control-error:not([hidden])')
  expect(await page.textContent('#control-error')).toBe(`400: ${message}`)
  await saveScreenshot(page, 'inspector-fault-form')

  await page.click('#faults tbody tr button.remove')
  await page.waitForSelector('#faults-empty:not([hidden])')
  expect(await send(shop, 'GET', '/plants')).toBe(200)
  expect(await shop.faults.list()).toEqual([])
  // Chromium logs the refused request itself; the page threw nothing.
  expect(problems).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
})

test('clears the journal and resets the tenant from its controls', async () => {
  const shop = await client.provision({ plants: [{ id: 1, name: 'Monstera' }] })
  const { page, problems } = await openInspector(shop.tokens.write)
  await send(shop, 'POST', '/plants', {
    headers: { 'content-type': 'application/json' },
    body: '{"id":2,"name":"Fig"}',
  })
  await send(shop, 'GET', '/plants')
  await page.waitForFunction(() => document.querySelectorAll('#tail tbody tr').length === 2)
  await page.waitForFunction(() => document.querySelectorAll('#plants li').length === 2)
  await waitForHits(page, 'listPlants', 200, 1)

  await page.click('#clear-journal')
  await page.waitForFunction(() => document.querySelectorAll('#tail tbody tr').length === 0)
  await waitForHits(page, 'listPlants', 200, 0)
  const journal = await fetch(`${origin}/__sandbox/requests`, {
    headers: { authorization: `Bearer ${shop.tokens.read}` },
  })
  expect(((await journal.json()) as { count: number }).count).toBe(0)
  // The plants stay: clearing the journal is not a reset.
  expect(await page.$$eval('#plants li', (items) => items.length)).toBe(2)

  await send(shop, 'GET', '/plants')
  await page.waitForFunction(() => document.querySelectorAll('#tail tbody tr').length === 1)
  await page.click('#reset')
  await page.waitForFunction(() => document.querySelectorAll('#plants li').length === 1)
  expect(await page.textContent('#plants li')).toBe('#1 Monstera')
  await waitForHits(page, 'listPlants', 200, 0)
  expect(await page.$$eval('#tail tbody tr', (trs) => trs.length)).toBe(0)
  expect(await send(shop, 'DELETE', '/plants/2')).toBe(404)
  expect(problems).toEqual([])
})

test('shows a read-only token no controls', async () => {
  const shop = await client.provision({ plants: 1 })
  await shop.faults.add({ method: 'DELETE', path: '/plants/{id}', status: 500 })
  const { page, problems } = await openInspector(shop.tokens.read)
  await page.waitForFunction(() => document.querySelectorAll('#faults tbody tr').length === 1)
  expect(await page.$$eval('.control', (nodes) => nodes.length)).toBeGreaterThan(0)
  expect(
    await page.$$eval('.control, #faults button', (nodes) => nodes.filter((node) => node.checkVisibility()).length),
  ).toBe(0)
  expect(await page.textContent('#state')).toContain('read-only token')
  await saveScreenshot(page, 'inspector-read-only')

  // The same page given a write token shows them.
  await page.fill('#token', shop.tokens.write)
  await page.click('#connect button[type=submit]')
  await page.waitForSelector('#add-fault:not([hidden])')
  expect(await page.$$eval('#faults button.remove', (buttons) => buttons.length)).toBe(1)
  expect(problems).toEqual([])
})
