/**
 * Runs the conformance rules against a provider of the Plant Store API: a
 * preflight (reachable? tokens accepted?), every applicable rule in turn,
 * then the cleanup of every plant the run created, also when a rule failed
 * or the run was interrupted, and a last look at the lists to tell whether
 * the provider is as the run found it.
 */
import { isDeepStrictEqual } from 'node:util'
import { contract } from '../../generated/contract.ts'
import { type ConformanceTokens, type Exchange, type Role, roleLabels } from './exchange.ts'
import { type ConformanceReport, type Finding, type LeftoverPlant, notSelected, type RuleResult } from './report.ts'
import { type ConformanceRule, type Need, RuleStop, RunInterrupted } from './rule.ts'
import { conformanceRules } from './rules/index.ts'
import { ConformanceSession } from './session.ts'

export interface ConformanceOptions {
  /** The provider's base address, e.g. `https://plants.example.com` (paths are appended: `/plants`). */
  baseUrl: string
  tokens: ConformanceTokens
  /** The fetch to send with (default: the global one, read when the run starts, so msw can intercept it). */
  fetch?: typeof globalThis.fetch
  /** Only these rules: ids, or areas such as `auth` (every `auth.*` rule). */
  only?: readonly string[]
  /** Not these rules (ids or areas). */
  skip?: readonly string[]
  /** Check the quota rule against this many plants per tenant (it fills the tenant up): opt-in. */
  quota?: number
  /** Time each request may take (default 10,000 ms). */
  timeoutMs?: number
  /** Abort to stop the run: the request in flight finishes, no rule starts, the cleanup runs. */
  signal?: AbortSignal
  /** Ids and the run's id come from it (default `Math.random`); a seeded one makes runs repeatable. */
  random?: () => number
  /** Called as each rule ends. */
  onRule?: (result: RuleResult) => void
  /** Called with every exchange, cleanup included. */
  onExchange?: (exchange: Exchange) => void
}

/**
 * Why a run could not start: a usage error, or a provider that cannot be
 * reached or refuses a token (the command exits 2 for all of them).
 *
 * @example
 * throw new ConformanceSetupError('unreachable', 'cannot reach http://127.0.0.1:4010: fetch failed (ECONNREFUSED).')
 */
export class ConformanceSetupError extends Error {
  readonly code: 'usage' | 'unreachable' | 'refused'

  constructor(code: ConformanceSetupError['code'], message: string) {
    super(message)
    this.name = 'ConformanceSetupError'
    this.code = code
  }
}

const skipReasons: Readonly<Record<Need, string>> = {
  readOnly: `needs a ${roleLabels.readOnly}`,
  foreign: `needs ${roleLabels.foreign}`,
  expired: `needs an ${roleLabels.expired}`,
  quota: 'opt-in (--check-quota): it fills the tenant up to its quota',
}

/** A role's token with its article, as messages name it: "the other tenant's token (--foreign-token)". */
function theToken(role: Role): string {
  return role === 'foreign' ? "the other tenant's token (--foreign-token)" : `the ${roleLabels[role]}`
}

/** Whose list a role's token shows. */
const tenantOf = { readWrite: 'your tenant', foreign: 'the other tenant' } as const

/** The flag that gives what a rule needs. */
const needFlags: Readonly<Record<Need, string>> = {
  readOnly: '--read-token',
  foreign: '--foreign-token',
  expired: '--expired-token',
  quota: '--check-quota',
}

/** Roles whose list is compared before and after the run. */
const listedRoles = ['readWrite', 'foreign'] as const

