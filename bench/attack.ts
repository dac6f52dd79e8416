/**
 * The standing attack suite (issue 18): each attack a hostile client could
 * make with nothing but the public surface, run against a fresh built
 * sandbox (`dist/sandbox/cli.js` on 127.0.0.1) while a victim tenant keeps
 * asking `GET /plants?limit=10` every 20 ms. It prints one table: the
 * server's peak RSS (from /proc) and used heap (from a preloaded probe)
 * against the budget, the victim's latency and errors, and whether the
 * server was up after; then the verdicts and facts behind each row.
 *
 * Run with `npm run attack` (builds the sandbox first), or
 * `node bench/attack.ts [--only <id,…>] [--ceiling <MB>]` (ids: the `attacks`
 * table below; an unknown id prints them all). The tool attacks attack
 * `recordMswPact`, `verify`, `conformance` and the browser's stored world
 * (in Chromium) with no sandbox or victim (`attack/tool-attack.ts`; a tool
 * is killed past the ceiling too). Bounded: each
 * attack has a count and a time limit, and is stopped when the server's RSS
 * passes the ceiling (default 1500 MB). The cluster attacks (Redis expiry,
 * a replica's journal) need nginx and Redis and are not run here.
 *
 * Exit code: 0 when every attack stayed within its budgets, 1 when one broke
 * a budget or downed the server, 2 when the suite could not run (a bad flag,
 * no built sandbox, a sandbox that would not start or provision the victim),
 * 130 on Ctrl-C.
 */
import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { adminGuardAttack } from './attack/admin-guard.ts'
import { adminKeyAttack } from './attack/admin-key.ts'
import { adminKeyGuessAttack } from './attack/admin-key-guess.ts'
import type { Attack } from './attack/attack.ts'
import { chunkFloodAttack } from './attack/chunk-flood.ts'
import { conformanceHugeAttack } from './attack/conformance-huge.ts'
import { deepJsonAttack } from './attack/deep-json.ts'
import { delayFloodAttack } from './attack/delay-flood.ts'
import { fullDiskAttack } from './attack/full-disk.ts'
import { headStormAttack } from './attack/head-storm.ts'
import { heldFloodAttack } from './attack/held-flood.ts'
import { hostileStateAttack } from './attack/hostile-state.ts'
import { idleSlotsAttack } from './attack/idle-slots.ts'
import { journalAttack } from './attack/journal.ts'
import { journalSecretsAttack } from './attack/journal-secrets.ts'
import { lazyLoadAttack } from './attack/lazy-load.ts'
import { listWritesAttack } from './attack/list-writes.ts'
import { oversizedPipelineAttack } from './attack/oversized-pipeline.ts'
import { pactSecretsAttack } from './attack/pact-secrets.ts'
import { pipelineSmallAttack } from './attack/pipeline-small.ts'
import { plantFillAttack } from './attack/plant-fill.ts'
import { provisioningRateAttack } from './attack/provisioning-rate.ts'
import { provisioningStormAttack } from './attack/provisioning-storm.ts'
import { replayHostileAttack } from './attack/replay-hostile.ts'
import { type AttackResult, runAttack } from './attack/run-attack.ts'
import { killAllSandboxes } from './attack/sandbox-process.ts'
import { sharePlantBytesAttack } from './attack/share-plant-bytes.ts'
import { shareProvisioningAttack } from './attack/share-provisioning.ts'
import { shareStreamsHeldAttack } from './attack/share-streams-held.ts'
import { sigtermHeldAttack } from './attack/sigterm-held.ts'
import { slowBodiesAttack } from './attack/slow-bodies.ts'
import { slowReadersAttack } from './attack/slow-readers.ts'
import { stateLinkAttack } from './attack/state-link.ts'
import { storedWorldAttack } from './attack/stored-world.ts'
import { runToolAttack, type ToolAttack } from './attack/tool-attack.ts'
import { twoProcessesAttack } from './attack/two-processes.ts'
import { unreadStreamsAttack } from './attack/unread-streams.ts'
import { verifyQuotaAttack } from './attack/verify-quota.ts'
import { webhookFairnessAttack } from './attack/webhook-fairness.ts'

