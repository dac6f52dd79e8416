/**
 * The `plant-store-mock` CLI as users run it: spawned, waited for, queried
 * over HTTP, stopped with SIGTERM. Also the state file round trip.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { read } from '../support/contract.ts'
import { bearer } from './support.ts'

const cli = new URL('../../src/cli.ts', import.meta.url).pathname
const running = new Set<ChildProcess>()
let directory: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-cli-'))
})
afterEach(() => {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
})
afterAll(() => rm(directory, { recursive: true, force: true }))

interface Started {
  child: ChildProcess
  base: string
  stdout: () => string
  exit: Promise<number | null>
}

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child)
      resolve(code)
    }),
  )
  return { child, exit, stdout: () => stdout, stderr: () => stderr }
}

/** Starts the CLI on a free port and waits (at most 10 s) for its banner. */
async function start(args: string[] = [], env: Record<string, string> = {}): Promise<Started> {
  const process = run(['--port', '0', '--log-level', 'warn', ...args], env)
  const deadline = Date.now() + 10_000
  for (;;) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(process.stdout())
    if (match?.[1]) return { ...process, base: match[1] }
    if (Date.now() > deadline || process.child.exitCode !== null) {
      throw new Error(`the CLI did not start: ${process.stdout()} ${process.stderr()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('starting', () => {
  test('prints the base URL, the fixture tokens and the docs URL, serves, and exits 0 on SIGTERM', async () => {
    const sandbox = await start()
    expect(sandbox.stdout()).toContain('psm_acme_write')
    expect(sandbox.stdout()).toContain('psm_globex_read')
    expect(sandbox.stdout()).toContain(`${sandbox.base}/docs/`)
    const answer = await fetch(`${sandbox.base}/plants`, { headers: bearer('psm_acme_read') }).then(read)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toHaveLength(5)
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
  })

  test('lets an in-flight request finish on SIGTERM before exiting 0', async () => {
    const sandbox = await start()
    const slow = fetch(`${sandbox.base}/plants`, { headers: { ...bearer('psm_acme_read'), prefer: 'delay=400' } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    sandbox.child.kill('SIGTERM')
    const answer = await slow.then(read)
    expect(answer.status).toBe(200)
    expect(await sandbox.exit).toBe(0)
  })

  test('takes its settings from environment variables', async () => {
    const sandbox = await start([], { PLANT_STORE_PLANTS: '2', PLANT_STORE_SEED: '7' })
    const answer = await fetch(`${sandbox.base}/plants`, { headers: bearer('psm_acme_read') }).then(read)
    expect(JSON.parse(answer.text)).toHaveLength(2)
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
  })

  test('writes structured request logs with a request id and no token', async () => {
    const sandbox = await start(['--log-level', 'info'])
    const answer = await fetch(`${sandbox.base}/plants`, {
      headers: { ...bearer('psm_acme_read'), 'x-request-id': 'job-42' },
    })
    expect(answer.headers.get('x-request-id')).toBe('job-42')
    await answer.body?.cancel()
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    const lines = sandbox
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { req?: { id: string; headers: Record<string, string> }; res?: unknown })
    const logged = lines.find((line) => line.req?.id === 'job-42')
    expect(logged?.req?.headers.authorization).toBe('[redacted]')
    expect(sandbox.stdout()).not.toContain('psm_acme_read"')
  })
})

describe('flags', () => {
  test('prints help and exits 0 for --help', async () => {
    const help = run(['--help'])
    expect(await help.exit).toBe(0)
    for (const flag of ['--host', '--port', '--seed', '--plants', '--fixtures', '--quota', '--log-level']) {
      expect(help.stdout()).toContain(flag)
    }
    for (const flag of ['--cors-origins', '--admin-key', '--delay', '--state-file', '--webhook-url']) {
      expect(help.stdout()).toContain(flag)
    }
    expect(help.stdout()).toContain('PLANT_STORE_PORT')
  })

  test.each([
    [['--port', 'abc'], {}, 'port'],
    [['--port', '70000'], {}, 'port'],
    [['--delay', 'slow'], {}, 'delay'],
    [['--log-level', 'loud'], {}, 'log-level'],
    [['--cors-origins', 'not an origin'], {}, 'origin'],
    [['--bogus'], {}, 'bogus'],
    [[], { PLANT_STORE_PLANTS: '-3' }, 'PLANT_STORE_PLANTS'],
  ])('refuses %j %j with a clear message and exit code 2', async (args, env, mention) => {
    const bad = run(args, env)
    expect(await bad.exit).toBe(2)
    expect(bad.stderr()).toContain(mention)
  })

  test('refuses a fixtures file that is not a list of tenants with exit code 2', async () => {
    const file = join(directory, 'bad-fixtures.json')
    await writeFile(file, '{"tenants": [{"id": 1}]}')
    const bad = run(['--fixtures', file])
    expect(await bad.exit).toBe(2)
    expect(bad.stderr()).toContain('bad-fixtures.json')
  })

  test('serves the tenants of a fixtures file', async () => {
    const file = join(directory, 'fixtures.json')
    const world = [
      {
        id: 'team',
        name: 'Team',
        seed: 3,
        plants: 4,
        users: [{ id: 'team.user', name: 'Team', tokens: [{ token: 'team_token', scopes: ['plants:read'] }] }],
      },
    ]
    await writeFile(file, JSON.stringify(world))
    const sandbox = await start(['--fixtures', file])
    const answer = await fetch(`${sandbox.base}/plants`, { headers: bearer('team_token') }).then(read)
    expect(JSON.parse(answer.text)).toHaveLength(4)
    expect((await fetch(`${sandbox.base}/plants`, { headers: bearer('psm_acme_read') })).status).toBe(401)
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
  })
})

describe('--state-file', () => {
  test('writes the whole state on shutdown and loads it at the next start', async () => {
    const file = join(directory, 'state.json')
    const first = await start(['--state-file', file])
    const created = await fetch(`${first.base}/plants`, {
      method: 'POST',
      headers: { ...bearer('psm_acme_write'), 'content-type': 'application/json' },
      body: '{"id":321,"name":"Persisted","tag":"kept"}',
    })
    expect(created.status).toBe(200)
    const tenant = (await (await fetch(`${first.base}/__sandbox/tenants`, { method: 'POST' })).json()) as {
      tokens: { read: string }
    }
    first.child.kill('SIGTERM')
    expect(await first.exit).toBe(0)

    const second = await start(['--state-file', file])
    const acme = (await fetch(`${second.base}/plants`, { headers: bearer('psm_acme_read') }).then((r) =>
      r.json(),
    )) as Array<{ name: string; tag?: string }>
    expect(acme.at(-1)).toEqual({ name: 'Persisted', tag: 'kept' })
    const provisioned = await fetch(`${second.base}/plants`, { headers: bearer(tenant.tokens.read) })
    expect(provisioned.status).toBe(200)
    await provisioned.body?.cancel()
    second.child.kill('SIGTERM')
    expect(await second.exit).toBe(0)
  })

  test('refuses to start on a corrupt state file, with a clear error, and leaves the file untouched', async () => {
    const file = join(directory, 'corrupt.json')
    await writeFile(file, '{"format": "plant-store-mock/state", "version": 1, "store": ')
    const bad = run(['--port', '0', '--state-file', file])
    expect(await bad.exit).toBe(1)
    expect(bad.stderr()).toContain('corrupt.json')
    expect(bad.stderr()).toContain('not valid JSON')
    expect(await readFile(file, 'utf8')).toBe('{"format": "plant-store-mock/state", "version": 1, "store": ')
  })

  test('refuses a JSON file that is not a state file', async () => {
    const file = join(directory, 'other.json')
    await writeFile(file, '{"hello": "world"}')
    const bad = run(['--port', '0', '--state-file', file])
    expect(await bad.exit).toBe(1)
    expect(bad.stderr()).toContain('not a plant-store-mock/state file')
    expect(await readFile(file, 'utf8')).toBe('{"hello": "world"}')
  })
})
