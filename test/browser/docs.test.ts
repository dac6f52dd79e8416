/**
 * The sandbox's API reference in real Chromium: Swagger UI's "Try it out"
 * reaches the sandbox it was served by, at `localhost` (not the contract's
 * `127.0.0.1:4010`), on a free port, and below a mount point, under the
 * docs' strict content security policy.
 */
import express from 'express'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fixtureTokens } from '../../fixtures/world.ts'
import { createApp, plantStoreRouter } from '../../src/server/index.ts'
import { type Listening, listen } from '../server/support.ts'
import { launchChromium, saveScreenshot } from './harness.ts'

let sandbox: Listening
let mounted: Listening
let browser: Browser

beforeAll(async () => {
  ;[sandbox, mounted, browser] = await Promise.all([
    listen(createApp()),
    listen(express().use('/plant-store', plantStoreRouter())),
    launchChromium(),
  ])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
  await mounted?.close()
})

/** Authorizes with a token in Swagger UI, then runs `GET /plants` with "Try it out" and reads the answer shown. */
async function tryListPlants(page: Page, token: string): Promise<{ status: string; body: string }> {
  await page.click('button.authorize')
  await page.fill('.auth-container input', token)
  await page.click('.auth-btn-wrapper button.authorize')
  await page.click('.auth-btn-wrapper button.btn-done')
  await page.click('#operations-default-listPlants .opblock-summary')
  await page.click('#operations-default-listPlants button.try-out__btn')
  await page.click('#operations-default-listPlants button.execute')
  const answer = page.locator('#operations-default-listPlants .live-responses-table .response')
  await answer.waitFor()
  return {
    status: (await answer.locator('.response-col_status').textContent())?.trim() ?? '',
    body: (await answer.locator('.response-col_description pre').first().textContent()) ?? '',
  }
}

test.each([
  ['at localhost on a free port', () => `${sandbox.base.replace('127.0.0.1', 'localhost')}/docs/`],
  ['below plantStoreRouter mounted at /plant-store', () => `${mounted.base}/plant-store/docs/`],
])('"Try it out" in the API reference reaches the sandbox %s', async (where, docsUrl) => {
  const page = await browser.newPage()
  const blocked: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text())
  })
  await page.goto(docsUrl())

  const answer = await tryListPlants(page, fixtureTokens.acme.read)

  expect(answer.status).toBe('200')
  expect(JSON.parse(answer.body)).toHaveLength(5)
  expect(blocked).toEqual([])
  await saveScreenshot(page, `docs-try-it-out-${where.includes('mounted') ? 'mounted' : 'localhost'}`)
  await page.close()
})
