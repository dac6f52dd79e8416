/** The team's `test`: every test's context answers the Plant Store (plantStoreFixtures), and a fetch from its page. */
import { test as base, type Page } from '@playwright/test'
import { type PlantStoreFixtures, plantStoreFixtures } from '../../../src/playwright.ts'

export const test = base.extend<PlantStoreFixtures>(plantStoreFixtures)
export { expect } from '@playwright/test'

/** The status a `fetch` from the page to the API gets. */
export function statusOf(page: Page, method: string, token?: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, token, body }) => {
      const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` }
      if (body !== undefined) headers['content-type'] = 'application/json'
      const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }
      return (await fetch('https://plants.test/plants', init)).status
    },
    { method, token, body },
  )
}
