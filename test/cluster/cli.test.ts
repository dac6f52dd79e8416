/**
 * `npm run cluster` (cluster/start.ts) as a user runs it: a taken port or a
 * bad flag is one line and exit 2 with nothing started; a replica that dies
 * is reported in one line naming it; Ctrl-C (SIGINT) and SIGTERM stop
 * everything with exit 130 and 143 and leave no temporary folder behind.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'

const start = new URL('../../cluster/start.ts', import.meta.url).pathname
const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

interface Run {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

/** Runs the CLI with its temporary folders in `tmp`. */
function cluster(args: readonly string[], tmp: string): Run {
  const child = spawn(process.execPath, [start, ...args], {
    env: { ...process.env, TMPDIR: tmp, PLANT_STORE_PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  cleanups.push(() => child.kill('SIGKILL'))
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

function temporaryFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-cli-test-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

async function listener(): Promise<{ server: Server; port: number }> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => server.close())
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { server, port: address.port }
}

async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const clusterFolders = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('plant-store-cluster-'))

describe('npm run cluster', () => {
  test('refuses a port something already listens on with one line and exit 2, starting nothing', async () => {
    const { port } = await listener()
    const tmp = temporaryFolder()
    const run = cluster(['1', '--port', String(port)], tmp)
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toBe(
      `npm run cluster: port ${port} on 127.0.0.1 is already in use; choose another with --port <n>.\n`,
    )
    expect(run.stdout()).toBe('')
    expect(clusterFolders(tmp)).toEqual([])
  })

  test('refuses a bad --port with one line and exit 2', async () => {
    const run = cluster(['--port', 'eighty'], temporaryFolder())
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(
      /^npm run cluster: --port must be an integer from 1 to 65535, not "eighty" \(usage: .*\)\.\n$/,
    )
  })

  test('listens on --port, reports a replica that dies by name, and on SIGINT exits 130 leaving no folder', async () => {
    const { port, server } = await listener()
    await new Promise((resolve) => server.close(resolve))
    const tmp = temporaryFolder()
    const run = cluster(['2', '--port', String(port)], tmp)
    await until(() => /replica 1: .*\(pid \d+\)\n/.test(run.stdout()), 'the banner')
    expect(run.stdout()).toContain(`Plant Store sandbox cluster: http://127.0.0.1:${port} (nginx)`)
    expect((await fetch(`http://127.0.0.1:${port}/__sandbox/health`)).status).toBe(200)
    expect(clusterFolders(tmp)).toHaveLength(1)

    const pid = Number(/replica 1: .*\(pid (\d+)\)/.exec(run.stdout())?.[1])
    process.kill(pid, 'SIGKILL')
    const line = `npm run cluster: replica 1 (pid ${pid}) was killed by SIGKILL; nginx sends its tenants to the other replicas.\n`
    await until(() => run.stderr().includes(line), 'the report of the dead replica', 10_000)
    expect((await fetch(`http://127.0.0.1:${port}/__sandbox/health`)).status).toBe(200)

    run.child.kill('SIGINT')
    expect(await run.exited).toBe(130)
    expect(clusterFolders(tmp)).toEqual([])
  })

  test('on SIGTERM exits 143, leaving no process listening and no folder', async () => {
    const { port, server } = await listener()
    await new Promise((resolve) => server.close(resolve))
    const tmp = temporaryFolder()
    const run = cluster(['1', '--port', String(port)], tmp)
    await until(() => /replica 0: .*\(pid \d+\)\n/.test(run.stdout()), 'the banner')
    const pid = Number(/replica 0: .*\(pid (\d+)\)/.exec(run.stdout())?.[1])
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(143)
    expect(clusterFolders(tmp)).toEqual([])
    expect(() => process.kill(pid, 0)).toThrow()
    await expect(fetch(`http://127.0.0.1:${port}/__sandbox/health`)).rejects.toThrow()
  })
})