const attacks: readonly (Attack | ToolAttack)[] = [
  journalAttack(1),
  journalAttack(5),
  unreadStreamsAttack(),
  provisioningStormAttack(),
  headStormAttack(),
  delayFloodAttack(),
  oversizedPipelineAttack(),
  adminKeyAttack(),
  adminGuardAttack(),
  heldFloodAttack(),
  provisioningRateAttack(),
  plantFillAttack(),
  slowReadersAttack(),
  listWritesAttack(),
  fullDiskAttack(),
  twoProcessesAttack(),
  stateLinkAttack(),
  hostileStateAttack(),
  // Tool attacks (issue 35): hostile input to recordMswPact, verify, conformance and the browser's stored
  // world (Chromium); no sandbox, no victim.
  pactSecretsAttack(),
  verifyQuotaAttack(),
  conformanceHugeAttack(),
  storedWorldAttack(),
  pipelineSmallAttack('api'),
  pipelineSmallAttack('admin'),
  pipelineSmallAttack('held'),
  chunkFloodAttack(),
  idleSlotsAttack(),
  sharePlantBytesAttack(),
  shareProvisioningAttack(),
  lazyLoadAttack(),
  replayHostileAttack(),
  adminKeyGuessAttack(),
  sigtermHeldAttack(),
  shareStreamsHeldAttack(),
  journalSecretsAttack(),
  webhookFairnessAttack(),
  slowBodiesAttack(),
  deepJsonAttack(),
]

process.on('exit', killAllSandboxes)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAllSandboxes()
    process.exit(130)
  })
}

function usage(message: string): never {
  process.stderr.write(`attack: ${message}\n`)
  process.exit(2)
}

let options: { only?: string; ceiling?: string }
try {
  ;({ values: options } = parseArgs({
    options: { only: { type: 'string' }, ceiling: { type: 'string' } },
    strict: true,
  }))
} catch (error) {
  usage((error as Error).message)
}
const ceilingMb = Number(options.ceiling ?? 1500)
if (!Number.isInteger(ceilingMb) || ceilingMb < 100) usage('--ceiling must be a whole number of MB, at least 100.')
const names = options.only?.split(',').map((name) => name.trim())
const unknown = names?.filter((name) => !attacks.some(({ id }) => id === name)) ?? []
if (unknown.length > 0) {
  usage(`--only: no attack named ${unknown.join(', ')}; the attacks are ${attacks.map(({ id }) => id).join(', ')}.`)
}
const chosen = names ? attacks.filter(({ id }) => names.includes(id)) : attacks
if (!existsSync(new URL('../dist/sandbox/cli.js', import.meta.url))) {
  usage('no built sandbox at dist/sandbox/cli.js: run "npm run attack" (it builds it) or "npm run build:sandbox".')
}

const log = (line: string) => process.stdout.write(`${line}\n`)
log(`Attacking a fresh sandbox per attack (127.0.0.1, default settings), memory ceiling ${ceilingMb} MB.`)
const results: AttackResult[] = []
for (const attack of chosen) {
  log(`- ${attack.name}: ${attack.summary}`)
  try {
    results.push(
      'kind' in attack
        ? await runToolAttack(attack, { ceilingMb })
        : await runAttack(attack, {
            ceilingMb,
            onStarted: ({ url, pid }) => log(`  sandbox pid ${pid} at ${url}`),
          }),
    )
  } catch (error) {
    process.stderr.write(`attack: ${attack.id} could not run: ${(error as Error).message}\n`)
    process.exit(2)
  }
}
log('')
log(table(results))
log('')
for (const result of results) {
  log(`${result.attack.name} (${result.attack.summary}):`)
  for (const { ok, text } of result.checks) log(`  ${ok ? 'ok  ' : 'FAIL'} ${text}`)
  for (const fact of result.facts) log(`       ${fact}`)
}
log('')
log('Not run here: the cluster attacks (Redis keys without expiry, a replica keeping an evicted')
log("tenant's journal, issue 44's fault rules, slow bodies, shares and Redis budget through nginx): they")
log('need nginx and Redis (npm run test:cluster: test/cluster/nginx-attacks.test.ts, redis-budget.test.ts).')
const broken = results.filter(({ within }) => !within)
log(
  broken.length === 0
    ? `All ${results.length} attacks stayed within their budgets.`
    : `${broken.length} of ${results.length} attacks broke a budget or downed the server: ${broken.map(({ attack }) => attack.name).join('; ')}.`,
)
process.exitCode = broken.length === 0 ? 0 : 1

/** The report as a Markdown table. */
function table(rows: readonly AttackResult[]): string {
  const header = [
    'attack',
    'peak RSS MB',
    'peak heap MB',
    'budget',
    'within?',
    'victim p50 ms',
    'victim p99 ms',
    'victim errors',
    'server up after?',
  ]
  const lines = rows.map((row) => [
    row.attack.name,
    row.peakRssMb.toFixed(0),
    Number.isNaN(row.peakHeapMb) ? 'n/a' : row.peakHeapMb.toFixed(0),
    row.attack.budget,
    row.within ? 'yes' : 'NO',
    row.noServer ? 'n/a' : row.victimP50Ms.toFixed(1),
    row.noServer ? 'n/a' : row.victimP99Ms.toFixed(1),
    row.noServer ? 'n/a' : `${row.victimErrors}/${row.victimRequests}`,
    row.noServer ? 'n/a' : row.serverUp ? 'yes' : 'NO',
  ])
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n')
}
