/**
 * Runs once before the browser tests: finds (or unpacks) the Chromium, checks
 * that it starts, says which one it is in the test output and in
 * `test-results/browser/chromium.json`, and hands it to the test files.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { type ChromiumInstall, findChromium, startChromium } from './chromium.ts'

/** The Chromium the browser tests use, and its version as the browser reports it. */
export interface TestedChromium extends ChromiumInstall {
  readonly version: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: TestedChromium
  }
}

/** Where the browser tests leave what they saw: `test-results/` is ignored by git and kept by CI as an artifact. */
export const artifactsDir = fileURLToPath(new URL('../../test-results/browser', import.meta.url))

/**
 * Vitest's global setup for the `browser` project.
 *
 * @example
 * // test/vitest.config.ts
 * { test: { name: 'browser', globalSetup: ['test/browser/global-setup.ts'] } }
 */
export default async function setup(project: TestProject): Promise<void> {
  const install = await findChromium()
  const browser = await startChromium(install)
  const tested: TestedChromium = { ...install, version: browser.version() }
  await browser.close()
  await mkdir(artifactsDir, { recursive: true })
  await writeFile(join(artifactsDir, 'chromium.json'), `${JSON.stringify(tested, null, 2)}\n`)
  process.stdout.write(`[browser tests] Chromium ${tested.version} from ${tested.source}: ${tested.executablePath}\n`)
  project.provide('chromium', tested)
}
