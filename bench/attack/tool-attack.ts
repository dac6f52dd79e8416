/**
 * The second kind of attack (issue 35): hostile input to the project's
 * tools (`recordMswPact`, `verify`, `conformance`) rather than to a sandbox.
 * A tool attack runs the tool in a child process, its resident memory
 * sampled from `/proc` every 100 ms, bounded in time (killed past its limit:
 * a tool must end by itself); it reports one row of the same table, with no
 * victim (`n/a`).
 */
import { spawn } from 'node:child_process'
import type { Attack, Check } from './attack.ts'
import type { AttackResult } from './run-attack.ts'
import { killedOnExit, residentBytes } from './sandbox-process.ts'

/** What a tool attack found: its checks and facts, and the peak RSS of the tool processes it ran, in MB. */
export interface ToolReport {
  readonly checks: readonly Check[]
  readonly facts: readonly string[]
  readonly peakRssMb: number
  /** The JS heap it measured, in MB, when it measured one (a browser page's). */
  readonly peakHeapMb?: number
}

/** What a tool attack is given: the suite's memory ceiling, past which a tool is killed. */
export interface ToolContext {
  readonly ceilingMb: number
}

/** An attack on a tool: what it is, its budgets, and how to run it. */
export interface ToolAttack extends Pick<Attack, 'id' | 'name' | 'summary' | 'rssBudgetMb' | 'budget' | 'timeLimitMs'> {
  readonly kind: 'tool'
  readonly run: (context: ToolContext) => Promise<ToolReport>
}

/** How one run of a tool ended, and what it took. */
export interface ToolRun {
  /** Its exit code, `null` when a signal ended it. */
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly peakRssMb: number
  /** False when it had to be killed: at its time limit, or past the memory ceiling. */
  readonly endedByItself: boolean
  /** True when it was killed because its RSS passed the suite's ceiling. */
  readonly passedCeiling: boolean
}

/**
 * Runs `node <args>` (a tool), sampling its RSS, killed with SIGKILL after
 * `timeLimitMs` or once its RSS passes `ceilingMb`. `onStart` may act on the
 * running process (send it a signal).
 *
 * @example
 * const run = await runTool(['dist/sandbox/cli.js', 'verify', 'huge.json'], { timeLimitMs: 60_000, ceilingMb: 1500 })
 */
export function runTool(
  args: readonly string[],
  {
    timeLimitMs,
    ceilingMb,
    onStart,
  }: { timeLimitMs: number; ceilingMb: number; onStart?: (kill: (signal: NodeJS.Signals) => void) => void },
): Promise<ToolRun> {
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
  })
  killedOnExit(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-20_000)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000)
  })
  let peak = 0
  let killed = false
  let passedCeiling = false
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(child.pid))
    if (!passedCeiling && peak > ceilingMb * 1e6) {
      passedCeiling = true
      killed = true
      child.kill('SIGKILL')
    }
  }, 100)
  const limit = setTimeout(() => {
    killed = true
    child.kill('SIGKILL')
  }, timeLimitMs)
  onStart?.((signal) => child.kill(signal))
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearInterval(sampler)
      clearTimeout(limit)
      resolve({ code, signal, stdout, stderr, peakRssMb: peak / 1e6, endedByItself: !killed, passedCeiling })
    })
  })
}

/**
 * Runs a tool attack and answers its row of the report: the tools' peak RSS
 * against the budget, and its own checks; no victim, no server.
 *
 * @example
 * const result = await runToolAttack(verifyQuotaAttack(), { ceilingMb: 1500 })
 */
export async function runToolAttack(attack: ToolAttack, context: ToolContext): Promise<AttackResult> {
  let report: ToolReport
  try {
    report = await attack.run(context)
  } catch (error) {
    report = {
      checks: [{ ok: false, text: `the attack could not run: ${(error as Error).message}` }],
      facts: [],
      peakRssMb: 0,
    }
  }
  const checks: Check[] = [
    {
      ok: report.peakRssMb <= attack.rssBudgetMb,
      text: `the tool's peak RSS ${report.peakRssMb.toFixed(0)} MB (budget ${attack.rssBudgetMb} MB)`,
    },
    ...report.checks,
  ]
  return {
    attack,
    peakRssMb: report.peakRssMb,
    peakHeapMb: report.peakHeapMb ?? Number.NaN,
    victimP50Ms: Number.NaN,
    victimP99Ms: Number.NaN,
    victimRequests: 0,
    victimErrors: 0,
    serverUp: true,
    noServer: true,
    checks,
    facts: report.facts,
    within: checks.every(({ ok }) => ok),
  }
}

/** The last lines of a tool's output, for a fact. */
export function lastLines(text: string, count = 2): string {
  return text.trim().split('\n').slice(-count).join(' / ').slice(0, 400) || '(nothing)'
}
