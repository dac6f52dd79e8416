/** What an attack is, what it is given to run, and what it tells about the sandbox. */

/** A provisioned tenant, as `POST /__sandbox/tenants` answers it. */
export interface Tenant {
  readonly tenant: string
  readonly tokens: { readonly read: string; readonly write: string }
}

/** What an attack is given: the sandbox under attack and the means to stop in time. */
export interface AttackContext {
  readonly url: string
  readonly port: number
  /** False once the attack's time is up or the server passed the suite's memory ceiling. */
  readonly keepGoing: () => boolean
  /**
   * Provisions a tenant (with the admin key when the attack has one), from
   * `localAddress` when given (another client, e.g. `127.0.0.2`: one address
   * holds at most a quarter of the tenants); rejects when the sandbox refuses.
   */
  readonly provision: (recipe?: Record<string, unknown>, localAddress?: string) => Promise<Tenant>
  /** Waits, but no longer than the attack may run. */
  readonly pause: (ms: number) => Promise<void>
  /** The sandbox's resident set size now, in MB (10^6 bytes). */
  readonly rssMb: () => number
  /** The folder of the bin the sandbox runs: a copy of `dist/sandbox` of its own when the attack asks (`copyBin`). */
  readonly binFolder: string
}

/** One verdict of an attack beyond memory and the victim, e.g. "streams held at once ≤ 4 per tenant". */
export interface Check {
  readonly ok: boolean
  readonly text: string
}

/** What an attack found: its checks and plain facts for the notes. */
export interface AttackReport {
  readonly checks: readonly Check[]
  readonly facts: readonly string[]
}

/**
 * One attack of the suite, run against a fresh sandbox while a victim makes
 * steady requests.
 */
export interface Attack {
  /** A short name for `--only`, e.g. `journal-1`. */
  readonly id: string
  readonly name: string
  /** What it does, in one line. */
  readonly summary: string
  /** The resident set size the sandbox must stay within, in MB (10^6 bytes). */
  readonly rssBudgetMb: number
  /** The budget beyond memory, in words, for the table. */
  readonly budget: string
  /** The longest the attack runs, in milliseconds. */
  readonly timeLimitMs: number
  /**
   * What the victim asks: a tenant's plants (default, a tenant provisioned
   * for it), Acme's plants with its printed token (nothing of `/__sandbox` is
   * asked before the attack) or the health endpoint.
   */
  readonly victim?: 'plants' | 'acme' | 'health'
  /** More flags for the sandbox, e.g. `['--plant-bytes-total', '16MiB']`. */
  readonly flags?: readonly string[]
  /** Run the sandbox from a copy of `dist/sandbox` of its own, which the attack may change (`binFolder`). */
  readonly copyBin?: boolean
  /** Start the sandbox under this open-file limit (`ulimit -n`), as the audit's machine had. */
  readonly openFiles?: number
  /** Start the sandbox with `--admin-key <key>`; the suite provisions with it, as the operator would. */
  readonly adminKey?: string
  /** Node's own flags for the sandbox, e.g. `['--max-old-space-size=400']` (a smaller heap, as the audit ran it). */
  readonly nodeFlags?: readonly string[]
  /** How often the victim asks, in milliseconds (default 20). */
  readonly victimEveryMs?: number
  /** The attack's own maximum of the victim's median latency, in milliseconds. */
  readonly victimP50BudgetMs?: number
  readonly run: (context: AttackContext) => Promise<AttackReport>
}

/** Counts values: `{ 201: 98, 429: 2 }` as "201 ×98, 429 ×2". */
export function tally(values: readonly number[]): string {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([value, count]) => `${value === 0 ? 'failed' : value} ×${count}`)
    .join(', ')
}
