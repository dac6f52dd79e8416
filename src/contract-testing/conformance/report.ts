/**
 * The outcome of a conformance run as plain data (what `--json` prints),
 * and how an exchange becomes the request, expectation and answer a report
 * shows.
 */
import type { Answer, Exchange, SentRequest } from './exchange.ts'

/** An answer as a report shows it: the status, the headers the contract speaks of, the body (cut short). */
export interface ReportedAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** One broken expectation: what was sent, what was expected, what came. */
export interface Finding {
  /** What the contract expects, one phrase per broken expectation. */
  readonly expected: readonly string[]
  readonly request?: SentRequest
  readonly answer?: ReportedAnswer
  /** Why no answer came (refused connection, timeout…). */
  readonly error?: string
}

/**
 * Why a rule the run left out (`only`, `skip`) is skipped: a report counts
 * such rules apart from the skipped ones, and the text report does not list them.
 */
export const notSelected = 'not selected (--only, --skip)'

export type RuleStatus = 'passed' | 'failed' | 'skipped'

export interface RuleResult {
  readonly id: string
  readonly title: string
  readonly clause: string
  readonly status: RuleStatus
  /** Why a rule was skipped, e.g. `needs --read-token`. */
  readonly reason?: string
  readonly findings: readonly Finding[]
  readonly durationMs: number
}

/** A plant the run created and could not delete. */
export interface LeftoverPlant {
  readonly id: number
  readonly tenant: 'readWrite' | 'foreign'
  readonly reason: string
}

export interface CleanupReport {
  /** Plants the run created and deleted again. */
  readonly deleted: number
  /** Plants it could not delete. */
  readonly leftovers: readonly LeftoverPlant[]
  /** Whether each tenant's list is, after cleanup, what it was before the run. */
  readonly unchanged: boolean
  /** How the lists differ when they do (another writer, or a leftover). */
  readonly differences: readonly string[]
}

export interface ConformanceReport {
  readonly baseUrl: string
  /** The contract version the rules come from. */
  readonly contractVersion: string
  readonly passed: number
  readonly failed: number
  /** Selected rules that did not run: a token or opt-in they need was not given, or the run was interrupted. */
  readonly skipped: number
  /** Rules `only` and `skip` left out (listed in `rules` as skipped, with the reason `not selected`). */
  readonly notSelected: number
  /**
   * Passed rules as a percentage of applicable (passed + failed) ones, one
   * decimal; `null` when the run was interrupted or no rule ran: a score
   * never speaks for rules that did not run.
   */
  readonly score: number | null
  readonly requests: number
  readonly durationMs: number
  /** True when the run was stopped (SIGINT) before every rule ran. */
  readonly interrupted: boolean
  readonly rules: readonly RuleResult[]
  readonly cleanup: CleanupReport
}

const shownHeaders = ['content-type', 'www-authenticate', 'allow', 'location'] as const
const previewLength = 300

/**
 * A text cut to a readable length, saying how long it was (`length`, when
 * the text is itself the start of a longer one).
 *
 * @example
 * preview('x'.repeat(70000)) // 'xxx…… (70000 characters)'
 */
export function preview(text: string, length = text.length): string {
  return length <= previewLength ? text : `${text.slice(0, previewLength)}… (${length} characters)`
}

/**
 * An answer as a report shows it.
 *
 * @example
 * reportedAnswer(answer) // { status: 201, headers: { 'content-type': 'application/json' }, body: '{"name":"Fern"}' }
 */
export function reportedAnswer(answer: Answer): ReportedAnswer {
  const headers: Record<string, string> = {}
  for (const name of shownHeaders) {
    const value = answer.headers.get(name)
    if (value !== null) headers[name] = value
  }
  const body =
    answer.cutAt === undefined
      ? preview(answer.text, answer.judged?.textLength)
      : `${answer.text.slice(0, previewLength)}… (cut at ${answer.cutAt} bytes: the rest was not read)`
  return { status: answer.status, headers, body }
}

/**
 * A finding for an exchange (or for none, when the rule judged something
 * else, such as a list it compared).
 *
 * @example
 * findingOf(['status 200'], exchange)
 */
export function findingOf(expected: readonly string[], exchange?: Exchange): Finding {
  if (!exchange) return { expected }
  const { body, ...request } = exchange.request
  return {
    expected,
    request: body === undefined ? request : { ...request, body: preview(body) },
    ...(exchange.answer ? { answer: reportedAnswer(exchange.answer) } : {}),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
  }
}
