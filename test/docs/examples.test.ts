/**
 * The documentation's examples that the consumer test does not run (excerpts,
 * Playwright, Jest and node:test set-ups) still name only what the package
 * exports: a renamed or removed export fails here, not in a reader's editor.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { marked, type Tokens } from 'marked'
import { describe, expect, test } from 'vitest'
import { documentationPages } from '../consumer/readme.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/** A value imported from one of the package's entry points in a code block. */
interface ImportedName {
  readonly page: string
  readonly entry: string
  readonly name: string
}

/** Static `import { a, type B } from 'plant-store-mock/x'` and `const { a } = await import('plant-store-mock/x')`. */
const importPattern =
  /(?:import\s*\{([^}]*)\}\s*from|const\s*\{([^}]*)\}\s*=\s*await\s+import\()\s*'(plant-store-mock(?:\/[a-z]+)?)'/g

/** The runtime names a code block imports from the package (type-only names left out), page by page. */
function importedNames(): ImportedName[] {
  const names: ImportedName[] = []
  for (const page of documentationPages()) {
    marked.walkTokens(marked.lexer(readFileSync(join(projectRoot, page), 'utf8')), (token) => {
      if (token.type !== 'code' || !/^(ts|js)\b/.test((token as Tokens.Code).lang ?? '')) return
      for (const match of (token as Tokens.Code).text.matchAll(importPattern)) {
        const list = match[1] ?? match[2] ?? ''
        const entry = match[3] ?? ''
        for (const part of list.split(',')) {
          const name = part.trim().split(/\s+as\s+|\s*:\s*/)[0] ?? ''
          if (name !== '' && !name.startsWith('type ')) names.push({ page, entry, name })
        }
      }
    })
  }
  return names
}

describe('the documentation’s examples', () => {
  const names = importedNames()

  test('import from the package’s entry points at least once per use', () => {
    const entries = new Set(names.map(({ entry }) => entry))

    for (const entry of ['node', 'browser', 'client', 'server', 'contracts', 'playwright']) {
      expect(entries).toContain(`plant-store-mock/${entry}`)
    }
  })

  test('import only names that those entry points export', async () => {
    const missing: string[] = []
    for (const { page, entry, name } of names) {
      const exported = (await import(entry)) as Record<string, unknown>
      if (!(name in exported)) missing.push(`${page}: ${name} from ${entry}`)
    }

    expect(missing).toEqual([])
  })
})
