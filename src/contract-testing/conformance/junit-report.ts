/**
 * The report as JUnit XML for CI: one test suite, one test case per rule
 * the run was asked to check (class name `plant-store.conformance.<area>`),
 * a `<failure>` with the findings for a failed rule, `<skipped>` with the
 * reason for a skipped one; the score property only when there is a score.
 */
import type { ConformanceReport, RuleResult } from './report.ts'
import { failureDetails, isSelected } from './text-report.ts'

/** Characters XML 1.0 cannot hold at all; a provider's body may contain them. */
const notXml = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

/**
 * Escapes text for XML content or an attribute value; characters XML cannot
 * carry become U+FFFD.
 *
 * @example
 * xml('a < b & "c"\u0000') // 'a &lt; b &amp; &quot;c&quot;\uFFFD'
 */
export function xml(text: string): string {
  return text.replace(notXml, '\uFFFD').replace(/[&<>"']/g, (c) => entities[c] ?? c)
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)

function testCase(rule: RuleResult, report: ConformanceReport): string {
  const open = `    <testcase classname="plant-store.conformance.${xml(rule.id.split('.')[0] ?? '')}" name="${xml(`${rule.id}: ${rule.title}`)}" time="${seconds(rule.durationMs)}"`
  if (rule.status === 'passed') return `${open}/>`
  if (rule.status === 'skipped')
    return `${open}>\n      <skipped message="${xml(rule.reason ?? '')}"/>\n    </testcase>`
  const details = failureDetails({ ...report, rules: [rule] }).trim()
  const message = rule.findings[0]?.expected.join('; ') ?? 'the rule failed'
  return `${open}>\n      <failure message="${xml(`expected ${message}`)}" type="${xml(rule.id)}">${xml(details)}</failure>\n    </testcase>`
}

/**
 * The report as a JUnit XML document.
 *
 * @example
 * await writeFile('conformance.xml', formatJunitReport(report))
 */
export function formatJunitReport(report: ConformanceReport): string {
  const name = xml(`Plant Store conformance of ${report.baseUrl}`)
  const rules = report.rules.filter(isSelected)
  const counts = `tests="${rules.length}" failures="${report.failed}" errors="0" skipped="${report.skipped}" time="${seconds(report.durationMs)}"`
  const score = report.score === null ? '' : `\n      <property name="score" value="${report.score}"/>`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="plant-store-mock conformance" ${counts}>`,
    `  <testsuite name="${name}" ${counts}>`,
    `    <properties>\n      <property name="contract" value="${xml(report.contractVersion)}"/>${score}\n    </properties>`,
    ...rules.map((rule) => testCase(rule, report)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
