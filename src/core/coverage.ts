/**
 * Contract coverage: which of the contract's declared answers (operation ×
 * status, and the conditions behind a status with several causes) a client
 * provoked, counted from the core's one {@link Outcome} event. The same
 * counts serve msw (`coverage` of `setupPlantStoreServer`), the sandbox
 * (`GET /__sandbox/coverage`, per tenant) and pacts (`plant-store-mock
 * coverage`). Memory is bounded: a fixed array of counters per tally, plus
 * capped lists of the answers outside the contract.
 */
import { contract } from '../generated/contract.ts'
import { contractAnswers } from '../generated/contract-answers.ts'
import type { OperationId, Outcome } from './core.ts'
import type { Reason } from './errors.ts'
import type { CoreRequest, CoreResponse } from './http.ts'
import { lazy, z } from './zod.ts'

/** How often one cause of a status was seen, e.g. `{ condition: 'expired token', hits: 1 }`. */
export interface CoverageCondition {
  readonly condition: string
  readonly hits: number
}

/** One status an operation declares, and how often it was answered. */
export interface CoverageResponse {
  readonly status: number
  readonly hits: number
  /** For a status with several causes (400 per field, 401 per token problem, 403 per scope): hits per cause. */
  readonly conditions?: readonly CoverageCondition[]
}

/** One operation of the contract with its declared statuses. */
export interface CoverageOperation {
  readonly operationId: OperationId
  readonly method: string
  readonly path: string
  readonly responses: readonly CoverageResponse[]
}

/** An answer outside the contract, e.g. `{ answer: 'addPlant 500', hits: 2 }` or `{ answer: 'GET 404', hits: 1 }`. */
export interface CoverageExtra {
  readonly answer: string
  readonly hits: number
}

/** The coverage of the contract's answers: what `report()`, `GET /__sandbox/coverage` and the CLI's `--json` give. */
export interface CoverageReport {
  /** Declared answers (operation × status) answered at least once. */
  readonly covered: number
  /** Declared answers of the contract. */
  readonly total: number
  /** `covered / total` in percent, to one decimal. */
  readonly percent: number
  readonly operations: readonly CoverageOperation[]
  /**
   * Answers of an operation with a status it does not declare (a fault rule's
   * 500) or a transport fault (`listPlants 0 reset`, `addPlant 200 truncated`).
   */
  readonly undocumented: readonly CoverageExtra[]
  /** Requests routed to no operation: an unknown path (`GET 404`) or method (`PUT 405`). */
  readonly unrouted: readonly CoverageExtra[]
}

/**
 * What {@link CoverageTally.add} reads of a report: its hits. A report read
 * from a file (another run's) is checked with {@link coverageCountsSchema}.
 */
export interface CoverageCounts {
  readonly operations: readonly { readonly operationId: string; readonly responses: readonly CoverageResponse[] }[]
  readonly undocumented: readonly CoverageExtra[]
  readonly unrouted: readonly CoverageExtra[]
}

/**
 * The hits of a report as JSON holds them (the sandbox's `GET
 * /__sandbox/coverage`, a run's JSON report, `plant-store-mock coverage
 * --json`): other fields (`tenant`, `covered`, `method`) are not read.
 *
 * @example
 * coverageCountsSchema.safeParse(JSON.parse(text)).success
 */
export const coverageCountsSchema = lazy(() => {
  const hits = z.int().check(z.nonnegative())
  const extras = z.array(z.object({ answer: z.string(), hits }))
  return z.object({
    operations: z.array(
      z.object({
        operationId: z.string(),
        responses: z.array(
          z.object({
            status: z.int(),
            hits,
            conditions: z.optional(z.array(z.object({ condition: z.string(), hits }))),
          }),
        ),
      }),
    ),
    undocumented: extras,
    unrouted: extras,
  })
})

/** The conditions 401 is counted by. */
const tokenConditions = ['missing token', 'invalid token', 'expired token'] as const
/** Where the answers no declared condition explains are counted. */
const otherCondition = 'other'
/** Distinct answers outside the contract kept per tally; beyond, they are counted under {@link overflowAnswer}. */
export const maxExtraAnswers = 16
const overflowAnswer = 'other'

/** A declared status, where its counter and its conditions' counters are. */
interface StatusLayout {
  readonly status: number
  readonly slot: number
  /** The declared conditions; their counters follow `slot`, then the one of {@link otherCondition}. */
  readonly conditions: readonly string[]
}

interface OperationLayout {
  readonly operationId: OperationId
  readonly method: string
  readonly path: string
  readonly statuses: readonly StatusLayout[]
  /** The declared statuses indexed by status: one array read per answer, no hashing. */
  readonly byStatus: readonly (StatusLayout | undefined)[]
}

function conditionsOf(status: number, operationId: OperationId): readonly string[] {
  if (status === 400) return contractAnswers.operations[operationId].fields
  if (status === 401) return tokenConditions
  if (status === 403) return contract.operations[operationId].scopes
  return []
}

