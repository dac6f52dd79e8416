/** The titles of the msw behaviour tests, read from their files: what the guards look a meaning's test up in. */
import { readdirSync, readFileSync } from 'node:fs'

/**
 * The titles of the tests of each `describe('METHOD /path', …)` block of
 * the msw behaviour tests (`test/msw/*.test.ts`), by the block's title.
 *
 * @example
 * mswTestTitles().get('GET /plants') // ['answers 200 with …', …]
 */
export function mswTestTitles(): Map<string, string[]> {
  const titlesByBlock = new Map<string, string[]>()
  const folder = new URL('../msw/', import.meta.url)
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.test.ts'))) {
    const source = readFileSync(new URL(file, folder), 'utf8')
    for (const block of source.split(/^(?=describe\()/m)) {
      const title = /^describe\('([^']+)'/.exec(block)?.[1]
      if (title === undefined) continue
      const titles = [...block.matchAll(/['`]([^'`\n]+)['`],\s*(?:async\s*)?\(/g)].map(([, text]) => text ?? '')
      titlesByBlock.set(title, [...(titlesByBlock.get(title) ?? []), ...titles])
    }
  }
  return titlesByBlock
}
