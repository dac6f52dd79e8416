/**
 * `npm start` as a developer runs it: npm runs a shell that runs the sandbox.
 * A signal sent to npm's own pid (what a process manager, a CI step's
 * timeout or `kill -TERM` does) must reach the sandbox and stop it.
 */
import { afterEach, expect, test } from 'vitest'
import { type RunningCli, startCommand } from '../reliability/cli.ts'

let started: RunningCli | undefined
afterEach(() => started?.killGroup())

test('npm start passes SIGTERM on to the sandbox, which stops serving, and npm exits 0', async () => {
  started = await startCommand('npm', ['start', '--', '--port', '0', '--log-level', 'warn'], {}, { detached: true })
  expect((await fetch(`${started.url}/__sandbox/health`)).status).toBe(200)

  expect(await started.stop('SIGTERM')).toBe(0)

  await expect(fetch(`${started.url}/__sandbox/health`)).rejects.toThrow('fetch failed')
}, 60_000)
