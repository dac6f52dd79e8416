/**
 * `plant-store-mock/playwright` runs in the Playwright test process with
 * msw 3 or without msw: nothing it loads imports msw.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const entry = fileURLToPath(new URL('../../src/playwright.ts', import.meta.url))

test('loads without importing msw', async () => {
  // A child Node whose resolver refuses msw: loading the entry (and everything it imports) must not ask for it.
  const script = `
    import { registerHooks } from 'node:module'
    registerHooks({
      resolve(specifier, context, next) {
        if (specifier === 'msw' || specifier.startsWith('msw/')) throw new Error('msw imported by ' + context.parentURL)
        return next(specifier, context)
      },
    })
    const { routePlantStore, plantStoreFixtures } = await import(${JSON.stringify(entry)})
    process.stdout.write(typeof routePlantStore + ' ' + Object.keys(plantStoreFixtures).join(','))
  `
  const output = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) =>
      error ? reject(new Error(stderr)) : resolve(stdout),
    )
  })

  expect(output).toBe('function plantStoreOptions,plantStore')
})
