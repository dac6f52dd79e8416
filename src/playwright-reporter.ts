/**
 * `plant-store-mock/playwright/reporter`: contract coverage for a whole
 * Playwright run (every test, every worker) as one table, with a threshold
 * that fails the run. The reporter names a run folder to the workers; each
 * `routePlantStore` (and so each test of `plantStoreFixtures`) adds its
 * answers to its worker's collector, written there as the test's store is
 * unrouted; the reporter merges the files when the run ends.
 */
import { stripVTControlCharacters } from 'node:util'
import type { FullResult, Reporter, TestError } from '@playwright/test/reporter'
import { CoverageThresholdError } from './coverage-report.ts'
import { CoverageRun, type SuiteCoverageOptions } from './coverage-run.ts'

export type { CoverageReport } from './core/coverage.ts'
export type { CoverageRunResult, SuiteCoverageOptions } from './coverage-run.ts'

/**
 * A Playwright reporter that prints one contract coverage table for the
 * whole run, writes it as JSON when `json` names a file, and fails the run
 * when `min` or `require` is not met. Add it beside Playwright's own reporter.
 *
 * @example
 * // playwright.config.ts
 * import { defineConfig } from '@playwright/test'
 *
 * export default defineConfig({
 *   reporter: [['list'], ['plant-store-mock/playwright/reporter', { min: 40, require: ['addPlant 409'], json: 'coverage/e2e.json' }]],
 * })
 */
export default class PlantStoreCoverageReporter implements Reporter {
  readonly #options: SuiteCoverageOptions
  readonly #run: CoverageRun
  /** Tests that ended, and the first error Playwright reported outside a test (a web server that never started). */
  #ended = 0
  #firstError: string | undefined

  /** Names the run folder to the workers, which Playwright starts after its reporters. */
  constructor(options: SuiteCoverageOptions = {}) {
    this.#options = options
    this.#run = CoverageRun.start()
  }

  /** Playwright's own reporter keeps the terminal: this one only adds the table at the end. */
  printsToStdio(): boolean {
    return false
  }

  /** Counts each test that ended. */
  onTestEnd(): void {
    this.#ended++
  }

  /** Keeps the first error Playwright reports outside a test. */
  onError(error: TestError): void {
    this.#firstError ??= (error.message ?? error.value ?? '').split('\n')[0]
  }

  /**
   * Merges the workers' files, prints the table, and fails the run below the
   * threshold. When no test ran (the `webServer` never started, a global
   * set-up failed), it prints one line with the real error instead of a
   * table of nothing; the run fails on that error.
   */
  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    if (this.#ended === 0 && !this.#run.hasFiles()) {
      this.#run.remove()
      const why = this.#firstError ? ` (${stripVTControlCharacters(this.#firstError)})` : ''
      console.error(`plant-store-mock: no test ran${why}, so there is no contract coverage to report.`)
      return undefined
    }
    let shortfalls: readonly string[]
    try {
      ;({ shortfalls } = this.#run.finish(
        this.#options,
        'no test answered a Plant Store request through routePlantStore',
      ))
    } finally {
      this.#run.remove()
    }
    if (shortfalls.length === 0) return undefined
    console.error(new CoverageThresholdError(shortfalls).message)
    return { status: result.status === 'passed' ? 'failed' : result.status }
  }
}

export { PlantStoreCoverageReporter }
