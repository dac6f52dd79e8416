/**
 * Issue 44, item 4: every file a tool reads nested 5,000,000 arrays deep
 * (10 MB: a few bytes a level), each tool under `--max-old-space-size=64`:
 * `replay` of a HAR whose one answer nests them, of a HAR that nests them
 * itself, and with such a token map; `coverage` of a folder holding such a
 * pact, and of such a coverage report; `verify` of such a pact; the sandbox
 * with such a `--fixtures` file and such a `--state-file`. Each must end by
 * itself with exit 2 and one line (a bad flag's usage hint aside), its RSS
 * bounded: the depth is scanned before anything is parsed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runTool, type ToolAttack, type ToolRun } from './tool-attack.ts'

const defaultCli = new URL('../../dist/sandbox/cli.js', import.meta.url).pathname
const levels = 5_000_000

/** The hint every bad flag of the sandbox ends with, after its one line. */
const usageHint = '(run "plant-store-mock --help" for usage)'

/**
 * Writes into `folder` every file a tool reads, each nested `depth` arrays
 * deep (a well-formed `ok.har` beside them for `--tokens`); answers the
 * command line each is given to (below the bin). The attack's and the
 * deep-json test's one set of files.
 *
 * @example
 * const runs = await writeDeepJsonFiles(folder, 1_000_000)
 */
export async function writeDeepJsonFiles(
  folder: string,
  depth = levels,
): Promise<Array<{ name: string; args: string[] }>> {
  const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`
  const file = (name: string) => join(folder, name)
  const entry = (text: string) => ({
    request: { method: 'GET', url: 'https://plants.example.com/plants', headers: [] },
    response: { status: 200, headers: [], content: { mimeType: 'application/json', text } },
  })
  await writeFile(file('body.har'), JSON.stringify({ log: { entries: [entry(nested)] } }))
  await writeFile(file('structure.har'), `{"log":{"entries":[{"request":${nested}}]}}`)
  await writeFile(file('ok.har'), JSON.stringify({ log: { entries: [entry('[]')] } }))
  await writeFile(file('tokens.json'), `{"t":${nested}}`)
  await mkdir(file('pacts'))
  await writeFile(file('pacts/deep.json'), `{"consumer":{"name":"a"},"provider":{"name":"b"},"interactions":${nested}}`)
  await writeFile(file('report.json'), `{"operations":${nested}}`)
  await writeFile(file('fixtures.json'), nested)
  await writeFile(file('state.json'), nested)
  return [
    { name: 'replay: a HAR whose answer nests them', args: ['replay', file('body.har')] },
    { name: 'replay: a HAR that nests them', args: ['replay', file('structure.har')] },
    { name: 'replay: a token map', args: ['replay', file('ok.har'), '--tokens', file('tokens.json')] },
    { name: 'coverage: a folder with such a pact', args: ['coverage', file('pacts')] },
    { name: 'coverage: a coverage report', args: ['coverage', file('report.json')] },
    { name: 'verify: a pact', args: ['verify', file('pacts/deep.json')] },
    { name: 'sandbox: --fixtures', args: ['--port', '0', '--fixtures', file('fixtures.json')] },
    { name: 'sandbox: --state-file', args: ['--port', '0', '--state-file', file('state.json')] },
  ]
}

/** The lines a run said on stderr, a bad flag's usage hint aside. */
const linesOf = (run: ToolRun) =>
  run.stderr
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '' && line !== usageHint)

/**
 * Runs every tool on its file with the bin at `cli` (default: this worktree's build); answers each run.
 *
 * @example
 * const runs = await runDeepJson({ ceilingMb: 1500 })
 */
export async function runDeepJson({
  ceilingMb,
  cli = defaultCli,
}: {
  ceilingMb: number
  cli?: string
}): Promise<Array<{ name: string; run: ToolRun }>> {
  const folder = await mkdtemp(join(tmpdir(), 'psm-deep-json-'))
  try {
    const runs: Array<{ name: string; run: ToolRun }> = []
    for (const { name, args } of await writeDeepJsonFiles(folder)) {
      const run = await runTool(['--max-old-space-size=64', cli, ...args], { timeLimitMs: 60_000, ceilingMb })
      runs.push({ name, run })
    }
    return runs
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** The deep-json attack. */
export function deepJsonAttack(): ToolAttack {
  return {
    kind: 'tool',
    id: 'deep-json',
    name: 'tools: JSON 5,000,000 levels deep',
    summary: `replay (HAR body, HAR, token map), coverage (pact folder, report), verify, --fixtures and --state-file, each on 10 MB nested ${levels.toLocaleString('en')} levels deep, under a 64 MB heap`,
    rssBudgetMb: 250,
    budget: 'each: exit 2 and one line, ended by itself',
    timeLimitMs: 600_000,
    async run({ ceilingMb }) {
      const runs = await runDeepJson({ ceilingMb })
      return {
        peakRssMb: Math.max(...runs.map(({ run }) => run.peakRssMb)),
        checks: runs.map(({ name, run }) => {
          const lines = linesOf(run)
          return {
            ok: run.endedByItself && run.code === 2 && lines.length === 1 && /nests deeper/.test(lines[0] ?? ''),
            text: `${name}: ${run.endedByItself ? `exit ${run.code ?? run.signal}` : 'killed'}, ${lines.length} line(s), ${run.peakRssMb.toFixed(0)} MB RSS (budget: exit 2, one line)`,
          }
        }),
        facts: runs.map(({ name, run }) => `${name}: ${linesOf(run)[0] ?? '(nothing said)'}`),
      }
    },
  }
}

// `node bench/attack/deep-json.ts [cli.js]`: the runs alone, as one line each (for before/after figures).
if (import.meta.main) {
  for (const { name, run } of await runDeepJson({ ceilingMb: 4000, cli: process.argv[2] ?? defaultCli })) {
    const said = linesOf(run)
    process.stdout.write(
      `${name}: ${run.endedByItself ? `exit ${run.code ?? run.signal}` : 'killed'}, ${said.length} line(s), peak RSS ${run.peakRssMb.toFixed(0)} MB: ${(said[0] ?? '').slice(0, 140)}\n`,
    )
  }
}
