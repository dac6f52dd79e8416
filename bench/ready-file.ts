import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Waits for a sandbox started with `--ready-file <file>` to write it, and
 * answers what it says: its `url` and `port`. The file is written atomically,
 * so it is absent until whole. Rejects when the process exits first or after
 * `timeoutMs`.
 *
 * @example
 * const { url } = await readyFile(join(dir, 'ready.json'), child)
 */
export async function readyFile(
  file: string,
  child: ChildProcess,
  timeoutMs = 15_000,
): Promise<{ url: string; port: number }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the sandbox exited with ${child.exitCode ?? child.signalCode}`)
    }
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as { url: string; port: number }
    } catch {
      // Not written yet.
    }
    if (Date.now() > deadline) throw new Error(`the sandbox did not start within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
