/**
 * The frontend entries (`.`, `./node`, `./browser`, `./playwright`) are the
 * core and thin adapters: nothing of the sandbox (`src/server`), its CLI, the
 * cluster or the contract-testing tools is in what they load, so a test file
 * or a browser build pays for none of it; nor does the msw entries' of the
 * suite-wide coverage runs (`./vitest`, `./vitest/setup`, `./playwright/reporter`),
 * which load neither. Proven on the bundle rolldown makes of each entry's
 * sources, as a user's bundler would.
 */
import { relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rolldown } from 'rolldown'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const sandboxOnly = /^src\/(server|cli|cluster|contract-testing)\//

/** The suite-wide coverage runs (files, folders, Vitest's and Playwright's reporters): only their own entries load them. */
const suiteWideOnly = /^src\/(coverage-run|vitest|vitest-setup|playwright-reporter)\.ts$/

describe.each([
  'src/index.ts',
  'src/node.ts',
  'src/browser.ts',
  'src/playwright.ts',
  'src/vitest.ts',
  'src/vitest-setup.ts',
  'src/playwright-reporter.ts',
])('%s', (entry) => {
  test('bundles with the core and its adapters, nothing of the sandbox, its CLI, the cluster or the pact tools', async () => {
    const bundle = await rolldown({
      input: resolve(root, entry),
      platform: entry === 'src/browser.ts' ? 'browser' : 'node',
      external: [/^msw/, /^@playwright\//, /^vitest/, /^node:/],
      logLevel: 'silent',
    })
    try {
      const { output } = await bundle.generate({ format: 'esm' })
      const ids = output
        .flatMap((chunk) => ('moduleIds' in chunk ? chunk.moduleIds : []))
        .map((id) => relative(root, id))
      if (!suiteWideOnly.test(entry)) expect(ids).toContain('src/core/core.ts')
      expect(ids.filter((id) => sandboxOnly.test(id))).toEqual([])
      if (['src/index.ts', 'src/node.ts', 'src/browser.ts'].includes(entry)) {
        expect(ids.filter((id) => suiteWideOnly.test(id))).toEqual([])
      }
    } finally {
      await bundle.close()
    }
  })
})
