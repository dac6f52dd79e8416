/**
 * Contract coverage for test runs: the text table, thresholds (an overall
 * percentage, answers that must be covered) and the `coverage` object of
 * `setupPlantStoreServer()` / `setupPlantStoreWorker()`.
 */
import type { Outcome } from './core/core.ts'
import { type CoverageReport, CoverageTally } from './core/coverage.ts'

/**
 * Where a suite-wide coverage run (`plant-store-mock/vitest`, the Playwright
 * reporter) keeps the process's collector on `globalThis`: every
 * {@link PlantStoreCoverage} made while one is there reports to it too.
 */
export const suiteCoverageKey: unique symbol = Symbol.for('plant-store-mock.suite-coverage')

/** What a suite-wide run collects a process's answers with. */
export interface SuiteCoverageCollector {
  observe(outcome: Outcome): void
}

/** What a run must have covered; see {@link PlantStoreCoverage.check}. */
export interface CoverageThreshold {
  /** The least percentage of the contract's declared answers covered (0–100). */
  min?: number
  /**
   * Answers that must have been answered at least once, as
   * `'<operationId> <status>'` or `'<operationId> <status> <condition>'`,
   * e.g. `'addPlant 409'`, `'listPlants 401 expired token'`, `'addPlant 400 name'`.
   */
  require?: readonly string[]
}

export interface CoverageCheckOptions extends CoverageThreshold {
  /** Also write the report as JSON to this file (Node only); folders are created. */
  json?: string
  /** Where the table goes (default `console.info`); `false` prints nothing. */
  print?: ((table: string) => void) | false
}

/** Thrown by {@link PlantStoreCoverage.check} when the threshold is not met; its message lists what is missing. */
export class CoverageThresholdError extends Error {
  readonly shortfalls: readonly string[]

  constructor(shortfalls: readonly string[]) {
    super(
      `Plant Store contract coverage is below the threshold:\n${shortfalls.map((line) => `  - ${line}`).join('\n')}`,
    )
    this.name = 'CoverageThresholdError'
    this.shortfalls = shortfalls
  }
}

/**
 * What a report lacks to meet a threshold, one sentence each; empty when it
 * is met. A required answer the contract does not declare is itself a
 * shortfall (a typo must not pass silently).
 *
 * @example
 * coverageShortfalls(report, { min: 60, require: ['addPlant 409'] })
 * // ['41.7 % of the declared answers are covered; at least 60 % are required.', 'addPlant 409 was never answered.']
 */
export function coverageShortfalls(report: CoverageReport, threshold: CoverageThreshold): string[] {
  const shortfalls: string[] = []
  const { min, require = [] } = threshold
  if (min !== undefined && report.percent < min) {
    shortfalls.push(`${report.percent} % of the declared answers are covered; at least ${min} % are required.`)
  }
  for (const wanted of require) {
    const [, operationId, status, condition] = /^\s*(\w+)\s+(\d{3})(?:\s+(.+?))?\s*$/.exec(wanted) ?? []
    const operation = report.operations.find((candidate) => candidate.operationId === operationId)
    const response = operation?.responses.find((candidate) => candidate.status === Number(status))
    if (!operation || !response) {
      shortfalls.push(
        `"${wanted}" is not an answer the contract declares (write "<operationId> <status> [condition]").`,
      )
      continue
    }
    if (condition === undefined) {
      if (response.hits === 0) shortfalls.push(`${operationId} ${status} was never answered.`)
      continue
    }
    const hits = response.conditions?.find((candidate) => candidate.condition === condition)?.hits
    if (hits === undefined) {
      const known = response.conditions?.map((candidate) => candidate.condition).join(', ') || 'none'
      shortfalls.push(`"${wanted}": ${operationId} ${status} has no condition "${condition}" (it has: ${known}).`)
    } else if (hits === 0) shortfalls.push(`${operationId} ${status} (${condition}) was never answered.`)
  }
  return shortfalls
}

/**
 * The report as a text table: one line per declared answer with its hits and
 * conditions, a mark for the covered ones, then the answers outside the
 * contract.
 *
 * @example
 * console.info(coverageTable(report))
 * // Plant Store contract coverage: 5 of … declared answers (… %)   (the total is the contract's: report.total)
 * //   ✓ listPlants   GET    /plants        200      3
 * //   ✗ listPlants   GET    /plants        400      0  limit 0
 */
