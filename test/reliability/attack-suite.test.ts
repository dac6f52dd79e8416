/**
 * The attack suite itself (`npm run attack`, bench/attack.ts), cheaply: its
 * flags, that its exit code tells the truth of its table, and that it leaves
 * no sandbox behind. Runs the built sandbox (`npm test` builds it first, in
 * `npm run check`); the attacks' figures are the suite's to report, not
 * asserted here.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `node bench/attack.ts …args`; `onLine` sees each stdout line as it comes. */
function attack(args: readonly string[], onLine: (line: string, stop: () => void) => void = () => {}): Promise<Run> {
  const child = spawn(process.execPath, ['bench/attack.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = chunk.toString().split('\n')
    stdout += chunk.toString()
    for (const line of lines) onLine(line, () => child.kill('SIGINT'))
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

/** Whether a process is still running (a zombie or a gone one is not). */
function running(pid: number): boolean {
  try {
    return !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

test('refuses an attack it does not know with one line naming the attacks, and exit code 2', async () => {
  const run = await attack(['--only', 'no-such-attack'])
  expect(run.code).toBe(2)
  expect(run.stderr.trim().split('\n')).toHaveLength(1)
  expect(run.stderr).toContain('no attack named no-such-attack; the attacks are journal-1, journal-5, streams')
})

test('the pipelined-request attack prints its row, exits 0 exactly when the row says within budget, and stops its sandbox', async () => {
  expect(existsSync(`${root}/dist/sandbox/cli.js`), 'run "npm run build:sandbox" first').toBe(true)
  const pids: number[] = []
  const run = await attack(['--only', 'pipeline'], (line) => {
    const pid = /sandbox pid (\d+)/.exec(line)?.[1]
    if (pid) pids.push(Number(pid))
  })
  const row = run.stdout.split('\n').find((line) => line.startsWith('| oversized body + pipelined |'))
  expect(row, run.stdout + run.stderr).toBeDefined()
  const cells = (row ?? '').split('|').map((cell) => cell.trim())
  const within = cells[5]
  const serverUp = cells[9]
  expect(['yes', 'NO']).toContain(within)
  expect(serverUp).toBe('yes')
  expect(run.code).toBe(within === 'yes' ? 0 : 1)
  expect(pids).toHaveLength(1)
  expect(running(pids[0] ?? 0)).toBe(false)
}, 60_000)

test('Ctrl-C stops the suite at once with exit code 130 and kills the sandbox it started', async () => {
  const pids: number[] = []
  const run = await attack(['--only', 'delay'], (line, stop) => {
    const pid = /sandbox pid (\d+)/.exec(line)?.[1]
    if (!pid) return
    pids.push(Number(pid))
    stop()
  })
  expect(run.code).toBe(130)
  // Stopped during the attack: it never got to its row, nor the suite to its table.
  expect(run.stdout).not.toContain('| Prefer: delay flood |')
  expect(run.stdout).not.toContain('attacks stayed within their budgets')
  expect(pids).toHaveLength(1)
  for (let tries = 0; tries < 20 && running(pids[0] ?? 0); tries++) await new Promise((r) => setTimeout(r, 100))
  expect(running(pids[0] ?? 0)).toBe(false)
}, 60_000)
