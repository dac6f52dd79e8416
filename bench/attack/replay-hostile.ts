/**
 * Issue 38: `replay` of hostile HARs, under `--max-old-space-size=64` (less
 * heap than the first file takes parsed at once): 100,000 exchanges, each
 * with a token of its own the map does not name (a tenant each, were they
 * all learned) and each a disagreement past the first 1,000 tokens; then the
 * same file over `--max-size`; then a file that is not a HAR. It must end by
 * itself, exit 1, 2 and 2 with one line for the last two, its RSS bounded:
 * the file streamed, the learned tokens and the kept disagreements capped.
 */
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import { lastLines, runTool, type ToolAttack } from './tool-attack.ts'

const cli = new URL('../../dist/sandbox/cli.js', import.meta.url).pathname
const exchanges = 100_000

/** Writes the HAR: each entry a list with a token of its own, answered 200 with two plants. */
async function writeHostileHar(file: string): Promise<void> {
  const out = createWriteStream(file)
  out.write('{"log":{"version":"1.2","creator":{"name":"replay-hostile","version":"1"},"entries":[')
  for (let i = 0; i < exchanges; i++) {
    const entry = {
      startedDateTime: '2026-11-28T00:00:00.000Z',
      request: {
        method: 'GET',
        url: 'https://plants.example.com/plants',
        headers: [{ name: 'Authorization', value: `Bearer hostile-token-${i}` }],
      },
      response: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        content: { size: 40, text: `[{"name":"Fern ${i}"},{"name":"Ivy","tag":"vine"}]` },
      },
    }
    if (!out.write(`${i === 0 ? '' : ','}${JSON.stringify(entry)}`)) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()))
    }
  }
  out.end(']}}')
  await finished(out)
}

/** The replay-hostile attack. */
export function replayHostileAttack(): ToolAttack {
  return {
    kind: 'tool',
    id: 'replay-hostile',
    name: 'replay: 100,000 tokens, over the bound, not a HAR',
    summary: `replay of a HAR of ${exchanges.toLocaleString('en')} exchanges, each a token of its own, under a 64 MB heap; the same over --max-size; a text file`,
    rssBudgetMb: 300,
    budget: 'exit 1, 1,000 disagreements kept; over the bound and not a HAR: one line, exit 2',
    timeLimitMs: 120_000,
    async run({ ceilingMb }) {
      const folder = await mkdtemp(join(tmpdir(), 'psm-replay-hostile-'))
      try {
        const har = join(folder, 'hostile.har')
        await writeHostileHar(har)
        const { size } = await stat(har)
        const heap = '--max-old-space-size=64'
        const text = await runTool([heap, cli, 'replay', har], { timeLimitMs: 90_000, ceilingMb })
        const bounded = await runTool([heap, cli, 'replay', har, '--max-size', '1MiB'], {
          timeLimitMs: 20_000,
          ceilingMb,
        })
        const notHar = join(folder, 'notes.txt')
        await writeFile(notHar, 'Not a HAR at all.\n'.repeat(1000))
        const refused = await runTool([heap, cli, 'replay', notHar], { timeLimitMs: 20_000, ceilingMb })
        const lines = (run: typeof refused) => run.stderr.trim().split('\n').length
        // The last line says how many were listed and how many only counted (the output kept is cut short).
        const summary = lastLines(text.stdout, 1)
        const counted = /of the first 1000: .*; (\d+) more not listed/.exec(summary)?.[1]
        return {
          peakRssMb: Math.max(text.peakRssMb, bounded.peakRssMb, refused.peakRssMb),
          checks: [
            {
              ok:
                text.endedByItself &&
                text.code === 1 &&
                summary.includes(`Replayed ${exchanges} `) &&
                Number(counted) === exchanges - 2000,
              text: `the HAR of ${exchanges} tokens (${(size / 2 ** 20).toFixed(0)} MiB): ${text.endedByItself ? `exit ${text.code ?? text.signal}` : 'killed'}, 1,000 disagreements listed and ${counted ?? 'none'} counted (budget: exit 1, the first 1,000 tokens learned, 1,000 listed, ${exchanges - 2000} counted)`,
            },
            {
              ok:
                bounded.endedByItself &&
                bounded.code === 2 &&
                lines(bounded) === 1 &&
                bounded.stderr.includes('--max-size'),
              text: `over --max-size 1MiB: exit ${bounded.code ?? bounded.signal}, ${lines(bounded)} line(s) (budget: exit 2, one line)`,
            },
            {
              ok:
                refused.endedByItself &&
                refused.code === 2 &&
                lines(refused) === 1 &&
                refused.stderr.includes('not a HAR'),
              text: `a text file: exit ${refused.code ?? refused.signal}, ${lines(refused)} line(s) (budget: exit 2, one line)`,
            },
          ],
          facts: [`replay said: ${summary}`, `over the bound: ${lastLines(bounded.stderr, 1)}`],
        }
      } finally {
        await rm(folder, { recursive: true, force: true })
      }
    },
  }
}
