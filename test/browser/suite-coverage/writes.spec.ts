import { fixtureTokens } from '../../../src/playwright.ts'
import { expect, statusOf, test } from './fixtures.ts'

test('adds a plant', async ({ page }) => {
  expect(await statusOf(page, 'POST', fixtureTokens.acme.write, { id: 6, name: 'Fern' })).toBe(200)
})

test('is told 409 for an id that is taken', async ({ page }) => {
  expect(await statusOf(page, 'POST', fixtureTokens.acme.write, { id: 1, name: 'Fern' })).toBe(409)
})
