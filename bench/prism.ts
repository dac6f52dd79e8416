/**
 * The sandbox judged by Prism's validating proxy (issue 27), as the audit
 * judged it: the sandbox bin on 127.0.0.1, one `prism proxy --errors` in
 * front of its control API with the contract it serves
 * (`/__sandbox/openapi.json`), one in front of the Plant Store API with
 * `/openapi.json`, and a few hundred valid exchanges through them: tenant
 * recipes, fault rules and journal queries generated from the contract's own
 * schemas (test/support/schema-arbitrary.ts), every other operation, the
 * Plant Store API with `Prefer`. Every answer Prism finds at odds with the
 * contract, on the request side (its 422) or the response side (its
 * `sl-violations` header, its error answers, its log's violations), is
 * listed; the run fails on any.
 *
 * Not sent through Prism: HEAD (Prism 5's proxy reads the empty body of a
 * JSON HEAD answer as JSON and fails with its own 500, whatever the
 * contract says; the contract tests check every HEAD) and the event stream
 * (it never ends). Requests the contract does not declare (a `PUT`, which
 * the journal queries then find) go straight to the sandbox.
 *
 * Run: `PRISM_BIN=/path/to/prism npm run prism`, e.g. after
 * `npm i --prefix /tmp/prism @stoplight/prism-cli@5` (Prism is no dependency
 * of the project; it runs on the machine's own Node, which Prism 5 needs at
 * 20 or 22). Bounded: at most 3 minutes in all.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { freePort } from '../cluster/cluster.ts'
import { faultRules, tenantRecipes } from '../test/support/schema-arbitrary.ts'
import { readyFile } from './ready-file.ts'

const prism = process.env.PRISM_BIN
if (!prism) {
  console.error(
    'npm run prism: set PRISM_BIN to a prism executable (npm i --prefix /tmp/prism @stoplight/prism-cli@5; ' +
      'PRISM_BIN=/tmp/prism/node_modules/.bin/prism).',
  )
  process.exit(2)
}
try {
  accessSync(prism, constants.X_OK)
} catch {
  console.error(`npm run prism: PRISM_BIN=${prism} is not an executable file.`)
  process.exit(2)
}

const deadline = setTimeout(() => {
  console.error('npm run prism: gave up after 3 minutes.')
  stopAll()
  process.exit(1)
}, 180_000)

const cli = new URL('../dist/sandbox/cli.js', import.meta.url).pathname
const children: ChildProcess[] = []
function stopAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
}

const dir = mkdtempSync(join(tmpdir(), 'psm-prism-'))
const sandboxProcess = spawn(
  process.execPath,
  [cli, '--host', '127.0.0.1', '--port', '0', '--ready-file', join(dir, 'ready')],
  {
    stdio: 'ignore',
  },
)
children.push(sandboxProcess)
const { url: sandbox } = await readyFile(join(dir, 'ready'), sandboxProcess)

/**
 * PATH without this project's `node_modules/.bin`, which npm scripts put first: Prism runs on the machine's own
 * Node, not the project's Node 24, whose fetch Prism 5's document download rejects ("Expected signal … to be an
 * instance of AbortSignal").
 */
const machinePath = (process.env.PATH ?? '')
  .split(':')
  .filter((folder) => !folder.endsWith('/node_modules/.bin'))
  .join(':')

/** One `prism proxy --errors` in front of the sandbox, with a contract the sandbox serves; its log kept. */
async function proxy(contract: string, port: number): Promise<{ base: string; log: () => string }> {
  const child = spawn(
    prism!,
    ['proxy', '-h', '127.0.0.1', '-p', String(port), '--errors', `${sandbox}${contract}`, sandbox],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: machinePath } },
  )
  children.push(child)
  let log = ''
  const listening = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      log += chunk.toString('utf8')
      if (log.includes('Prism is listening')) resolve()
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => reject(new Error(`prism proxy exited with ${code}:\n${log}`)))
  })
  await listening
  return { base: `http://127.0.0.1:${port}`, log: () => log }
}

