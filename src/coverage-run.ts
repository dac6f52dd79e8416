/**
 * Suite-wide contract coverage, for a whole test run rather than one file or
 * one test: the run's reporter (in the runner's main process) makes a run
 * folder and names it in an environment variable the workers inherit; each
 * process that answers Plant Store requests (a Vitest worker, a Playwright
 * worker) adds every answer of its mocks to one collector and writes it, as
 * a coverage report, to a file of its own in that folder; at the end the
 * reporter merges the files into one report, prints the table and fails the
 * run below the threshold. Node only.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { type CoverageReport, CoverageTally, coverageCountsSchema } from './core/coverage.ts'
import { nonSecretId } from './core/random.ts'
import {
  type CoverageCheckOptions,
  coverageShortfalls,
  coverageTable,
  type SuiteCoverageCollector,
  suiteCoverageKey,
} from './coverage-report.ts'
import { readJsonFileSync } from './json-file.ts'

/** The environment variable that names the run folder, set by the run's reporter for its workers. */
export const coverageRunVariable = 'PLANT_STORE_MOCK_COVERAGE_RUN'

/**
 * What a suite-wide run requires and where its report goes: the options of
 * `coverage.check()`. `min` and `require` fail the run when not met; `json`
 * writes the merged report (the sandbox's format, which `plant-store-mock
 * coverage` merges with other runs'); `print: false` prints no table.
 */
export type SuiteCoverageOptions = CoverageCheckOptions

/** A process's collector: the answers of every mock made while it is installed, written to its own file. */
interface RunCollector extends SuiteCoverageCollector {
  write(): void
}

type WithCollector = { [suiteCoverageKey]?: RunCollector }

/**
 * Installs this process's collector when a run folder is named (answers
 * whether there is one): every Plant Store coverage made afterwards reports
 * to it. Idempotent; what `plant-store-mock/vitest/setup` and
 * `routePlantStore` call.
 *
 * @example
 * if (joinCoverageRun()) afterAll(writeCoverageRun)
 */
export function joinCoverageRun(): boolean {
  const folder = process.env[coverageRunVariable]
  if (!folder) return false
  const global = globalThis as WithCollector
  if (global[suiteCoverageKey]) return true
  const tally = new CoverageTally()
  // One file per collector: a process (or a fresh global of an isolated test file) never overwrites another's.
  const file = join(folder, `${process.pid}-${nonSecretId(8)}.json`)
  global[suiteCoverageKey] = {
    observe: tally.observe,
    write: () => {
      try {
        writeFileSync(file, JSON.stringify(tally.report()))
      } catch (error) {
        // The run's reporter removed its folder: the run is over (a process that outlived it), nothing to add.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
    },
  }
  return true
}

/**
 * Writes this process's collected answers to its file in the run folder
 * (the whole count so far, replacing what it wrote before); nothing without
 * a collector.
 */
export function writeCoverageRun(): void {
  ;(globalThis as WithCollector)[suiteCoverageKey]?.write()
}

/** The outcome of a suite-wide run: the merged report, how many process files it merged, and what it lacks. */
export interface CoverageRunResult {
  readonly report: CoverageReport
  readonly files: number
  readonly shortfalls: readonly string[]
}

/**
 * One suite-wide coverage run, held by a reporter in the runner's main
 * process: {@link CoverageRun.start} before the workers start, then
 * {@link CoverageRun.finish} once they are done.
 *
 * @example
 * const run = CoverageRun.start()
 * // … the workers run, each joining the run …
 * const { shortfalls } = run.finish({ min: 60 })
 */
export class CoverageRun {
  readonly folder: string

  private constructor(folder: string) {
    this.folder = folder
  }

  /** Makes the run folder and names it to the workers this process starts from now on. */
  static start(): CoverageRun {
    const folder = mkdtempSync(join(tmpdir(), 'plant-store-coverage-'))
    process.env[coverageRunVariable] = folder
    return new CoverageRun(folder)
  }

  /** Forgets what earlier runs wrote (a watch mode's rerun): an empty run folder. */
  clear(): void {
    rmSync(this.folder, { recursive: true, force: true })
    mkdirSync(this.folder, { recursive: true })
  }

  /**
   * Merges the workers' files: prints the table (unless `print: false`),
   * writes the JSON report when `json` names a file, and answers what the
   * threshold lacks (empty when met). A file that is not a report (a worker
   * cut off while writing) is named in an Error.
   */
  finish(options: SuiteCoverageOptions = {}, noFiles = 'no process wrote coverage'): CoverageRunResult {
    const tally = new CoverageTally()
    const files = readdirSync(this.folder).filter((file) => file.endsWith('.json'))
    for (const file of files) {
      const path = join(this.folder, file)
      const parsed = coverageCountsSchema.safeParse(parsedJson(path))
      if (!parsed.success) throw new Error(`plant-store-mock: ${path} is not a coverage report; was a worker cut off?`)
      tally.add(parsed.data)
    }
    const report = tally.report()
    // biome-ignore lint/suspicious/noConsole: printing the table is what the run's reporter is for.
    const print = options.print ?? ((table: string) => console.info(table))
    if (print) {
      const from =
        files.length === 0
          ? `  (${noFiles})`
          : `  (one run: merged from ${files.length} process file${files.length === 1 ? '' : 's'})`
      print(`${coverageTable(report)}\n${from}`)
    }
    if (options.json !== undefined) {
      mkdirSync(dirname(options.json), { recursive: true })
      writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`)
    }
    return { report, files: files.length, shortfalls: coverageShortfalls(report, options) }
  }

  /** Whether any process wrote its file to the run folder. */
  hasFiles(): boolean {
    try {
      return readdirSync(this.folder).some((file) => file.endsWith('.json'))
    } catch {
      return false
    }
  }

  /** Removes the run folder. */
  remove(): void {
    rmSync(this.folder, { recursive: true, force: true })
  }
}

/** A run file's JSON within bounds, or `undefined` when it is not JSON, too large or nested too deeply. */
function parsedJson(path: string): unknown {
  try {
    return readJsonFileSync(path)
  } catch {
    return undefined
  }
}
