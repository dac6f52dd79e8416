import { fixtureTokens } from '../../../src/playwright.ts'
import { expect, statusOf, test } from './fixtures.ts'

test('lists the plants', async ({ page }) => {
  expect(await statusOf(page, 'GET', fixtureTokens.acme.read)).toBe(200)
})

test('is told 401 without a token', async ({ page }) => {
  expect(await statusOf(page, 'GET')).toBe(401)
})
