/**
 * Two sandboxes on one state file (issue 35, F4): the audit started both, and
 * a `kill -9` lost 600 of 1,200 acknowledged creates (SIGTERM: 600 the other
 * way, overwritten by the other's last compaction). The second start must be
 * refused with one line and exit code 2, through the path or a link to it;
 * then 1,200 creates on the first, `kill -9`, and the second starts (the lock
 * of a dead process is stale) with every acknowledged create.
 */
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import type { Attack } from './attack.ts'
import {
  acknowledgedOf,
  acmePlantIds,
  createPlants,
  killHard,
  newFolder,
  runCliToEnd,
  startOnStateFile,
} from './state-files.ts'

const creates = 1_200

/** The two-processes attack. */
export function twoProcessesAttack(): Attack {
  return {
    id: 'two-processes',
    name: 'two sandboxes on one state file',
    summary: `a second sandbox on a state file in use (by its path and by a link), then ${creates} creates, kill -9, the second starts`,
    rssBudgetMb: 350,
    budget: 'the second refused (one line, exit 2); 0 acknowledged creates lost',
    timeLimitMs: 90_000,
    victim: 'health',
    async run() {
      const { folder, remove } = newFolder()
      try {
        const stateFile = join(folder, 'state.jsonl')
        const link = join(folder, 'link.jsonl')
        symlinkSync(stateFile, link)
        const first = await startOnStateFile(stateFile)
        // Refused at once, or else killed after 15 s (it started: the audit's case).
        const seconds = [
          await runCliToEnd(['--state-file', stateFile], 15_000),
          await runCliToEnd(['--state-file', link], 15_000),
        ]
        const { statuses } = await createPlants(first.url, 10_000, creates, 16)
        await killHard(first)
        const acknowledged = acknowledgedOf(statuses)
        const after = await startOnStateFile(stateFile)
        const held = await acmePlantIds(after.url)
        await after.stop()
        const lost = acknowledged.filter((id) => !held.has(id)).length
        return {
          checks: seconds
            .map((second, index) => ({
              ok: second.code === 2 && second.stderr.trim().split('\n').length === 1,
              text: `second sandbox ${index === 0 ? 'on the path' : 'through a link'}: exit ${second.code}, "${second.stderr.trim().slice(0, 160)}"`,
            }))
            .concat([
              { ok: lost === 0, text: `acknowledged creates lost: ${lost} of ${acknowledged.length} (budget 0)` },
            ]),
          facts: [],
        }
      } finally {
        remove()
      }
    },
  }
}