// Prism cannot listen on port 0 and say which port it took: two distinct ports checked free first.
const controlPort = await freePort()
let apiPort = await freePort()
while (apiPort === controlPort) apiPort = await freePort()
const [control, api] = await Promise.all([
  proxy('/__sandbox/openapi.json', controlPort),
  proxy('/openapi.json', apiPort),
])

interface Disagreement {
  readonly side: 'request' | 'response'
  readonly exchange: string
  readonly detail: string
}
const disagreements: Disagreement[] = []
let exchanges = 0
let straight = 0

/** One exchange through a proxy: its status and body, and whatever Prism found at odds with the contract. */
async function send(
  through: { base: string },
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; refused?: true } = {},
): Promise<{ status: number; json: () => unknown }> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  let body: string | undefined
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  const response = await fetch(`${through.base}${path}`, { method, headers, body })
  const text = await response.text()
  exchanges++
  const exchange = `${method} ${path} → ${response.status}`
  const violations = response.headers.get('sl-violations')
  const fromPrism =
    response.headers.get('content-type')?.startsWith('application/problem+json') && text.includes('stoplight.io/prism')
  if (violations) {
    const side = violations.includes('"location":["request"') ? 'request' : 'response'
    disagreements.push({ side, exchange, detail: violations })
  } else if (fromPrism) {
    // Prism's own answer: a request it finds invalid (422, no such path or method), or one it could not judge.
    const side = /UNPROCESSABLE_ENTITY|NO_PATH_MATCHED|NO_METHOD_MATCHED/.test(text) ? 'request' : 'response'
    disagreements.push({ side, exchange, detail: text.slice(0, 500) })
  } else if (response.status === 400 && !options.refused) {
    // Every request here is one the contract allows: a 400 means the sandbox refuses what the contract accepts.
    disagreements.push({
      side: 'request',
      exchange,
      detail: `the contract allows it, the sandbox answered 400: ${text}`,
    })
  }
  return { status: response.status, json: () => JSON.parse(text) as unknown }
}

/** A request the contract does not declare, straight to the sandbox (for the journal to hold). */
async function direct(method: string, path: string, token: string): Promise<void> {
  await fetch(`${sandbox}${path}`, { method, headers: { authorization: `Bearer ${token}` } }).then((r) =>
    r.arrayBuffer(),
  )
  straight++
}

