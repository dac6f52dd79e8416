/**
 * A full disk under `--state-file` (issue 35, F3): a sandbox whose state file
 * is on a real 2 MiB tmpfs takes 700 creates of plants of 256-code-point
 * names (~1.8 KB a record, compactions among them) while another file takes
 * half the disk, so that it fills; then that file is removed and 50 more are
 * made (the sandbox takes writes again without a restart); then it is killed
 * with SIGKILL and started again. The audit found all 700
 * answered 200 and a file the restart refused (a short compaction renamed
 * over the log, a hole of NUL bytes). Every create must be acknowledged only
 * once on disk (the rest 503 with an Error body) and the restart must hold
 * every acknowledged one. Needs root (mount).
 */
import { rmSync, writeFileSync } from 'node:fs'
import type { Attack } from './attack.ts'
import { tally } from './attack.ts'
import { acknowledgedOf, acmePlantIds, createPlants, killHard, smallDisk, startOnStateFile } from './state-files.ts'

const creates = 700

/** The full-disk attack. */
export function fullDiskAttack(): Attack {
  return {
    id: 'full-disk',
    name: 'full disk under --state-file',
    summary: `${creates} creates of 256-code-point plants with the state file on a 2 MiB tmpfs (1 MiB taken), then 50 with room again, kill -9, restart`,
    rssBudgetMb: 350,
    budget: 'refusals 503 with an Error body; 0 acknowledged creates lost; the restart starts',
    timeLimitMs: 90_000,
    victim: 'health',
    async run() {
      const disk = await smallDisk('2m')
      const stateFile = `${disk.folder}/state.jsonl`
      try {
        const filler = `${disk.folder}/filler`
        writeFileSync(filler, Buffer.alloc(1 << 20))
        const first = await startOnStateFile(stateFile)
        const { statuses, bare } = await createPlants(first.url, 10_000, creates)
        const heldBefore = await acmePlantIds(first.url)
        rmSync(filler)
        const later = await createPlants(first.url, 20_000, 50, 1)
        await killHard(first)
        const laterAcknowledged = acknowledgedOf(later.statuses).length
        const acknowledged = [...acknowledgedOf(statuses), ...acknowledgedOf(later.statuses)]
        const refused = [...statuses.values()].filter((status) => status !== 200)
        let restarted: Set<number> | undefined
        let restartError = ''
        try {
          const second = await startOnStateFile(stateFile)
          restarted = await acmePlantIds(second.url)
          await second.stop()
        } catch (error) {
          restartError = (error as Error).message
        }
        const lost = restarted ? acknowledged.filter((id) => !restarted.has(id)).length : acknowledged.length
        const visibleRefused = [...statuses].filter(([id, status]) => status !== 200 && heldBefore.has(id)).length
        return {
          checks: [
            {
              ok: refused.every((status) => status === 503) && bare === 0,
              text: `creates answered ${tally([...statuses.values()])}; refusals without an Error body: ${bare} (budget: 503 with one)`,
            },
            {
              ok: laterAcknowledged === 50,
              text: `once the disk had room again: ${laterAcknowledged} of 50 creates acknowledged (budget 50)`,
            },
            {
              ok: restarted !== undefined,
              text: restarted ? 'the restart started' : `the restart failed: ${restartError}`,
            },
            {
              ok: lost === 0,
              text: `acknowledged creates lost after kill -9 and restart: ${lost} of ${acknowledged.length} (budget 0)`,
            },
            { ok: visibleRefused === 0, text: `refused creates visible before the kill: ${visibleRefused} (budget 0)` },
          ],
          facts: [
            `with 1 MiB of the 2 MiB taken: ${acknowledgedOf(statuses).length} of ${creates} acknowledged, ${refused.length} refused; ${restarted?.size ?? 0} Acme plants after the restart (5 seeded)`,
          ],
        }
      } finally {
        await disk.remove()
      }
    },
  }
}
