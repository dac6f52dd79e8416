/**
 * The `plant-store-mock` CLI as users run it: spawned, waited for, queried
 * over HTTP, stopped with SIGTERM. Also the state file round trip.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { read } from '../support/contract.ts'
import { bearer } from './support.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const cli = join(root, 'src/cli.ts')
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }
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

/** Spawns the CLI (or another `script`), collecting its output; killed after `timeout` ms when given. */
function spawnCli(args: string[], env: Record<string, string>, script: string, timeout?: number) {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(timeout ? { timeout } : {}),
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exit, stdout: () => stdout, stderr: () => stderr }
}

/** Spawns the CLI; it is killed after the test if still running. */
function run(args: string[], env: Record<string, string> = {}, script = cli) {
  const started = spawnCli(args, env, script)
  running.add(started.child)
  started.exit.then(() => running.delete(started.child))
  return started
}

/** Runs the CLI to its end (killed after 20 s), for tests that run concurrently: nothing else kills it. */
async function runToEnd(args: string[], env: Record<string, string> = {}) {
  const ended = spawnCli(args, env, cli, 20_000)
  return { code: await ended.exit, stdout: ended.stdout(), stderr: ended.stderr() }
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

/** The JSON log lines the CLI wrote, in order. */
function logLines(stdout: string): Array<Record<string, unknown> & { msg?: string }> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
}

