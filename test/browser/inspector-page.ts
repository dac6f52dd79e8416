import type { Page } from 'playwright-core'

/** Waits until the inspector's live tail says it has seen at least `count` exchanges ("(N seen…"). */
export async function inspectorHasSeen(page: Page, count: number): Promise<void> {
  await page.waitForFunction((expected) => {
    const text = document.querySelector('#tail-count')?.textContent ?? ''
    return Number(/\((\d+) seen/.exec(text)?.[1]) >= expected
  }, count)
}
