/**
 * Issue 27: the bench scripts on a machine without a tool they need (wrk,
 * nginx, redis-server) say so in one line on stderr, naming it, and exit
 * with code 2, instead of dying with a stack trace (`spawn wrk ENOENT`).
 * Each is run as npm runs it, with a PATH that lacks the tool.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Runs `node <args>` in the project with a PATH where none of the tools is. */
function withoutTools(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: '/nonexistent', PACT_DO_NOT_TRACK: 'true' }
  delete env.WRK_BIN
  const run = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', timeout: 60_000 })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

function expectOneLineNaming(run: ReturnType<typeof withoutTools>, tool: string): void {
  expect(run.status, run.stderr).toBe(2)
  const lines = run.stderr.trim().split('\n')
  expect(lines, run.stderr).toHaveLength(1)
  expect(lines[0]).toContain(`needs ${tool}`)
  expect(run.stderr).not.toMatch(/ENOENT|\n\s+at /)
}

test('npm run bench without wrk: its first step says wrk is missing, exit code 2', () => {
  expectOneLineNaming(withoutTools(['bench/tools.ts', 'npm run bench', 'wrk']), 'wrk')
})

test('bench/server.ts (the wrk bench) without wrk: one line, exit code 2, before any server starts', () => {
  const run = withoutTools(['bench/server.ts', '--quick'])
  expectOneLineNaming(run, 'wrk')
  expect(run.stdout).toBe('')
})

test('bench:cluster without nginx: one line naming it, exit code 2', () => {
  expectOneLineNaming(withoutTools(['bench/cluster.ts']), 'nginx')
})

test('a WRK_BIN that is not there is named as such', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, WRK_BIN: '/nonexistent/wrk' }
  const run = spawnSync(process.execPath, ['bench/tools.ts', 'npm run bench', 'wrk'], {
    cwd: root,
    env,
    encoding: 'utf8',
  })
  expect(run.status).toBe(2)
  expect(run.stderr).toContain('/nonexistent/wrk (from WRK_BIN)')
})