export function coverageTable(report: CoverageReport): string {
  const lines = [
    `Plant Store contract coverage: ${report.covered} of ${report.total} declared answers (${report.percent} %)`,
  ]
  for (const { operationId, method, path, responses } of report.operations) {
    for (const { status, hits, conditions } of responses) {
      const causes = conditions?.map(({ condition, hits }) => `${condition} ${hits}`).join(' · ') ?? ''
      const mark = hits > 0 ? '✓' : '✗'
      lines.push(
        `  ${mark} ${operationId.padEnd(12)} ${method.padEnd(6)} ${path.padEnd(14)} ${status}  ${String(hits).padStart(5)}  ${causes}`.trimEnd(),
      )
    }
  }
  const extras = (title: string, answers: CoverageReport['undocumented']) => {
    if (answers.length > 0)
      lines.push(`  ${title}: ${answers.map(({ answer, hits }) => `${answer} ×${hits}`).join(', ')}`)
  }
  extras('Outside the contract', report.undocumented)
  extras('Routed to no operation', report.unrouted)
  return lines.join('\n')
}

/** Writes text to a file, creating its folder: Node's `fs`, reached without an import so that browser builds stay clean. */
async function writeTextFile(file: string, text: string): Promise<void> {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    ?.getBuiltinModule
  if (!getBuiltin) throw new Error('Writing the coverage report to a file needs Node; read coverage.report() instead.')
  const fs = getBuiltin('node:fs/promises') as typeof import('node:fs/promises')
  const path = getBuiltin('node:path') as typeof import('node:path')
  await fs.mkdir(path.dirname(file), { recursive: true })
  await fs.writeFile(file, text)
}

/**
 * The contract coverage of the requests a test run sent to the msw handlers:
 * which of the contract's declared answers (operation × status, and the
 * causes of 400, 401 and 403) the tests provoked. `setupPlantStoreServer()`
 * and `setupPlantStoreWorker()` give one as `coverage`.
 *
 * @example
 * const { server, coverage } = setupPlantStoreServer()
 * afterAll(() => coverage.check({ min: 60, require: ['addPlant 409', 'listPlants 401'], json: 'coverage/plant-store.json' }))
 */
export class PlantStoreCoverage {
  readonly #tally = new CoverageTally()

  /**
   * The outcome listener the handlers report to (already subscribed by
   * `setupPlantStoreServer`); in a suite-wide coverage run, it reports to the
   * run's collector too, which `reset()` does not empty.
   */
  readonly observe: (outcome: Outcome) => void

  constructor() {
    const suite = (globalThis as { [suiteCoverageKey]?: SuiteCoverageCollector })[suiteCoverageKey]
    const own = this.#tally.observe
    this.observe = suite
      ? (outcome) => {
          own(outcome)
          suite.observe(outcome)
        }
      : own
  }

  /** The counts so far, as JSON-ready data (the shape of `GET /__sandbox/coverage`). */
  report(): CoverageReport {
    return this.#tally.report()
  }

  /** The counts so far as a text table. */
  table(): string {
    return coverageTable(this.report())
  }

  /** Forgets every count, e.g. between test files that share the handlers. */
  reset(): void {
    this.#tally.reset()
  }

  /**
   * For the end of a run (`afterAll` in vitest and jest, `after` in
   * node:test): prints the table, writes the JSON report when `json` names a
   * file, and rejects with a {@link CoverageThresholdError} listing what is
   * missing when the threshold is not met. Resolves to the report.
   *
   * @example
   * afterAll(() => server.coverage.check({ min: 60, require: ['addPlant 409'], json: 'coverage/plant-store.json' }))
   */
  async check(options: CoverageCheckOptions = {}): Promise<CoverageReport> {
    const report = this.report()
    // biome-ignore lint/suspicious/noConsole: printing the table is what check() is for; test runners show it with the run's output.
    const print = options.print ?? ((table: string) => console.info(table))
    if (print) print(coverageTable(report))
    if (options.json !== undefined) await writeTextFile(options.json, `${JSON.stringify(report, null, 2)}\n`)
    const shortfalls = coverageShortfalls(report, options)
    if (shortfalls.length > 0) throw new CoverageThresholdError(shortfalls)
    return report
  }
}
