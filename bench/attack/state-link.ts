/**
 * A state file through a link, and a link planted at the temporary name
 * (issue 35, F9 and F10): the audit's compaction renamed over the link (233
 * of 1,200 acknowledged creates missing after a restart) and opened
 * `.<name>.<pid>.tmp` with `'w'`, following a planted link (its target got
 * the whole state, tokens included). Here: `--state-file` is a link; links to
 * a victim file are planted at that old name beside the link and beside the
 * real file; 1,200 creates (several compactions), SIGTERM (one more), restart
 * through the link. The link must stay a link, the victim untouched, the
 * file mode 0600, and every acknowledged create there.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Attack } from './attack.ts'
import { acknowledgedOf, acmePlantIds, createPlants, newFolder, startOnStateFile } from './state-files.ts'

const creates = 1_200
const victimText = 'not the state\n'

/** The state-link attack. */
export function stateLinkAttack(): Attack {
  return {
    id: 'state-link',
    name: '--state-file through a link',
    summary: `--state-file a link, links planted at the old temporary names, ${creates} creates, SIGTERM, restart`,
    rssBudgetMb: 350,
    budget: 'the link kept; the planted link not followed; 0 acknowledged creates lost',
    timeLimitMs: 90_000,
    victim: 'health',
    async run() {
      const { folder, remove } = newFolder()
      try {
        mkdirSync(join(folder, 'real'))
        const real = join(folder, 'real', 'state.jsonl')
        const link = join(folder, 'link.jsonl')
        symlinkSync(real, link)
        const victim = join(folder, 'victim.txt')
        writeFileSync(victim, victimText)
        const first = await startOnStateFile(link)
        symlinkSync(victim, join(folder, `.link.jsonl.${first.pid}.tmp`))
        symlinkSync(victim, join(folder, 'real', `.state.jsonl.${first.pid}.tmp`))
        const { statuses } = await createPlants(first.url, 10_000, creates, 16)
        await first.stop(20_000)
        const acknowledged = acknowledgedOf(statuses)
        const second = await startOnStateFile(link)
        const held = await acmePlantIds(second.url)
        await second.stop(20_000)
        const lost = acknowledged.filter((id) => !held.has(id)).length
        const mode = existsSync(real) ? (statSync(real).mode & 0o777).toString(8) : 'none (no real file)'
        return {
          checks: [
            {
              ok: lstatSync(link).isSymbolicLink(),
              text: `--state-file still a link: ${lstatSync(link).isSymbolicLink()}`,
            },
            { ok: readFileSync(victim, 'utf8') === victimText, text: 'the planted link target untouched' },
            { ok: mode === '600', text: `the state file's mode ${mode} (budget 600)` },
            { ok: lost === 0, text: `acknowledged creates lost: ${lost} of ${acknowledged.length} (budget 0)` },
          ],
          facts: existsSync(real) ? [`the real file holds ${(statSync(real).size / 1e6).toFixed(1)} MB`] : [],
        }
      } finally {
        remove()
      }
    },
  }
}