/** Every operation of the contract with its declared statuses, laid out on one array of counters. */
const { layouts, slots } = (() => {
  let next = 0
  const layouts: Record<string, OperationLayout> = {}
  for (const [operationId, { method, path }] of Object.entries(contract.operations) as [
    OperationId,
    (typeof contract.operations)[OperationId],
  ][]) {
    const statuses = contractAnswers.operations[operationId].statuses.map((status) => {
      const conditions = conditionsOf(status, operationId)
      const layout: StatusLayout = { status, slot: next, conditions }
      next += 1 + (conditions.length > 0 ? conditions.length + 1 : 0)
      return layout
    })
    const byStatus: (StatusLayout | undefined)[] = Array.from({ length: 600 }, () => undefined)
    for (const layout of statuses) byStatus[layout.status] = layout
    layouts[operationId] = { operationId, method, path, statuses, byStatus }
  }
  return { layouts: layouts as Readonly<Record<OperationId, OperationLayout>>, slots: next }
})()

/** The declared answers of the contract: operation × status. */
export const declaredAnswers: number = Object.values(layouts).reduce((sum, { statuses }) => sum + statuses.length, 0)

/**
 * The cause of an answer whose status has several, read from the request's
 * `Authorization` header and what the core answered: a 401's
 * `WWW-Authenticate` (no `error`, with no token sent or a message about the
 * Bearer scheme: `missing token`; `invalid_token`: `invalid token`, or
 * `expired token` as the message says), a 403's scope and a 400's field as
 * the Error message names them. `undefined` when the answer names none (a
 * fault rule's or `Prefer: code`'s made-up answer, a pact's example message).
 *
 * @example
 * const challenge = { 'www-authenticate': 'Bearer realm="plant-store"' }
 * conditionOf({ status: 401, headers: challenge, body: null }, null) // 'missing token'
 * conditionOf({ status: 400, headers: {}, body: '{"error":400,"message":"name is required."}' }, 'Bearer t') // 'name'
 */
export function conditionOf(
  response: Pick<CoreResponse, 'status' | 'headers' | 'body'>,
  authorization: string | null,
): string | undefined {
  const { status } = response
  const message = messageOf(response.body)
  if (status === 401) {
    if (/error="?invalid_token/.test(response.headers['www-authenticate'] ?? '')) {
      return /expired/i.test(message) ? 'expired token' : 'invalid token'
    }
    return authorization === null || /\bbearer\b/i.test(message) ? 'missing token' : undefined
  }
  if (status === 403) return /"([\w:.-]+)" scope/.exec(message)?.[1]
  if (status === 400) {
    const field = /^(\w+) (?:must|is required)|\b(\w+) in the path\b/.exec(message)
    if (field) return field[1] ?? field[2]
    if (/\brequest body\b/i.test(message)) return 'body'
  }
  return undefined
}

/**
 * The cause of an answer the core gave, from its {@link Reason}: the field
 * of a 400, `missing`/`invalid`/`expired token` of a 401, the scope of a 403.
 *
 * @example
 * conditionOfReason(400, { field: 'name', rule: 'required' }) // 'name'
 */
export function conditionOfReason(status: number, reason: Reason): string | undefined {
  if (status === 401) return reason.token && `${reason.token} token`
  if (status === 403) return reason.scope
  if (status === 400) return reason.field
  return undefined
}

function messageOf(body: string | null): string {
  if (body === null) return ''
  try {
    const { message } = JSON.parse(body) as { message?: unknown }
    return typeof message === 'string' ? message : ''
  } catch {
    return ''
  }
}

function addTo(counts: Map<string, number>, answer: string, hits = 1): void {
  const counted = counts.get(answer)
  if (counted !== undefined) counts.set(answer, counted + hits)
  else if (counts.size < maxExtraAnswers) counts.set(answer, hits)
  else counts.set(overflowAnswer, (counts.get(overflowAnswer) ?? 0) + hits)
}

function listOf(counts: ReadonlyMap<string, number>): CoverageExtra[] {
  return [...counts].map(([answer, hits]) => ({ answer, hits }))
}

/**
 * The coverage counts of one client: a counter per declared answer and
 * condition (a fixed array), and capped counts of the answers outside the
 * contract. Subscribe {@link CoverageTally.observe} to the core's outcomes,
 * or {@link CoverageTally.record} answers from elsewhere (a pact).
 *
 * @example
 * const tally = new CoverageTally()
 * const handle = createCore(store, { onOutcome: tally.observe })
 * tally.report().covered // 0
 */
export class CoverageTally {
  readonly #counts = new Float64Array(slots)
  readonly #undocumented = new Map<string, number>()
  readonly #unrouted = new Map<string, number>()

