/**
 * `plant-store-mock/vitest`: contract coverage for a whole Vitest run (every
 * test file, worker and pool, isolated or not) as one table, with a
 * threshold that fails the run. A reporter in Vitest's main process merges
 * what each worker's Plant Store mocks answered (`plant-store-mock/vitest/setup`,
 * in `setupFiles`, writes it after each test file).
 */
import { CoverageThresholdError } from './coverage-report.ts'
import { CoverageRun, type SuiteCoverageOptions } from './coverage-run.ts'

export type { CoverageReport } from './core/coverage.ts'
export type { CoverageRunResult, SuiteCoverageOptions } from './coverage-run.ts'

/** What the reporter uses of Vitest: its logger (typed here, so that this entry loads nothing of Vitest). */
interface VitestLike {
  readonly logger: { log(...text: unknown[]): void; error(...text: unknown[]): void }
}

/**
 * A Vitest reporter that prints one contract coverage table for the whole
 * run, writes it as JSON when `json` names a file, and fails the run (exit
 * code 1) when `min` or `require` is not met. Add it beside Vitest's own
 * reporter, and `plant-store-mock/vitest/setup` to `setupFiles`.
 *
 * @example
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 *
 * export default defineConfig({
 *   test: {
 *     setupFiles: ['plant-store-mock/vitest/setup'],
 *     reporters: ['default', ['plant-store-mock/vitest', { min: 60, require: ['addPlant 409'], json: 'coverage/plant-store.json' }]],
 *   },
 * })
 */
export default class PlantStoreCoverageReporter {
  readonly #options: SuiteCoverageOptions
  #run: CoverageRun | undefined
  #vitest: VitestLike | undefined
  /** Tests that ended (passed, failed or skipped) in this run. */
  #ended = 0

  constructor(options: SuiteCoverageOptions = {}) {
    this.#options = options
  }

  /** Makes the run folder before any worker starts. */
  onInit(vitest: VitestLike): void {
    this.#vitest = vitest
    this.#run = CoverageRun.start()
  }

  /** Each run (and a watch mode's rerun) starts from an empty run folder. */
  onTestRunStart(): void {
    this.#run?.clear()
    this.#ended = 0
  }

  /** Counts each test that ended: a run in which none did has no coverage to report. */
  onTestCaseResult(): void {
    this.#ended++
  }

  /**
   * Merges the workers' files, prints the table and fails the run below the
   * threshold. When no test ran at all (the workers could not start, every
   * file failed to load), it prints one line saying so, with Vitest's first
   * error, instead of a table of nothing: the run fails on Vitest's errors.
   */
  onTestRunEnd(_testModules?: readonly unknown[], unhandledErrors: readonly { message?: string }[] = []): void {
    const run = this.#run
    if (!run) return
    const logger = this.#vitest?.logger
    if (this.#ended === 0 && !run.hasFiles()) {
      run.remove()
      const first = unhandledErrors[0]?.message?.split('\n')[0]
      logger?.error(
        `plant-store-mock: no test ran${first ? ` (${first})` : ''}, so there is no contract coverage to report.`,
      )
      return
    }
    const print = this.#options.print ?? ((table: string) => logger?.log(`\n${table}`))
    let shortfalls: readonly string[]
    try {
      ;({ shortfalls } = run.finish(
        { ...this.#options, print },
        'tests ran, but none wrote coverage: add plant-store-mock/vitest/setup to setupFiles',
      ))
    } finally {
      // Removed until the next run (watch mode makes it again): nothing of it stays behind.
      run.remove()
    }
    if (shortfalls.length > 0) {
      logger?.error(new CoverageThresholdError(shortfalls).message)
      process.exitCode = 1
    }
  }
}

export { PlantStoreCoverageReporter }
