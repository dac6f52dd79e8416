/** The titles of the msw behaviour tests, read from their files: what the guards look a meaning's test up in. */
import { readdirSync, readFileSync } from 'node:fs'

/**
 * The titles of the tests of each `describe('METHOD /path', …)` block of
 * the msw behaviour tests (`test/msw/*.test.ts`, or those of `folder`), by the block's title.
 *
 * @example
 * mswTestTitles().get('GET /plants') // ['answers 200 with …', …]
 */
export function mswTestTitles(folder = new URL('../msw/', import.meta.url)): Map<string, string[]> {
  const titlesByBlock = new Map<string, string[]>()
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.test.ts'))) {
    const source = readFileSync(new URL(file, folder), 'utf8')
    for (const block of source.split(/^(?=describe\()/m)) {
      const title = /^describe\('([^']+)'/.exec(block)?.[1]
      if (title === undefined) continue
      // A title in any of the three quotes (a title with an apostrophe takes double ones).
      const titles = [...block.matchAll(/(['"`])((?:(?!\1)[^\n])+)\1,\s*(?:async\s*)?\(/g)].map(
        ([, , text]) => text ?? '',
      )
      titlesByBlock.set(title, [...(titlesByBlock.get(title) ?? []), ...titles])
    }
  }
  return titlesByBlock
}