  /**
   * Counts one answer to a request routed to `operation` (`undefined`: to
   * none); the request's `Authorization` header tells a 401's cause.
   */
  record(
    operation: OperationId | undefined,
    request: Pick<CoreRequest, 'method' | 'header'>,
    response: CoreResponse,
  ): void {
    const layout = operation === undefined ? undefined : layouts[operation]
    if (!layout) {
      addTo(this.#unrouted, `${request.method.slice(0, 16)} ${response.status}`)
      return
    }
    const declared = response.fault === undefined ? layout.byStatus[response.status] : undefined
    if (!declared) {
      const fault = response.fault === undefined ? '' : ` ${response.fault}`
      addTo(this.#undocumented, `${layout.operationId} ${response.status}${fault}`)
      return
    }
    this.#counts[declared.slot]!++
    const { conditions } = declared
    if (conditions.length === 0) return
    // The core says why as data; answers from elsewhere (a pact's, a journal's) only in their message.
    const condition = response.reason
      ? conditionOfReason(response.status, response.reason)
      : conditionOf(response, response.status === 401 ? request.header('authorization') : null)
    const index = condition === undefined ? -1 : conditions.indexOf(condition)
    this.#counts[declared.slot + 1 + (index === -1 ? conditions.length : index)]!++
  }

  /** An outcome listener: counts every answer the core (or a fault rule) gave. */
  readonly observe = (outcome: Outcome): void => {
    this.record(outcome.operation, outcome.request, outcome.response)
  }

  /**
   * Adds the counts of a report (another run's, another worker's, a
   * tenant's in the sandbox): hits per declared answer and condition, and the
   * answers outside the contract. An answer this contract does not declare
   * (a report of another version of it) is counted as undocumented; a cause
   * it does not know, under `other`.
   */
  add(report: CoverageCounts): void {
    const counts = this.#counts
    for (const { operationId, responses } of report.operations) {
      const layout = Object.hasOwn(layouts, operationId) ? layouts[operationId as OperationId] : undefined
      for (const { status, hits, conditions = [] } of responses) {
        if (hits === 0) continue
        const declared = layout?.byStatus[status]
        if (!declared) {
          addTo(this.#undocumented, `${operationId} ${status}`, hits)
          continue
        }
        counts[declared.slot]! += hits
        for (const { condition, hits } of conditions) {
          const index = declared.conditions.indexOf(condition)
          counts[declared.slot + 1 + (index === -1 ? declared.conditions.length : index)]! += hits
        }
      }
    }
    for (const { answer, hits } of report.undocumented) addTo(this.#undocumented, answer, hits)
    for (const { answer, hits } of report.unrouted) addTo(this.#unrouted, answer, hits)
  }

  /** The counts as a {@link CoverageReport}. */
  report(): CoverageReport {
    const counts = this.#counts
    let covered = 0
    const operations = Object.values(layouts).map(({ operationId, method, path, statuses }) => ({
      operationId,
      method,
      path,
      responses: statuses.map(({ status, slot, conditions }): CoverageResponse => {
        const hits = counts[slot] ?? 0
        if (hits > 0) covered++
        if (conditions.length === 0) return { status, hits }
        const byCondition = conditions.map((condition, index) => ({ condition, hits: counts[slot + 1 + index] ?? 0 }))
        const other = counts[slot + 1 + conditions.length] ?? 0
        if (other > 0) byCondition.push({ condition: otherCondition, hits: other })
        return { status, hits, conditions: byCondition }
      }),
    }))
    return {
      covered,
      total: declaredAnswers,
      percent: Math.round((covered / declaredAnswers) * 1000) / 10,
      operations,
      undocumented: listOf(this.#undocumented),
      unrouted: listOf(this.#unrouted),
    }
  }

  /** Forgets every count. */
  reset(): void {
    this.#counts.fill(0)
    this.#undocumented.clear()
    this.#unrouted.clear()
  }
}

/**
 * One report of several (test files, workers, runs, tenants): their hits
 * added per declared answer and condition, `covered` counted anew.
 *
 * @example
 * mergeCoverageReports([unit, endToEnd, sandbox]).covered // ≥ each one's
 */
export function mergeCoverageReports(reports: Iterable<CoverageCounts>): CoverageReport {
  const tally = new CoverageTally()
  for (const report of reports) tally.add(report)
  return tally.report()
}

/**
 * A {@link CoverageTally} per tenant, of the answers given to a caller whose
 * token resolved to that tenant (an answer without a tenant, such as a 401 for
 * a missing token, belongs to none): what `GET /__sandbox/coverage` reports.
 * Forget a tenant's when its journal is cleared or it is removed.
 *
 * @example
 * const coverage = new TenantCoverage()
 * const handle = createCore(store, { onOutcome: coverage.observe })
 * coverage.report('acme').covered
 */
export class TenantCoverage {
  readonly #tallies = new Map<string, CoverageTally>()

  /** An outcome listener: counts every answer given to an authenticated tenant. */
  readonly observe = (outcome: Outcome): void => {
    const tenantId = outcome.principal?.tenantId
    if (tenantId === undefined) return
    let tally = this.#tallies.get(tenantId)
    if (!tally) {
      tally = new CoverageTally()
      this.#tallies.set(tenantId, tally)
    }
    tally.observe(outcome)
  }

  /** The tenant's coverage (all zeros for a tenant with no answers counted). */
  report(tenantId: string): CoverageReport {
    return (this.#tallies.get(tenantId) ?? new CoverageTally()).report()
  }

  /** Forgets a tenant's counts (on reset, on `DELETE /__sandbox/requests`, on removal). */
  forget(tenantId: string): void {
    this.#tallies.delete(tenantId)
  }
}
