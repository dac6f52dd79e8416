/**
 * A hostile or damaged state file (issue 35, F11): the audit's 200-byte file
 * with a seeded count of 50,000,000 had not started after 60 s at 3.25 GB of
 * RSS; one 200 MB line took over 60 s; three garbage lines at the end were
 * dropped and the file cut, though the docs said a corrupt file is left
 * untouched. Each must now be refused with one line on stderr (exit 2 beyond
 * the bounds, 1 for damage), the start's RSS bounded, the file untouched.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Attack, Check } from './attack.ts'
import { newFolder, runCliToEnd } from './state-files.ts'

const header = `${JSON.stringify({ format: 'plant-store-mock/state', version: 2, savedAt: '2026-11-28T00:00:00.000Z' })}\n`
const tenant = (id: string, plants: number) =>
  `${JSON.stringify({ t: 'tenant', tenant: { id, name: id, seed: 1, plants, users: [] }, provisioned: false, listed: false })}\n`
/** The start's RSS budget, in MB: a sandbox that loaded nothing. */
const rssBudgetMb = 200

const cases: ReadonlyArray<{ what: string; text: () => string | Buffer; code: number }> = [
  { what: 'a 200-byte file seeding 50,000,000 plants', text: () => `${header}${tenant('huge', 50_000_000)}`, code: 2 },
  {
    what: 'a line of 200 MB',
    text: () =>
      Buffer.concat([
        Buffer.from(`${header}{"t":"create","tenant":"acme","plant":{"id":1,"name":"`),
        Buffer.alloc(200e6, 'x'),
        Buffer.from('"}}\n'),
      ]),
    code: 2,
  },
  {
    what: 'three garbage lines at the end',
    text: () => `${header}${tenant('small', 3)}garbage\n{"t":"create","tenant":\n\u0000\u0000\u0000\n`,
    code: 1,
  },
]

/** The hostile-state attack. */
export function hostileStateAttack(): Attack {
  return {
    id: 'hostile-state',
    name: 'hostile state file',
    summary: cases.map(({ what }) => what).join('; '),
    rssBudgetMb: 350,
    budget: `each refused with one line (exit 2 beyond the bounds, 1 damaged), the file untouched, RSS ≤ ${rssBudgetMb} MB`,
    timeLimitMs: 120_000,
    victim: 'health',
    async run() {
      const { folder, remove } = newFolder()
      const checks: Check[] = []
      try {
        for (const [index, { what, text, code }] of cases.entries()) {
          const stateFile = join(folder, `hostile-${index}.jsonl`)
          writeFileSync(stateFile, text())
          const before = digest(stateFile)
          const ended = await runCliToEnd(['--state-file', stateFile, '--log-level', 'warn'], 30_000)
          const lines = ended.stderr.trim().split('\n')
          checks.push({
            ok:
              ended.code === code &&
              lines.length === 1 &&
              ended.peakRssMb <= rssBudgetMb &&
              digest(stateFile) === before,
            text: `${what}: exit ${ended.code} (budget ${code}) after ${ended.seconds.toFixed(1)} s, peak RSS ${ended.peakRssMb.toFixed(0)} MB, ${lines.length} line(s): "${(lines[0] ?? '').slice(0, 200)}"${digest(stateFile) === before ? '' : ', THE FILE CHANGED'}`,
          })
        }
        return { checks, facts: [] }
      } finally {
        remove()
      }
    },
  }
}

function digest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}