try {
  // Open routes.
  for (const path of ['/__sandbox/health', '/__sandbox/ready', '/__sandbox/openapi.json'])
    await send(control, 'GET', path)

  // Tenants from generated recipes, and what each of them does.
  const recipes = fc.sample(tenantRecipes, { numRuns: 25 })
  const tenants: Array<{ tenant: string; tokens: { read: string; write: string } }> = []
  for (const recipe of recipes) {
    const answer = await send(control, 'POST', '/__sandbox/tenants', { body: recipe })
    if (answer.status === 201) tenants.push(answer.json() as (typeof tenants)[number])
  }
  await send(control, 'POST', '/__sandbox/tenants')
  const rules = fc.sample(faultRules, { numRuns: 60 })
  const queries = fc.sample(
    fc.record(
      {
        method: fc.constantFrom('GET', 'put', 'Patch', 'OPTIONS', 'propfind', 'DELETE'),
        path: fc.constantFrom('/plants', '/plants/{id}', '/plants/1', '/nope', '/plants/abc'),
        status: fc.constantFrom('200', '4xx', '405', '0', '5xx', '404'),
        since: fc.constantFrom('2000-01-01T00:00:00Z', '2000-01-01t00:00:00.5+01:00'),
        until: fc.constantFrom('2999-01-01T00:00:00Z', '1999-01-01T00:00:00z'),
        limit: fc.integer({ min: 1, max: 1000 }),
      },
      { requiredKeys: [] },
    ),
    { numRuns: 80 },
  )
  for (const [index, { tenant, tokens }] of tenants.entries()) {
    // The Plant Store API through its own proxy, Prefer included.
    await send(api, 'GET', '/plants?limit=3', { token: tokens.read })
    await send(api, 'POST', '/plants', { token: tokens.write, body: { id: 900 + index, name: 'Fern', tag: 'fern' } })
    await send(api, 'POST', '/plants', { token: tokens.write, body: { id: 900 + index, name: 'Fern' } })
    await send(api, 'DELETE', `/plants/${900 + index}`, { token: tokens.write })
    await send(api, 'DELETE', '/plants/123456', { token: tokens.write })
    await send(api, 'GET', '/plants', { token: tokens.read, headers: { prefer: 'code=403' } })
    // A code listPlants does not declare: the 400 the contract's Prefer parameter describes.
    await send(api, 'GET', '/plants', { token: tokens.read, headers: { prefer: 'code=503' }, refused: true })
    await send(api, 'DELETE', '/plants/1', { token: tokens.write, headers: { prefer: 'code=503, delay=5' } })
    await send(api, 'POST', '/plants', { token: tokens.read, body: { id: 1, name: 'Fern' } })
    await direct('PUT', '/plants/1', tokens.write)
    await direct('GET', '/nope', tokens.read)

    // Fault rules generated from the contract: added, read, deleted.
    for (const rule of rules.slice((index * 3) % rules.length, ((index * 3) % rules.length) + 3)) {
      const added = await send(control, 'POST', '/__sandbox/faults', { token: tokens.write, body: rule })
      if (added.status !== 201) continue
      const { id } = added.json() as { id: string }
      await send(control, 'GET', `/__sandbox/faults/${id}`, { token: tokens.read })
      await send(control, 'DELETE', `/__sandbox/faults/${id}`, { token: tokens.write })
    }
    await send(control, 'GET', '/__sandbox/faults', { token: tokens.read })
    await send(control, 'GET', '/__sandbox/faults/f_none', { token: tokens.read })
    await send(control, 'DELETE', '/__sandbox/faults', { token: tokens.write })

    // The journal, queried as the contract allows: any method and path it keeps.
    for (const query of queries.slice((index * 3) % queries.length, ((index * 3) % queries.length) + 3)) {
      const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]))
      await send(control, 'GET', `/__sandbox/requests?${search}`, { token: tokens.read })
    }
    await send(control, 'GET', '/__sandbox/requests?method=PUT', { token: tokens.read })
    await send(control, 'GET', '/__sandbox/requests?path=/nope', { token: tokens.read })
    await send(control, 'GET', '/__sandbox/plants?limit=2', { token: tokens.read })
    await send(control, 'GET', '/__sandbox/coverage', { token: tokens.read })
    await send(control, 'POST', '/__sandbox/reset', { token: tokens.read })
    await send(control, 'GET', '/__sandbox/requests', { token: 'psm_nobody' })
    if (index % 2 === 0) {
      await send(control, 'DELETE', '/__sandbox/requests', { token: tokens.write })
      await send(control, 'POST', '/__sandbox/reset', { token: tokens.write })
    } else {
      await send(control, 'DELETE', `/__sandbox/tenants/${tenants[0]?.tenant}`, { token: tokens.write })
      await send(control, 'DELETE', `/__sandbox/tenants/${tenant}`, { token: tokens.write })
    }
  }

  // Prism also logs each violation it finds: a cross-check of what the answers showed.
  const logged = [control, api].flatMap(({ log }) =>
    log()
      .split('\n')
      .filter((line) => /Violation:/.test(line)),
  )
  const requestSide = disagreements.filter(({ side }) => side === 'request').length
  const responseSide = disagreements.length - requestSide
  for (const { side, exchange, detail } of disagreements) console.error(`${side}: ${exchange}: ${detail}`)
  for (const line of logged) console.error(`prism: ${line.trim()}`)
  console.info(
    `${exchanges} exchanges through Prism's validating proxy (--errors), ${straight} undeclared requests straight to the sandbox: ` +
      `${requestSide} request-side and ${responseSide} response-side disagreements (${logged.length} violations in Prism's log).`,
  )
  process.exitCode = disagreements.length === 0 && logged.length === 0 ? 0 : 1
} finally {
  clearTimeout(deadline)
  stopAll()
  rmSync(dir, { recursive: true, force: true })
}
