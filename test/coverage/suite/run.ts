/** Runs the fixture suite of this folder in a child Vitest, as ../suite.test.ts and the Playwright coverage test do. */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * Runs Vitest on the fixture suite with these flags, requiring these answers (and writing the JSON report to
 * `json` when given), in a child process with only PATH and those in its environment.
 */
export function runFixtureSuite(
  flags: readonly string[],
  require: readonly string[],
  json = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const vitest = join(root, 'node_modules/vitest/vitest.mjs')
  const args = [vitest, 'run', '--config', 'test/coverage/suite/vitest.config.ts', ...flags]
  const env = { PATH: process.env.PATH ?? '', PSM_REQUIRE: require.join('|'), PSM_JSON: json }
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(process.execPath, args, { cwd: root, env, timeout: 90_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    )
  })
}