/**
 * Runs every applicable rule against the provider and resolves to the
 * report. Rejects with a {@link ConformanceSetupError} when the options are
 * wrong, the provider cannot be reached, or it refuses a token.
 *
 * @example
 * const report = await runConformance({
 *   baseUrl: 'https://plants.example.com',
 *   tokens: { readWrite: process.env.PLANT_STORE_TOKEN!, foreign: process.env.PLANT_STORE_FOREIGN_TOKEN },
 * })
 * expect(report.failed).toBe(0)
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = performance.now()
  const baseUrl = checkedBaseUrl(options.baseUrl)
  const tokens = checkedTokens(options.tokens)
  const selected = selectRules(options.only, options.skip)
  const available = new Set<Need>([
    ...(tokens.readOnly === undefined ? [] : (['readOnly'] as const)),
    ...(tokens.foreign === undefined ? [] : (['foreign'] as const)),
    ...(tokens.expired === undefined ? [] : (['expired'] as const)),
    ...(options.quota === undefined ? [] : (['quota'] as const)),
  ])
  checkSomethingRuns(selected, available)
  if (options.quota !== undefined && !(Number.isSafeInteger(options.quota) && options.quota >= 0)) {
    throw new ConformanceSetupError('usage', `the quota must be a whole number of plants, not ${options.quota}.`)
  }
  const session = new ConformanceSession({
    transport: {
      baseUrl,
      tokens,
      fetch: options.fetch ?? globalThis.fetch,
      timeoutMs: options.timeoutMs ?? 10_000,
    },
    random: options.random ?? Math.random,
    ...(options.quota === undefined ? {} : { quota: options.quota }),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  })
  const before = await preflight(session, baseUrl, tokens)
  const results: RuleResult[] = []
  let interrupted = false
  const cleanup = { deleted: 0, leftovers: [] as LeftoverPlant[] }
  /** A rule's plants, or (at the end) all that are left; only the last pass's failures are leftovers. */
  const cleanUp = async (rule?: string) => {
    const { deleted, leftovers } = await session.cleanup(rule)
    cleanup.deleted += deleted
    if (rule === undefined) cleanup.leftovers.push(...leftovers)
  }
  try {
    for (const rule of conformanceRules) {
      const missing = rule.needs?.find((need) => !available.has(need))
      let result: RuleResult
      if (!selected.has(rule.id)) result = skipped(rule, notSelected)
      else if (missing) result = skipped(rule, skipReasons[missing])
      else if (options.signal?.aborted) result = skipped(rule, 'the run was interrupted')
      else {
        // Each rule's plants go as soon as it ends: the tenant never holds more than one rule's worth.
        result = await check(session, rule)
        await cleanUp(rule.id)
      }
      if (result.reason === 'the run was interrupted') interrupted = true
      results.push(result)
      options.onRule?.(result)
    }
  } finally {
    await cleanUp()
  }
  const differences = await compareLists(session, before)
  const passed = results.filter((r) => r.status === 'passed').length
  const failed = results.filter((r) => r.status === 'failed').length
  const left = results.length - selected.size
  return {
    baseUrl,
    contractVersion: contract.version,
    passed,
    failed,
    skipped: selected.size - passed - failed,
    notSelected: left,
    // A score speaks for the whole selection: an interrupted run has none.
    score: interrupted || passed + failed === 0 ? null : Math.round((passed / (passed + failed)) * 1000) / 10,
    requests: session.requests,
    durationMs: Math.round(performance.now() - started),
    interrupted,
    rules: results,
    cleanup: { ...cleanup, unchanged: differences.length === 0, differences },
  }
}

async function check(session: ConformanceSession, rule: ConformanceRule): Promise<RuleResult> {
  const started = performance.now()
  const findings: Finding[] = []
  let interrupted = false
  try {
    await rule.check(session.context(rule.id, findings))
  } catch (error) {
    if (error instanceof RunInterrupted) interrupted = true
    else if (!(error instanceof RuleStop)) {
      findings.push({ expected: [`the rule to run to its end (it stopped: ${(error as Error).message})`] })
    }
  }
  const durationMs = Math.round(performance.now() - started)
  const base = { id: rule.id, title: rule.title, clause: rule.clause, findings, durationMs }
  if (findings.length > 0) return { ...base, status: 'failed' }
  return interrupted ? { ...base, status: 'skipped', reason: 'the run was interrupted' } : { ...base, status: 'passed' }
}

function skipped(rule: ConformanceRule, reason: string): RuleResult {
  return { id: rule.id, title: rule.title, clause: rule.clause, status: 'skipped', reason, findings: [], durationMs: 0 }
}

function checkedBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConformanceSetupError(
      'usage',
      `"${value}" is not a URL; give the provider's base address, e.g. https://plants.example.com.`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConformanceSetupError('usage', `the base address must be http or https, not ${url.protocol}`)
  }
  if (url.search || url.hash) {
    throw new ConformanceSetupError('usage', 'the base address must not have a query or fragment.')
  }
  const base = url.href.replace(/\/+$/, '')
  if (/\/plants$/i.test(url.pathname.replace(/\/+$/, ''))) {
    throw new ConformanceSetupError(
      'usage',
      `${base} ends in /plants: is this the base address? drop /plants and give ${base.replace(/\/plants$/i, '')} (the run adds /plants itself).`,
    )
  }
  return base
}

function checkedTokens(tokens: ConformanceTokens): ConformanceTokens {
  if (!tokens.readWrite) {
    throw new ConformanceSetupError('usage', 'a read-write token is required (--token or PLANT_STORE_TOKEN).')
  }
  for (const role of ['readOnly', 'foreign', 'expired'] as const) {
    if (tokens[role] === '') throw new ConformanceSetupError('usage', `${theToken(role)} is empty.`)
    if (tokens[role] === tokens.readWrite) {
      throw new ConformanceSetupError('usage', `${theToken(role)} is the same as ${theToken('readWrite')}.`)
    }
  }
  return tokens
}

/**
 * Refuses a run in which no rule would run: every selected rule needs a
 * token or opt-in that was not given. A run that checks nothing never passes.
 */
