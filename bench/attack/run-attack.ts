/**
 * Runs one attack against a fresh sandbox: starts it, provisions the victim
 * and keeps it asking while the attack runs (bounded in time, cut short when
 * the server passes the memory ceiling), then checks that the server is up
 * and answers one row of the report.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fixtureTokens } from '../../fixtures/world.ts'
import type { Attack, AttackContext, Check, Tenant } from './attack.ts'
import { percentile, provision as provisionTenant, send, startVictim } from './client.ts'
import { builtBin, type SandboxProcess, startSandboxProcess } from './sandbox-process.ts'

/** One row of the report (of a sandbox attack, or of a tool attack: `tool-attack.ts`). */
export interface AttackResult {
  readonly attack: Pick<Attack, 'id' | 'name' | 'summary' | 'budget'>
  readonly peakRssMb: number
  /** `NaN` when the server's heap could not be read. */
  readonly peakHeapMb: number
  readonly victimP50Ms: number
  readonly victimP99Ms: number
  readonly victimRequests: number
  readonly victimErrors: number
  readonly serverUp: boolean
  /** A tool attack's row: there was no server, nor a victim. */
  readonly noServer?: boolean
  /** Every verdict: memory, victim, server, and the attack's own. */
  readonly checks: readonly Check[]
  readonly facts: readonly string[]
  readonly within: boolean
}

/**
 * Runs `attack` against a new sandbox process; the server is stopped before
 * this resolves.
 *
 * @example
 * const result = await runAttack(journalAttack(1), { ceilingMb: 1500 })
 */
export async function runAttack(
  attack: Attack,
  { ceilingMb, onStarted }: { ceilingMb: number; onStarted?: (sandbox: SandboxProcess) => void },
): Promise<AttackResult> {
  let ceilingPassed = false
  // A copy of the bin of its own, for an attack that changes its files under the running sandbox: beside the
  // built one, where it still finds the package (the docs read its contract and Swagger UI through it).
  const copy = attack.copyBin ? mkdtempSync(join(builtBin, '..', 'attack-bin-')) : undefined
  if (copy) cpSync(builtBin, copy, { recursive: true })
  const binFolder = copy ?? builtBin
  try {
    const sandbox = await startSandboxProcess({
      binFolder,
      flags: [...(attack.adminKey === undefined ? [] : ['--admin-key', attack.adminKey]), ...(attack.flags ?? [])],
      openFiles: attack.openFiles,
      nodeFlags: attack.nodeFlags,
      ceilingBytes: ceilingMb * 1e6,
      onCeiling: () => {
        ceilingPassed = true
      },
    })
    onStarted?.(sandbox)
    try {
      return await attackRunning(sandbox, attack, () => ceilingPassed, ceilingMb, binFolder)
    } finally {
      await sandbox.stop()
    }
  } finally {
    if (copy) rmSync(copy, { recursive: true, force: true })
  }
}

async function attackRunning(
  sandbox: SandboxProcess,
  attack: Attack,
  ceilingPassed: () => boolean,
  ceilingMb: number,
  binFolder: string,
): Promise<AttackResult> {
  const { url, port } = sandbox
  const provision = (recipe: Record<string, unknown> = {}, localAddress?: string): Promise<Tenant> =>
    provisionTenant(url, {
      recipe,
      ...(localAddress === undefined ? {} : { localAddress }),
      ...(attack.adminKey === undefined ? {} : { adminKey: attack.adminKey }),
    })

  const victimToken =
    attack.victim === 'acme'
      ? fixtureTokens.acme.read
      : attack.victim === 'health'
        ? undefined
        : (await provision({ plants: 20 })).tokens.read
  const victim = startVictim(
    url,
    victimToken
      ? { path: '/plants?limit=10', headers: { authorization: `Bearer ${victimToken}` } }
      : { path: '/__sandbox/health' },
    attack.victimEveryMs,
  )

  const deadline = Date.now() + attack.timeLimitMs
  const keepGoing = () => Date.now() < deadline && !ceilingPassed() && sandbox.alive()
  const context: AttackContext = {
    url,
    port,
    keepGoing,
    provision,
    binFolder,
    rssMb: () => sandbox.rss() / 1e6,
    pause: async (ms) => {
      const until = Math.min(Date.now() + ms, deadline)
      while (Date.now() < until && keepGoing()) await new Promise((resolve) => setTimeout(resolve, 50))
    },
  }
  let report: Awaited<ReturnType<Attack['run']>>
  let failure: string | undefined
  // An attack that does not stop by itself in time is left behind (its sockets die with the server).
  let lateTimer: Parameters<typeof clearTimeout>[0]
  const late = new Promise<undefined>((resolve) => {
    lateTimer = setTimeout(resolve, attack.timeLimitMs + 15_000)
  })
  try {
    report = (await Promise.race([attack.run(context), late])) ?? {
      checks: [{ ok: false, text: 'the attack did not stop within its time limit + 15 s' }],
      facts: [],
    }
  } catch (error) {
    failure = (error as Error).message
    report = { checks: [{ ok: false, text: `the attack could not run: ${failure}` }], facts: [] }
  } finally {
    clearTimeout(lateTimer)
  }
  await new Promise((resolve) => setTimeout(resolve, 500))
  const record = await victim.stop()

  const health = sandbox.alive() ? await send(url, { path: '/__sandbox/health', timeoutMs: 5000 }) : undefined
  const serverUp = sandbox.alive() && health?.status === 200
  const peakRssMb = sandbox.peakRss() / 1e6
  const checks: Check[] = [
    {
      ok: peakRssMb <= attack.rssBudgetMb,
      text: ceilingPassed()
        ? `RSS passed the suite's ceiling of ${ceilingMb} MB: the attack was stopped there`
        : `peak RSS ${peakRssMb.toFixed(0)} MB (budget ${attack.rssBudgetMb} MB)`,
    },
    {
      ok: record.errors === 0,
      text: `victim: ${record.latencies.length} requests, ${record.errors} errors${record.failures.length > 0 ? ` (statuses ${record.failures.join(', ')})` : ''}`,
    },
    {
      ok: serverUp,
      text: serverUp
        ? 'server up after the attack'
        : `server down after the attack${sandbox.alive() ? ` (health answered ${health?.status})` : `: ${lastLine(sandbox.output())}`}`,
    },
    ...report.checks,
  ]
  const victimP50Ms = percentile(record.latencies, 0.5)
  if (attack.victimP50BudgetMs !== undefined) {
    checks.push({
      ok: victimP50Ms <= attack.victimP50BudgetMs,
      text: `victim p50 ${victimP50Ms.toFixed(1)} ms (budget ${attack.victimP50BudgetMs} ms)`,
    })
  }
  return {
    attack,
    peakRssMb,
    peakHeapMb: sandbox.peakHeap() / 1e6,
    victimP50Ms,
    victimP99Ms: percentile(record.latencies, 0.99),
    victimRequests: record.latencies.length,
    victimErrors: record.errors,
    serverUp,
    checks,
    facts: report.facts,
    within: checks.every(({ ok }) => ok),
  }
}

function lastLine(output: string): string {
  const lines = output.trim().split('\n')
  return (lines.at(-1) ?? '').slice(0, 300) || 'it exited without a word'
}
