/**
 * Issue 35, F5: the parts of the bin loaded on demand (the Express app that
 * answers `/__sandbox`, the docs and preflights; the admin API; the docs'
 * YAML parser) whose files are missing when their first request comes, as
 * when `dist/sandbox` is rebuilt under a running sandbox. The request gets a
 * 503 Error body with `Retry-After` (it got an empty reply, and so did every
 * later one until a restart), one structured log line says what failed, and
 * the next request once the files are back is answered.
 *
 * Run against a build of its own in a temporary folder below `dist/` (so the
 * docs still find the package's contract), whose files it moves away and back.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { expectErrorBody, read } from '../support/contract.ts'
import { type RunningCli, startCommand } from './cli.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
let folder: string
let sandbox: RunningCli | undefined

beforeAll(async () => {
  folder = await mkdtemp(join(root, 'dist', 'lazy-load-'))
  const built = spawnSync(
    join(root, 'node_modules/.bin/rolldown'),
    ['-c', 'rolldown.sandbox.config.ts', '-d', folder],
    { cwd: root, encoding: 'utf8' },
  )
  expect(built.status, built.stderr).toBe(0)
}, 60_000)
afterAll(async () => {
  await sandbox?.stop()
  await rm(folder, { recursive: true, force: true })
})

/** The chunk a chunk of the build loads on demand whose name begins with `name` (e.g. `express-app`). */
async function loadedOnDemand(name: string): Promise<string> {
  for (const file of await readdir(folder)) {
    const text = await readFile(join(folder, file), 'utf8')
    const match = new RegExp(`import\\(\`\\./(${name}-[\\w-]+\\.js)\`\\)`).exec(text)
    if (match?.[1]) return match[1]
  }
  throw new Error(`no chunk loads ${name}-*.js on demand`)
}

/** Moves a chunk of the build away (as a rebuild removes it); answers what puts it back. */
async function remove(chunk: string): Promise<() => Promise<void>> {
  const path = join(folder, chunk)
  await rename(path, `${path}.away`)
  return () => rename(`${path}.away`, path)
}

const preflight = {
  method: 'OPTIONS',
  headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
}

/** Lines of the sandbox's log that report a failed load on demand. */
function failedLoads(): string[] {
  return (sandbox?.output() ?? '').split('\n').filter((line) => line.includes('load on demand failed'))
}

async function expectUnavailable(path: string, init: RequestInit = {}): Promise<void> {
  const answer = await read(await fetch(`${sandbox?.url}${path}`, init))
  expectErrorBody(answer, 503)
  expect(answer.headers.get('retry-after'), path).toBe('1')
  expect(JSON.parse(answer.text).message, path).toMatch(/could not load .* retries|tries again with the next request/)
}

test('a chunk missing at its first request is a 503 Error body and a log line, and is loaded once it is back', async () => {
  const [app, admin, yaml] = [
    await loadedOnDemand('express-app'),
    await loadedOnDemand('admin'),
    await loadedOnDemand('dist'), // the YAML parser: rolldown names its chunk after yaml's dist/ folder
  ]
  const putAppBack = await remove(app)
  const putAdminBack = await remove(admin)
  const putYamlBack = await remove(yaml)
  sandbox = await startCommand(process.execPath, [
    join(folder, 'cli.js'),
    ...['--host', '127.0.0.1', '--port', '0', '--log-level', 'warn'],
  ])

  // Without the Express app: the admin API, the docs and preflights (the API itself needs none of it).
  await expectUnavailable('/__sandbox/health')
  await expectUnavailable('/openapi.json')
  await expectUnavailable('/plants', preflight)
  expect((await fetch(`${sandbox.url}/plants`, { headers: { authorization: 'Bearer psm_acme_read' } })).status).toBe(
    200,
  )
  // The log is written in batches off the answer's path: its lines follow the answers, not before them.
  await expect.poll(() => failedLoads().length).toBe(3)
  expect(JSON.parse(failedLoads()[0] ?? '{}')).toMatchObject({ level: 50, part: expect.stringContaining('Express') })

  // The Express app back, the admin API's chunk still missing: the app answers preflights, the admin API is a 503.
  await putAppBack()
  expect((await fetch(`${sandbox.url}/plants`, preflight)).status).toBe(204)
  await expectUnavailable('/__sandbox/health')
  await expectUnavailable('/openapi.json')

  await putAdminBack()
  await putYamlBack()
  const health = await fetch(`${sandbox.url}/__sandbox/health`)
  expect(health.status).toBe(200)
  expect(await health.json()).toEqual({ status: 'ok' })
  const contract = await fetch(`${sandbox.url}/openapi.json`)
  expect(contract.status).toBe(200)
  expect((await contract.json()).servers[0].url).toBe(sandbox.url)
}, 60_000)
