/**
 * Issue 35, F12: `verify` of a 430-byte pact whose provider state asks for
 * 50,000,000 plants (it ran out of a 4.28 GB heap after ~150 s, a native
 * stack trace, SIGTERM ignored), under `--max-old-space-size=400`: it must
 * end by itself with one line and exit 2. Then the same pact from a URL (no
 * check before the Verifier runs), sent SIGTERM a second after it was
 * fetched: it must end, of the signal or having refused the state at set-up.
 */
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastLines, runTool, type ToolAttack } from './tool-attack.ts'

const cli = new URL('../../dist/sandbox/cli.js', import.meta.url).pathname

/** The audit's pact: one interaction, a state asking for 50,000,000 plants (the verify tests' fixture too). */
const hugeStatePact = readFileSync(new URL('../../test/pact/fixtures/huge-state.json', import.meta.url), 'utf8')

/** The verify-quota attack. */
export function verifyQuotaAttack(): ToolAttack {
  return {
    kind: 'tool',
    id: 'verify-quota',
    name: 'verify: a state beyond the quotas, then SIGTERM',
    summary: `a ${hugeStatePact.length}-byte pact asking for 50,000,000 plants, under a 400 MB heap; from a URL with SIGTERM`,
    rssBudgetMb: 350,
    budget: 'one line, exit 2; from a URL, it ends',
    timeLimitMs: 60_000,
    async run({ ceilingMb }) {
      const folder = await mkdtemp(join(tmpdir(), 'psm-verify-quota-'))
      let fetched: () => void = () => undefined
      const fetching = new Promise<void>((resolve) => {
        fetched = resolve
      })
      const serving = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(hugeStatePact)
        fetched()
      })
      try {
        const pact = join(folder, 'app-plant-store.json')
        await writeFile(pact, hugeStatePact)
        const huge = await runTool(['--max-old-space-size=400', cli, 'verify', pact], {
          timeLimitMs: 30_000,
          ceilingMb,
        })
        const lines = huge.stderr.trim().split('\n')

        await new Promise<void>((resolve) => serving.listen(0, '127.0.0.1', resolve))
        const { port } = serving.address() as AddressInfo
        const stopped = await runTool(
          ['--max-old-space-size=400', cli, 'verify', `http://127.0.0.1:${port}/app-plant-store.json`],
          {
            timeLimitMs: 20_000,
            ceilingMb,
            onStart: (kill) => void fetching.then(() => setTimeout(() => kill('SIGTERM'), 1000)).catch(() => undefined),
          },
        )
        const refused = stopped.code === 1 && stopped.stderr.includes('a tenant holds at most')
        return {
          peakRssMb: Math.max(huge.peakRssMb, stopped.peakRssMb),
          checks: [
            {
              ok: huge.endedByItself && huge.code === 2 && lines.length === 1,
              text: `the huge state: ${huge.endedByItself ? `exit ${huge.code ?? huge.signal}` : huge.passedCeiling ? `killed past the ceiling of ${ceilingMb} MB` : 'killed at 30 s'}, ${lines.length} line(s) on stderr (budget: exit 2, one line)`,
            },
            {
              ok: stopped.endedByItself && (stopped.signal === 'SIGTERM' || refused),
              text: `the same pact from a URL, SIGTERM 1 s after: ${stopped.endedByItself ? (refused ? 'the state refused at set-up, exit 1' : `ended: ${stopped.signal ?? `exit ${stopped.code}`}`) : stopped.passedCeiling ? `killed past the ceiling of ${ceilingMb} MB` : 'SIGTERM ignored: killed at 20 s'}`,
            },
          ],
          facts: [`verify said: ${lastLines(huge.stderr, 1)}`, `from the URL: ${lastLines(stopped.stderr, 1)}`],
        }
      } finally {
        serving.closeAllConnections()
        serving.close()
        await rm(folder, { recursive: true, force: true })
      }
    },
  }
}
