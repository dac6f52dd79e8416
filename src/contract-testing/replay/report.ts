/**
 * The outcome of a replay as plain data (what `--report json` prints), and
 * its text and JUnit forms: one line per disagreement, naming the exchange
 * (its index in `log.entries`, method, path, time), the side that departs
 * and what differs. No report holds a credential, cookie or secret-looking
 * value: requests are shown by method and path (secret-looking query values
 * redacted), answers by what differs.
 */
import { xml } from '../conformance/junit-report.ts'

/**
 * Which side departs: `real`, the real service from the contract (the
 * recorded answer breaks it); `mock`, the mock from the real service (the
 * recorded answer follows the contract, and the mock, put in the state that
 * answer implies, answers otherwise).
 */
export type ReplaySide = 'real' | 'mock'

/** One exchange on which the real service, the contract and the mock disagree. */
export interface Disagreement {
  /** The exchange's index in the HAR's `log.entries`. */
  readonly index: number
  readonly method: string
  /** Path and query, secret-looking query values redacted. */
  readonly path: string
  /** When the exchange started, as the HAR says. */
  readonly time: string
  /** The contract's operation, when the request reaches one. */
  readonly operation?: string
  readonly side: ReplaySide
  /** What differs, one phrase each. */
  readonly differences: readonly string[]
}

export interface ReplayReport {
  /** The HAR replayed (a file name, or `(in memory)`). */
  readonly source: string
  /** The contract version the answers were judged by. */
  readonly contractVersion: string
  /** The Plant Store's exchanges replayed. */
  readonly exchanges: number
  /** Other entries of the HAR (other addresses, preflights, answers that never came): ignored. */
  readonly ignored: number
  /** Exchanges on which all three agree. */
  readonly agreed: number
  /** The first {@link maxReportedDisagreements} disagreements, in the HAR's order. */
  readonly disagreements: readonly Disagreement[]
  /** Disagreements beyond those: counted, not kept (a report's memory is bounded, whatever the HAR). */
  readonly omitted: number
  readonly durationMs: number
}

/** Disagreements a report keeps; more are counted in `omitted`. */
export const maxReportedDisagreements = 1000

/** How a report names each side. */
export const sideLabels: Readonly<Record<ReplaySide, string>> = {
  real: 'real service departs from contract',
  mock: 'mock departs',
}

/**
 * One line for a disagreement.
 *
 * @example
 * disagreementLine(d) // 'entry 7  POST /plants  2026-11-28T09:00:00.000Z  real service departs from contract: addPlant declares no status 201 (…)'
 */
export function disagreementLine(d: Disagreement): string {
  return `entry ${d.index}  ${d.method} ${d.path}  ${d.time || '(no time)'}  ${sideLabels[d.side]}: ${d.differences.join('; ')}`
}

/**
 * The closing line: how many exchanges were replayed and how many agree.
 *
 * @example
 * summaryLine(report) // 'Replayed 42 Plant Store exchanges of staging.har (3 other entries ignored) in 0.1 s: all agree.'
 */
export function summaryLine(report: ReplayReport): string {
  const ignored =
    report.ignored > 0 ? ` (${report.ignored} other ${report.ignored === 1 ? 'entry' : 'entries'} ignored)` : ''
  const took = `in ${(report.durationMs / 1000).toFixed(1)} s`
  const head = `Replayed ${report.exchanges} Plant Store exchanges of ${report.source}${ignored} ${took}`
  if (report.disagreements.length === 0) return `${head}: all agree.`
  const real = report.disagreements.filter((d) => d.side === 'real').length
  const mock = report.disagreements.length - real
  const sides = `${real} ${sideLabels.real}, ${mock} ${sideLabels.mock}`
  const total = report.disagreements.length + report.omitted
  const which =
    report.omitted === 0
      ? sides
      : `of the first ${report.disagreements.length}: ${sides}; ${report.omitted} more not listed`
  return `${head}: ${report.agreed} agree, ${total} disagree (${which}).`
}

/**
 * The readable report: a heading, one line per disagreement, the summary.
 *
 * @example
 * process.stdout.write(formatReplayText(report))
 */
export function formatReplayText(report: ReplayReport): string {
  return [
    `Plant Store replay of ${report.source} (contract ${report.contractVersion})`,
    ...report.disagreements.map(disagreementLine),
    summaryLine(report),
    '',
  ].join('\n')
}

/**
 * The report as JUnit XML: one failed test case per disagreeing exchange
 * (class name `plant-store.replay.<side>`), and one passed case for the
 * exchanges that agree.
 *
 * @example
 * await writeFile('replay.xml', formatReplayJunit(report))
 */
export function formatReplayJunit(report: ReplayReport): string {
  const tests = report.disagreements.length + 1
  const counts = `tests="${tests}" failures="${report.disagreements.length}" errors="0" skipped="0" time="${(report.durationMs / 1000).toFixed(3)}"`
  const cases = report.disagreements.map((d) => {
    const name = xml(`entry ${d.index}: ${d.method} ${d.path}`)
    return `    <testcase classname="plant-store.replay.${d.side}" name="${name}">\n      <failure message="${xml(`${sideLabels[d.side]}: ${d.differences.join('; ')}`)}" type="${d.side}">${xml(disagreementLine(d))}</failure>\n    </testcase>`
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="plant-store-mock replay" ${counts}>`,
    `  <testsuite name="${xml(`Plant Store replay of ${report.source}`)}" ${counts}>`,
    `    <properties>\n      <property name="contract" value="${xml(report.contractVersion)}"/>\n      <property name="exchanges" value="${report.exchanges}"/>\n      <property name="omitted" value="${report.omitted}"/>\n    </properties>`,
    `    <testcase classname="plant-store.replay" name="${report.agreed} of ${report.exchanges} exchanges agree"/>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