function checkSomethingRuns(selected: ReadonlySet<string>, available: ReadonlySet<Need>): void {
  const runnable = conformanceRules.filter(
    (rule) => selected.has(rule.id) && (rule.needs ?? []).every((need) => available.has(need)),
  )
  if (runnable.length > 0) return
  const missing = new Set(
    conformanceRules
      .filter((rule) => selected.has(rule.id))
      .flatMap((rule) => (rule.needs ?? []).filter((need) => !available.has(need))),
  )
  const flags = [...missing].map((need) => needFlags[need]).join(' or ')
  throw new ConformanceSetupError(
    'usage',
    `none of the selected rules can run without ${flags}: give it, or select other rules.`,
  )
}

/**
 * The ids of the rules to run: all of them, or those `only` names, less
 * those `skip` names. A name is an id or an area (`auth` for `auth.*`).
 *
 * @example
 * selectRules(['auth'], ['auth.not-bearer']) // Set { 'auth.missing', 'auth.invalid-token', 'auth.expired-token' }
 */
export function selectRules(only?: readonly string[], skip?: readonly string[]): Set<string> {
  const matching = (name: string) => {
    const area = `${name.replace(/\.$/, '')}.`
    const found = conformanceRules.filter((rule) => rule.id === name || rule.id.startsWith(area)).map((r) => r.id)
    if (found.length === 0) {
      const areas = [...new Set(conformanceRules.map((rule) => rule.id.split('.')[0]))].join(', ')
      throw new ConformanceSetupError(
        'usage',
        `no rule is called "${name}" (areas: ${areas}; --list-rules lists them).`,
      )
    }
    return found
  }
  const ids = new Set(only && only.length > 0 ? only.flatMap(matching) : conformanceRules.map((rule) => rule.id))
  for (const id of (skip ?? []).flatMap(matching)) ids.delete(id)
  return ids
}

/**
 * Lists the plants with every token given, before any rule runs: the
 * provider must answer (else `unreachable`) and accept each token (else
 * `refused`); a redirect or a 404 means the base address is wrong.
 */
async function preflight(
  session: ConformanceSession,
  baseUrl: string,
  tokens: ConformanceTokens,
): Promise<Map<Role, unknown>> {
  const lists = new Map<Role, unknown>()
  for (const role of ['readWrite', 'readOnly', 'foreign'] as const) {
    if (tokens[role] === undefined) continue
    const { answer, error } = await session.send('preflight', { method: 'GET', path: '/plants', as: role })
    if (!answer) throw new ConformanceSetupError('unreachable', `cannot reach ${baseUrl}: ${error}.`)
    const where = `GET ${baseUrl}/plants`
    if (answer.status >= 300 && answer.status < 400) {
      const location = answer.headers.get('location')
      throw new ConformanceSetupError(
        'usage',
        `${where} redirects (${answer.status}) to ${location}: give that address.`,
      )
    }
    if (answer.status === 404) {
      throw new ConformanceSetupError(
        'usage',
        `${where} answered 404: is ${baseUrl} the base address of a Plant Store?`,
      )
    }
    if (answer.status === 401 || answer.status === 403) {
      throw new ConformanceSetupError(
        'refused',
        `the provider refused ${theToken(role)}: ${where} answered ${answer.status}.`,
      )
    }
    if (answer.status === 200) lists.set(role, answer.json?.value)
  }
  await checkWriteScope(session, baseUrl)
  return lists
}

/**
 * Asks, without storing anything, whether the read-write token may write: a
 * create whose body lacks its name is a 400 for a writer and a 403 for a
 * token without `plants:write` (scopes are checked before the body). A
 * provider that stores it anyway has the plant deleted with the run's own.
 */
async function checkWriteScope(session: ConformanceSession, baseUrl: string): Promise<void> {
  const { answer } = await session.send('preflight', {
    method: 'POST',
    path: '/plants',
    json: { id: session.freshId() },
  })
  if (answer?.status === 403) {
    throw new ConformanceSetupError(
      'refused',
      `the token is read-only; conformance needs a write token (plants:read and plants:write) as --token: POST ${baseUrl}/plants answered 403.`,
    )
  }
}

/** Lists again after the cleanup and says how each tenant's list differs from before the run. */
async function compareLists(session: ConformanceSession, before: Map<Role, unknown>): Promise<string[]> {
  const differences: string[] = []
  for (const role of listedRoles) {
    if (!before.has(role)) continue
    const { answer, error } = await session.send('cleanup', { method: 'GET', path: '/plants', as: role })
    const then = before.get(role)
    const now = answer?.json?.value
    if (!isDeepStrictEqual(then, now)) {
      const count = (list: unknown) => (Array.isArray(list) ? `${list.length} plants` : 'no list')
      const detail = answer ? count(now) : `no answer (${error})`
      differences.push(`${tenantOf[role]} listed ${count(then)} before the run and ${detail} after it`)
    }
  }
  return differences
}
