/**
 * The readable report: one line per rule as it ends, then each failed rule
 * with its contract clause, the request, what was expected and what came,
 * then the score and what the cleanup did.
 */
import type { SentRequest } from './exchange.ts'
import { type ConformanceReport, type Finding, notSelected, type ReportedAnswer, type RuleResult } from './report.ts'
import { conformanceRules } from './rules/index.ts'

const idWidth = Math.max(...conformanceRules.map((rule) => rule.id.length))
const marks = { passed: '✓', failed: '✗', skipped: '-' } as const
/** Findings shown per failed rule; the rest are counted. */
const shownFindings = 5
const indent = '            '

/**
 * One line for a rule's result.
 *
 * @example
 * ruleLine(result) // '  ✗ create.success  POST /plants with a NewPlant answers 200 …'
 */
export function ruleLine(result: RuleResult): string {
  const text = result.status === 'skipped' ? `skipped: ${result.reason}` : result.title
  return `  ${marks[result.status]} ${result.id.padEnd(idWidth)}  ${text}`
}

/**
 * Whether the run was asked to check this rule: a report lists only those,
 * and counts the rules `--only` and `--skip` left out.
 *
 * @example
 * report.rules.filter(isSelected).map(ruleLine)
 */
export function isSelected(result: RuleResult): boolean {
  return result.reason !== notSelected
}

/**
 * The first line of a report: what is checked against what.
 *
 * @example
 * reportHeading('http://127.0.0.1:4010', '1.0.0') // 'Plant Store conformance of http://127.0.0.1:4010 (contract 1.0.0)'
 */
export function reportHeading(baseUrl: string, contractVersion: string): string {
  return `Plant Store conformance of ${baseUrl} (contract ${contractVersion})`
}

function requestLines(request: SentRequest): string[] {
  const lines = [`${request.method} ${request.path}`]
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`)
  if (request.body !== undefined) lines.push(request.body === '' ? '(empty body)' : request.body)
  return lines
}

function answerLines(answer: ReportedAnswer): string[] {
  const lines = [String(answer.status)]
  for (const [name, value] of Object.entries(answer.headers)) lines.push(`${name}: ${value}`)
  if (answer.body !== '') lines.push(answer.body)
  return lines
}

function labelled(label: string, lines: readonly string[]): string[] {
  return lines.map((line, i) => `${i === 0 ? `  ${label.padEnd(indent.length - 2)}` : indent}${line}`)
}

function findingLines(finding: Finding): string[] {
  return [
    ...(finding.request ? labelled('request', requestLines(finding.request)) : []),
    ...labelled('expected', finding.expected),
    ...(finding.answer ? labelled('actual', answerLines(finding.answer)) : []),
    ...(finding.error === undefined ? [] : labelled('actual', [`no answer: ${finding.error}`])),
  ]
}

/**
 * Each failed rule with its clause and findings (empty when none failed).
 *
 * @example
 * process.stdout.write(failureDetails(report))
 */
export function failureDetails(report: ConformanceReport): string {
  const failed = report.rules.filter((rule) => rule.status === 'failed')
  const blocks = failed.map((rule) => {
    const lines = [`✗ ${rule.id}: ${rule.title}`, ...labelled('contract', [rule.clause])]
    for (const finding of rule.findings.slice(0, shownFindings)) lines.push('', ...findingLines(finding))
    const more = rule.findings.length - shownFindings
    if (more > 0) lines.push('', `  … and ${more} more ${more === 1 ? 'finding' : 'findings'} (--json has them all)`)
    return lines.join('\n')
  })
  return blocks.length === 0 ? '' : `\n${blocks.join('\n\n')}\n`
}

/**
 * The closing lines: the score (or, for an interrupted run, what ran before
 * it stopped: no score) and what the cleanup did.
 *
 * @example
 * summary(report) // 'Score: 100 % (40 of 40 applicable rules hold; 0 failed, 1 skipped) …'
 */
export function summary(report: ConformanceReport): string {
  const applicable = report.passed + report.failed
  const notSelected = report.notSelected > 0 ? `; ${report.notSelected} not selected (--only, --skip)` : ''
  const took = `${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`
  const lines = [
    report.interrupted || report.score === null
      ? `Interrupted: no score. Before the run stopped, ${report.passed} rules held and ${report.failed} failed; ${report.skipped} did not run${notSelected}. ${took}.`
      : `Score: ${report.score} % (${report.passed} of ${applicable} applicable rules hold; ${report.failed} failed, ${report.skipped} skipped${notSelected}), ${took}.`,
  ]
  const { cleanup } = report
  lines.push(
    cleanup.leftovers.length === 0
      ? `Cleanup: the ${cleanup.deleted} plants this run created are deleted again.`
      : `Cleanup: ${cleanup.leftovers.length} plants this run created could not be deleted: ${cleanup.leftovers
          .map(
            (plant) =>
              `id ${plant.id} (${plant.tenant === 'foreign' ? 'foreign tenant' : 'your tenant'}: ${plant.reason})`,
          )
          .join(', ')}.`,
  )
  lines.push(
    cleanup.unchanged
      ? 'The lists are as the run found them.'
      : `The lists differ from before the run (another writer at work?): ${cleanup.differences.join('; ')}.`,
  )
  return `${lines.join('\n')}\n`
}

/**
 * The whole readable report in one string (what the command prints, piece by piece).
 *
 * @example
 * if (report.failed > 0) console.error(formatTextReport(report))
 */
export function formatTextReport(report: ConformanceReport): string {
  return [
    reportHeading(report.baseUrl, report.contractVersion),
    ...report.rules.filter(isSelected).map(ruleLine),
    `${failureDetails(report)}`,
    summary(report),
  ].join('\n')
}
