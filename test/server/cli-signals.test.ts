/**
 * The CLI's set-up and usage signals (issue 42, item 6): a port in use is a
 * set-up problem (exit 2, one line), and an unknown flag near a known one
 * gets a "did you mean" in its one line, for the sandbox and each subcommand.
 */
import { once } from 'node:events'
import { createServer } from 'node:net'
import { describe, expect, test } from 'vitest'
import { spawnCli } from '../conformance/support.ts'

/** The hint every bad flag ends with, after its one line. */
const usageHint = /^\(run "plant-store-mock( \w+)? --help" for usage\)$/

/** What a run said on stderr, a bad flag's usage hint aside. */
const said = (stderr: string) =>
  stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !usageHint.test(line))

describe('the sandbox on a port in use', () => {
  test('exits 2 with one line naming the address', async () => {
    const holder = createServer().listen(0, '127.0.0.1')
    await once(holder, 'listening')
    const { port } = holder.address() as { port: number }
    try {
      const { code, stdout, stderr } = await spawnCli(['--port', String(port), '--log-level', 'silent']).done

      expect({ code, stdout }).toEqual({ code: 2, stdout: '' })
      expect(said(stderr)).toEqual([`plant-store-mock: 127.0.0.1:${port} is already in use; choose another --port.`])
    } finally {
      holder.close()
    }
  })
})

describe('an unknown flag', () => {
  test.for([
    [['coverage', 'pacts', '--minimum', '60'], '--minimum', '--min'],
    [['coverage', 'pacts', '--jsn'], '--jsn', '--json'],
    [['replay', 'a.har', '--max', '1MiB'], '--max', '--max-size'],
    [['--prot', '0'], '--prot', '--port'],
  ] as const)('%j: one line with its "did you mean", exit 2', async ([args, flag, meant]) => {
    const { code, stdout, stderr } = await spawnCli([...args]).done

    expect({ code, stdout }).toEqual({ code: 2, stdout: '' })
    expect(said(stderr)).toEqual([`error: unknown option '${flag}' (did you mean ${meant}?)`])
  })

  test('far from every known flag: one line without a guess, exit 2', async () => {
    const { code, stderr } = await spawnCli(['coverage', 'pacts', '--zzzzzz']).done

    expect(code).toBe(2)
    expect(said(stderr)).toEqual(["error: unknown option '--zzzzzz'"])
  })
})