/** Waits (at most 10 s) for a file to appear and returns its JSON. */
async function readWhenWritten(path: string): Promise<unknown> {
  const deadline = Date.now() + 10_000
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} was never written`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return JSON.parse(await readFile(path, 'utf8'))
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

  test('with --admin-key says the fixture tokens are read-only, and --tenant-idle-seconds sets when a tenant may make room', async () => {
    const key = 'cli-key-0123456789'
    const sandbox = await start(['--admin-key', key, '--max-tenants', '1', '--tenant-idle-seconds', '1'])
    try {
      expect(sandbox.stdout()).toContain('read-only: this sandbox has an admin key')
      const provision = () =>
        fetch(`${sandbox.base}/__sandbox/tenants`, { method: 'POST', headers: { 'x-admin-key': key } }).then(read)
      const first = await provision()
      expect(first.status).toBe(201)
      const refused = await provision()
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('1')
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      expect((await provision()).status).toBe(201)
      const { tokens } = JSON.parse(first.text) as { tokens: { read: string } }
      expect((await fetch(`${sandbox.base}/plants`, { headers: bearer(tokens.read) })).status).toBe(401)
    } finally {
      sandbox.child.kill('SIGTERM')
      expect(await sandbox.exit).toBe(0)
    }
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

  test('keeps no secret of a query or a body in the journal a public token reads, nor in the request log (issue 44, 7)', async () => {
    const sandbox = await start(['--log-level', 'info'])
    const secrets = ['sk_live_query_1', 'at_query_2', 'hunter2-body-3', 'cs_body_4', 'form_pw_5']
    const listed = await fetch(`${sandbox.base}/plants?limit=1&api_key=${secrets[0]}&access_token=${secrets[1]}`, {
      headers: bearer('psm_acme_write'),
    })
    expect(listed.status).toBe(200)
    await listed.body?.cancel()
    const json = { ...bearer('psm_acme_write'), 'content-type': 'application/json' }
    const bodies = [
      { headers: json, body: JSON.stringify({ id: 777, name: 'Fern', password: secrets[2] }) },
      { headers: json, body: JSON.stringify({ id: 778, name: 'Fern', auth: { client_secret: secrets[3] } }) },
      {
        headers: { ...bearer('psm_acme_write'), 'content-type': 'application/x-www-form-urlencoded' },
        body: `name=Fern&password=${secrets[4]}`,
      },
    ]
    for (const init of bodies) await (await fetch(`${sandbox.base}/plants`, { method: 'POST', ...init })).text()
    const journal = await fetch(`${sandbox.base}/__sandbox/requests`, { headers: bearer('psm_acme_read') }).then(read)
    expect(journal.status).toBe(200)
    const { requests } = JSON.parse(journal.text) as { requests: { request: { query: string; body: string } }[] }
    expect(requests.map(({ request }) => request.query)).toContain('limit=1&api_key=redacted&access_token=redacted')
    expect(requests.at(-3)?.request.body).toBe('{"id":777,"name":"Fern","password":"redacted"}')
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    for (const secret of secrets) {
      expect(journal.text).not.toContain(secret)
      expect(sandbox.stdout()).not.toContain(secret)
    }
    expect(sandbox.stdout()).toContain('api_key=redacted&access_token=redacted')
  })

  test('logs a request to the admin API under its full URL, /__sandbox/health', async () => {
    const sandbox = await start(['--log-level', 'info'])
    await (await fetch(`${sandbox.base}/__sandbox/health`)).body?.cancel()
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    const request = logLines(sandbox.stdout()).find((line) => line.msg === 'request completed')
    expect(request?.req).toMatchObject({ method: 'GET', url: '/__sandbox/health' })
  })

  test('with --request-log silent logs sandbox events but no request', async () => {
    const sandbox = await start(['--log-level', 'info', '--request-log', 'silent'])
    await (await fetch(`${sandbox.base}/__sandbox/health`)).body?.cancel()
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    const messages = logLines(sandbox.stdout()).map((line) => line.msg)
    expect(messages).toContain('listening')
    expect(messages).not.toContain('request completed')
  })

  test('logs a JSON listening line with the URL, host and port it listens on', async () => {
    const sandbox = await start(['--log-level', 'info'])
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    const listening = logLines(sandbox.stdout()).find((line) => line.msg === 'listening')
    const { port } = new URL(sandbox.base)
    expect(listening).toMatchObject({ url: sandbox.base, host: '127.0.0.1', port: Number(port) })
  })

  test('logs "shutting down" before "stopped" on SIGTERM, also when its output goes to a file', async () => {
    // Written to a file, the first line could still be on its way when the second was flushed at exit: race
    // five sandboxes, each logging to its own file.
    const runs = await Promise.all(
      Array.from({ length: 5 }, async (_, index) => {
        const log = join(directory, `order-${index}.log`)
        const output = await open(log, 'w')
        const child = spawn(process.execPath, [cli, '--port', '0', '--log-level', 'info'], {
          stdio: ['ignore', output.fd, 'ignore'],
        })
        running.add(child)
        const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
        await output.close()
        const deadline = Date.now() + 10_000
        while (!(await readFile(log, 'utf8')).includes('listening on')) {
          if (Date.now() > deadline) throw new Error(`sandbox ${index} did not start`)
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        child.kill('SIGTERM')
        return { code: await exit, log: await readFile(log, 'utf8') }
      }),
    )
    for (const { code, log } of runs) {
      expect(code).toBe(0)
      const messages = logLines(log).map((line) => line.msg)
      expect(messages.slice(-2)).toEqual(['shutting down: finishing in-flight requests', 'stopped'])
    }
  })

  test("writes the request line of every answer before it exits on SIGTERM (issue 41: lines made off the answers' path, written asynchronously)", async () => {
    const sandbox = run(['--port', '0', '--log-level', 'info'])
    const deadline = Date.now() + 10_000
    let base: string | undefined
    while (!base) {
      base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(sandbox.stdout())?.[1]
      if (Date.now() > deadline) throw new Error(`the CLI did not start: ${sandbox.stdout()}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const url = base
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetch(`${url}/plants?limit=${(i % 5) + 1}`, { headers: bearer('psm_acme_read') }).then(read),
      ),
    )
    // At once after the last answer: its line may still be waiting for its batch, or for the write before it.
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    const lines = logLines(sandbox.stdout())
    const requests = lines.filter((line) => line.msg === 'request completed')
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(requests).toHaveLength(300)
    expect(new Set(requests.map((line) => (line.req as { id: string }).id)).size).toBe(300)
    expect(lines.map((line) => line.msg).slice(-2)).toEqual(['shutting down: finishing in-flight requests', 'stopped'])
  })

  test('writes {url, port, pid} to --ready-file once listening, and removes it on shutdown', async () => {
    const readyFile = join(directory, 'ready.json')
    const sandbox = run(['--port', '0', '--log-level', 'warn', '--ready-file', readyFile])
    const ready = (await readWhenWritten(readyFile)) as { url: string; port: number; pid: number }
    expect(ready.pid).toBe(sandbox.child.pid)
    expect(ready.url).toBe(`http://127.0.0.1:${ready.port}`)
    expect((await fetch(`${ready.url}/__sandbox/health`)).status).toBe(200)
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    expect(existsSync(readyFile)).toBe(false)
  })

  test('with --log-level silent prints nothing at all, not even the banner', async () => {
    const readyFile = join(directory, 'silent-ready.json')
    const sandbox = run(['--port', '0', '--log-level', 'silent', '--ready-file', readyFile])
    const { url } = (await readWhenWritten(readyFile)) as { url: string }
    const answer = await fetch(`${url}/plants`, { headers: bearer('psm_acme_read') })
    expect(answer.status).toBe(200)
    await answer.body?.cancel()
    await (await fetch(`${url}/no-such-path`)).body?.cancel()
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
    expect(sandbox.stdout()).toBe('')
    expect(sandbox.stderr()).toBe('')
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

  test('prints the version of package.json for --version and exits 0', async () => {
    const printed = run(['--version'])
    expect(await printed.exit).toBe(0)
    expect(printed.stdout().trim()).toBe(version)
  })

  test('lists the verify subcommand in --help, and verify --help (or help verify) lists its options', async () => {
    const help = run(['--help'])
    expect(await help.exit).toBe(0)
    expect(help.stdout()).toMatch(/^ {2}verify \[options\] \[pacts\.\.\.\]/m)
    const verifyHelp = run(['verify', '--help'])
    expect(await verifyHelp.exit).toBe(0)
    expect(verifyHelp.stdout()).toContain('Usage: plant-store-mock verify')
    expect(verifyHelp.stdout()).toContain('--broker-url')
    const helpVerify = run(['help', 'verify'])
    expect(await helpVerify.exit).toBe(0)
    expect(helpVerify.stdout()).toBe(verifyHelp.stdout())
  })

  test('exits 0 after help whose reader went away (plant-store-mock help verify | head -1)', async () => {
    const help = run(['help', 'verify'])
    help.child.stdout?.destroy()
    expect(await help.exit).toBe(0)
  })

  test.concurrent.for<[string[], Record<string, string>, string]>([
    [['--port', 'abc'], {}, 'port'],
    [['--port', '70000'], {}, 'port'],
    [['--delay', 'slow'], {}, 'delay'],
    [['--log-level', 'loud'], {}, 'log-level'],
    [['--cors-origins', 'not an origin'], {}, 'origin'],
    [['--bogus'], {}, 'bogus'],
    [[], { PLANT_STORE_PLANTS: '-3' }, 'PLANT_STORE_PLANTS'],
    [['--host', '999.1.1.1'], {}, '999.1.1.1'],
    [['--host', 'localhost:4010'], {}, 'localhost:4010'],
    [[], { PLANT_STORE_HOST: 'not a host' }, 'PLANT_STORE_HOST'],
    [['--request-log', 'loud'], {}, 'request-log'],
    [['no-such-command'], {}, 'no-such-command'],
    [['--cluster-secret', 'too short'], {}, 'cluster-secret'],
    [['--admin-key', 'a'], {}, 'admin-key'],
    [[], { PLANT_STORE_ADMIN_KEY: 'short-key' }, 'PLANT_STORE_ADMIN_KEY'],
    [['--redis-url', 'http://127.0.0.1:6379'], {}, 'redis-url'],
    [['--redis-url', 'redis://127.0.0.1:6379'], {}, '--redis-url needs --cluster-secret'],
    [['--tenant-idle-seconds', '0'], {}, 'tenant-idle-seconds'],
    [['--trust-proxy', 'nginx.internal'], {}, 'trust-proxy'],
    [['--trust-proxy', '127.0.0.1,nginx'], {}, 'trust-proxy'],
    [['--redis-bytes-total', '1MiB'], {}, '--redis-bytes-total needs --redis-url'],
    [['--allowed-host', 'local host'], {}, 'allowed-host'],
    [['--allowed-host', ','], {}, 'allowed-host'],
    [[], { PLANT_STORE_ALLOWED_HOST: 'a.test,not a host' }, 'PLANT_STORE_ALLOWED_HOST'],
    [['--max-held', '0'], {}, 'max-held'],
    [['--max-held-per-tenant', 'many'], {}, 'max-held-per-tenant'],
    [['--max-connections', '-1'], {}, 'max-connections'],
    [['--provision-rate', '0'], {}, 'provision-rate'],
    [[], { PLANT_STORE_PROVISION_RATE_TOTAL: '1.5' }, 'PLANT_STORE_PROVISION_RATE_TOTAL'],
  ])('refuses %j %j with a clear message and exit code 2', async ([args, env, mention], { expect }) => {
    const bad = await runToEnd(args, env)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(mention)
    expect(bad.stderr).not.toMatch(/^\s+at /m)
    expect(bad.stdout).toBe('')
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

  test('serves the exact plants of the example fixtures file', async () => {
    const sandbox = await start(['--fixtures', join(root, 'fixtures/example-tenants.json')])
    const answer = await fetch(`${sandbox.base}/plants`, { headers: bearer('psm_corner_shop_read') }).then(read)
    expect(JSON.parse(answer.text)).toEqual([
      { name: 'Monstera Deliciosa', tag: 'tropical' },
      { name: 'Aloe Vera', tag: 'succulent' },
      { name: 'Boston Fern' },
    ])
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
  })
})

describe('--state-file', () => {
  test.each([
    ['in a folder that does not exist', 'missing-folder/state.json', 'missing-folder does not exist'],
    ['in a "folder" that is a file', 'a-file/state.json', 'a-file does not exist'],
    ['that is a folder', '.', 'is a folder'],
  ])('refuses a state file %s at start, with one line and exit code 2', async (_, path, message) => {
    await writeFile(join(directory, 'a-file'), 'not a folder')
    const bad = run(['--port', '0', '--state-file', join(directory, path)])
    expect(await bad.exit).toBe(2)
    expect(bad.stderr().split('\n')[0]).toContain(message)
    expect(bad.stdout()).toBe('')
  })

  test('refuses --ready-file in a folder that does not exist with exit code 2', async () => {
    const bad = run(['--port', '0', '--ready-file', join(directory, 'missing-folder', 'ready.json')])
    expect(await bad.exit).toBe(2)
    expect(bad.stderr()).toContain('missing-folder does not exist')
  })

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

  test('on SIGTERM answers every request held by a delay at once, resets none, and keeps every acknowledged create (issue 44, 5)', async () => {
    const file = join(directory, 'held-state.json')
    const first = await start(['--state-file', file])
    // Held 20 s, twice the shutdown timeout: only an answer at once is an answer at all.
    const held = { ...bearer('psm_acme_write'), prefer: 'delay=20000' }
    const reads = Array.from({ length: 60 }, () =>
      fetch(`${first.base}/plants?limit=1`, { headers: held }).then(read, (error: Error) => error),
    )
    const creates = Array.from({ length: 20 }, (_, i) =>
      fetch(`${first.base}/plants`, {
        method: 'POST',
        headers: { ...held, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 9000 + i, name: `Held ${i}` }),
      }).then(read, (error: Error) => error),
    )
    // Long enough for all 80 to reach the sandbox and be held.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    first.child.kill('SIGTERM')
    const answers = await Promise.all([...reads, ...creates])
    expect(answers.filter((answer) => answer instanceof Error)).toEqual([])
    expect(answers.map((answer) => (answer as { status: number }).status)).toEqual(Array(80).fill(200))
    expect(await first.exit).toBe(0)

    const second = await start(['--state-file', file])
    const acme = (await fetch(`${second.base}/plants`, { headers: bearer('psm_acme_read') }).then((r) =>
      r.json(),
    )) as Array<{ name: string }>
    const kept = acme.map(({ name }) => name).filter((name) => name.startsWith('Held '))
    expect(kept.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `Held ${i}`).sort())
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

/**
 * The published bin is the rolldown bundle. Installed as a package is (in a
 * throwaway node_modules, next to its dependencies but without the optional
 * peer @pact-foundation/pact), it must still print its version and every
 * help, and say in one line what to install when verify needs the peer.
 */
describe('the bundled bin, installed without @pact-foundation/pact', () => {
  let bin: string

  beforeAll(async () => {
    const built = spawnSync('npm', ['run', 'build:sandbox', '--silent'], { cwd: root, encoding: 'utf8' })
    expect(built.status, built.stderr).toBe(0)
    const project = join(directory, 'consumer')
    const installed = join(project, 'node_modules', 'plant-store-mock')
    await mkdir(installed, { recursive: true })
    await cp(join(root, 'package.json'), join(installed, 'package.json'))
    await cp(join(root, 'dist', 'sandbox'), join(installed, 'dist', 'sandbox'), { recursive: true })
    // The bundle's one runtime dependency that is not bundled.
    await symlink(join(root, 'node_modules', 'swagger-ui-dist'), join(project, 'node_modules', 'swagger-ui-dist'))
    bin = join(installed, 'dist', 'sandbox', 'cli.js')
  }, 60_000)

  const runBin = (args: string[]) => run(args, { NODE_PATH: '' }, bin)

  test('cannot reach @pact-foundation/pact from where it is installed', () => {
    expect(() => createRequire(bin).resolve('@pact-foundation/pact')).toThrow()
  })

  test('prints the version of its package.json', async () => {
    const printed = runBin(['--version'])
    expect(await printed.exit).toBe(0)
    expect(printed.stdout().trim()).toBe(version)
  })

  test('shows the help of the sandbox and of verify, which names the peer to install', async () => {
    const help = runBin(['--help'])
    expect(await help.exit).toBe(0)
    expect(help.stdout()).toContain('--ready-file')
    const verifyHelp = runBin(['verify', '--help'])
    expect(await verifyHelp.exit).toBe(0)
    expect(verifyHelp.stdout()).toContain('npm i -D @pact-foundation/pact')
    expect(verifyHelp.stderr()).toBe('')
  })

  test('refuses to verify with one line naming the missing peer, and exit code 2', async () => {
    const verify = runBin(['verify', join(directory, 'some.json')])
    expect(await verify.exit).toBe(2)
    expect(verify.stderr().trimEnd().split('\n')).toEqual([
      'plant-store-mock verify needs the optional peer dependency @pact-foundation/pact; install it: npm i -D @pact-foundation/pact',
    ])
  })

  test('serves the sandbox', async () => {
    const readyFile = join(directory, 'bundle-ready.json')
    const sandbox = runBin(['--port', '0', '--log-level', 'silent', '--ready-file', readyFile])
    const { url } = (await readWhenWritten(readyFile)) as { url: string }
    const answer = await fetch(`${url}/plants`, { headers: bearer('psm_acme_read') })
    expect(answer.status).toBe(200)
    await answer.body?.cancel()
    sandbox.child.kill('SIGTERM')
    expect(await sandbox.exit).toBe(0)
  })
})

describe('a misspelt command', () => {
  test('is refused with "did you mean" and exit code 2, without starting the sandbox', async () => {
    const { code, stdout, stderr } = await runToEnd(['conformence', 'http://127.0.0.1:9'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe("error: unknown command 'conformence'\n(Did you mean conformance?)\n")
  })
})
