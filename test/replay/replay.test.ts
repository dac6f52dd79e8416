/**
 * `plant-store-mock replay FILE.har` as a CI job runs it: HARs recorded (by a
 * plain Node recorder) from the independent Plant Store, from drifted
 * variants of it and from the mock itself, replayed by the real CLI. A clean
 * run exits 0, each drift exits 1 naming its exchange and side, bad input
 * exits 2 with one line, and no report shows a credential.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Har, type ReplayReport, replayHar, type TokenMap, worldFromHar } from 'plant-store-mock/contracts'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { startSandbox } from 'plant-store-mock/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fixtureTokens } from '../../fixtures/world.ts'
import { spawnCli } from '../conformance/support.ts'
import { requiredHeaders } from '../support/contract.ts'
import { nodeHarRecorder, type ScriptTokens, scriptedRun } from '../support/har-recorder.ts'
import { type Divergence, independentTokens, startIndependentProvider } from '../support/independent-provider.ts'

const both = ['plants:read', 'plants:write'] as const

/** A token map for a script's tokens: read-write and read-only of one tenant, a foreign one, an expired one. */
function tokenMapOf(tokens: ScriptTokens, tenants: { mine: string; foreign: string }): TokenMap {
  return {
    [tokens.readWrite]: { tenant: tenants.mine, scopes: [...both] },
    [tokens.readOnly]: { tenant: tenants.mine, scopes: ['plants:read'] },
    [tokens.foreign]: { tenant: tenants.foreign, scopes: [...both] },
    [tokens.expired]: { tenant: tenants.mine, scopes: [...both], expired: true },
  }
}

let directory: string
let tokenFile: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-replay-'))
  tokenFile = join(directory, 'tokens.json')
  await writeFile(tokenFile, JSON.stringify(tokenMapOf(independentTokens, { mine: 'north', foreign: 'south' })))
})
afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

/** Records the scripted run against the independent provider (drifted, when asked) into a HAR file. */
async function recordIndependent(divergence?: Divergence): Promise<{ file: string; baseUrl: string }> {
  const provider = await startIndependentProvider(divergence ? { divergence } : {})
  try {
    const recorder = nodeHarRecorder(provider.url)
    for (const request of scriptedRun(independentTokens)) await recorder.send(request)
    const file = join(directory, `${divergence ?? 'clean'}.har`)
    await writeFile(file, JSON.stringify(recorder.har(), null, 2))
    return { file, baseUrl: provider.url }
  } finally {
    await provider.close()
  }
}

/** The index in the scripted run of the first request that matches (`anonymous`: sent without a token). */
function step(method: string, path: string, body?: string | 'anonymous'): number {
  const index = scriptedRun(independentTokens).findIndex(
    (request) =>
      request.method === method &&
      request.path === path &&
      (body === undefined || (body === 'anonymous' ? request.token === undefined : request.body?.includes(body))),
  )
  if (index === -1) throw new Error(`no ${method} ${path} in the script`)
  return index
}

async function replayJson(args: readonly string[]): Promise<{ code: number | null; report: ReplayReport }> {
  const { code, stdout, stderr } = await spawnCli(['replay', ...args, '--report', 'json']).done
  expect(stderr).toBe('')
  return { code, report: JSON.parse(stdout) as ReplayReport }
}

test('a HAR of the scripted run against the independent Plant Store replays clean: exit 0', async () => {
  const { file, baseUrl } = await recordIndependent()
  const { code, stdout, stderr } = await spawnCli(['replay', file, '--base-url', baseUrl, '--tokens', tokenFile]).done
  expect(stderr).toBe('')
  expect(stdout).toContain(`Replayed ${scriptedRun(independentTokens).length} Plant Store exchanges`)
  expect(stdout).toContain('all agree.')
  expect(code).toBe(0)
})

const drifts: ReadonlyArray<[Divergence, string, number, string]> = [
  ['status-422', 'an undeclared status', step('POST', '/plants', '"name":""'), 'addPlant declares no status 422'],
  ['html-not-found', 'an HTML 404', step('GET', '/nowhere'), 'a 404 must carry a JSON Error body, not text/html'],
  [
    'no-challenge',
    'a missing challenge',
    step('GET', '/plants', 'anonymous'),
    'header WWW-Authenticate is required on 401',
  ],
  ['null-tags', 'a null tag', step('GET', '/plants'), 'body/1/tag must be string'],
  ['create-201', 'a 201 create', step('POST', '/plants'), 'addPlant declares no status 201'],
  [
    'scopes-ignored',
    'scopes ignored',
    step('POST', '/plants', 'Not allowed'),
    'a 200 to a token the map gives tenant north without plants:write (the contract answers 403)',
  ],
]

describe('each drift of the real service exits 1, naming its exchange and the side that departs', () => {
  test.each(drifts)('%s (%s)', async (divergence, _title, index, what) => {
    const { file, baseUrl } = await recordIndependent(divergence)
    const { code, stdout } = await spawnCli(['replay', file, '--base-url', baseUrl, '--tokens', tokenFile]).done
    expect(code).toBe(1)
    const line = stdout.split('\n').find((text) => text.startsWith(`entry ${index} `))
    expect(line, stdout).toBeDefined()
    expect(line).toContain('real service departs from contract: ')
    expect(line).toContain(what)
    // Drift of the real service is never blamed on the mock.
    expect(stdout).not.toMatch(/^entry .* mock departs/m)
  })

  test.each([
    ['any-content-type', 'Moss', 'a 200 to a request the contract refuses with 415'],
    ['null-tag-refused', 'Ivy', 'a 400 to a request the contract accepts (the mock answers 200)'],
  ] as const)(
    '%s: the request is judged by the contract, and the real service departs',
    async (divergence, plant, what) => {
      const { file, baseUrl } = await recordIndependent(divergence)
      const { code, report } = await replayJson([file, '--base-url', baseUrl, '--tokens', tokenFile])
      expect(code).toBe(1)
      expect(report.disagreements).toEqual([
        expect.objectContaining({ index: step('POST', '/plants', plant), side: 'real', differences: [what] }),
      ])
    },
  )

  test('a real service that trims names is where the mock departs from it (the contract cannot tell)', async () => {
    const { file, baseUrl } = await recordIndependent('trimmed-names')
    const { code, report } = await replayJson([file, '--base-url', baseUrl, '--tokens', tokenFile])
    expect(code).toBe(1)
    expect(report.disagreements).toEqual([
      expect.objectContaining({
        index: step('POST', '/plants', 'Palm'),
        method: 'POST',
        path: '/plants',
        operation: 'addPlant',
        side: 'mock',
        differences: ['body.name: real "Palm", mock " Palm "'],
      }),
    ])
  })
})

test('a HAR recorded from the mock itself (the sandbox) replays clean', async () => {
  const sandbox = await startSandbox({ port: 0 })
  try {
    const tokens: ScriptTokens = {
      readWrite: fixtureTokens.acme.write,
      readOnly: fixtureTokens.acme.read,
      foreign: fixtureTokens.globex.write,
      expired: fixtureTokens.expired,
    }
    const recorder = nodeHarRecorder(sandbox.url)
    for (const request of scriptedRun(tokens)) await recorder.send(request)
    const file = join(directory, 'sandbox.har')
    await writeFile(file, JSON.stringify(recorder.har()))
    const map = join(directory, 'sandbox-tokens.json')
    await writeFile(map, JSON.stringify(tokenMapOf(tokens, { mine: 'acme', foreign: 'globex' })))
    const { code, report } = await replayJson([file, '--base-url', sandbox.url, '--tokens', map])
    expect(report.disagreements).toEqual([])
    expect(report.exchanges).toBe(scriptedRun(tokens).length)
    expect(code).toBe(0)
  } finally {
    await sandbox.close()
  }
})

test("without --base-url the contract's paths pick the exchanges, at any origin; flags from the environment", async () => {
  const { file } = await recordIndependent()
  const { code, stdout, stderr } = await spawnCli(['replay', file], {
    env: { PLANT_STORE_REPLAY_TOKENS: tokenFile, PLANT_STORE_REPLAY_REPORT: 'json' },
  }).done
  expect(stderr).toBe('')
  // GET /nowhere is not a path of the contract: ignored, and counted.
  expect(JSON.parse(stdout)).toMatchObject({
    exchanges: scriptedRun(independentTokens).length - 1,
    ignored: 1,
    disagreements: [],
  })
  expect(code).toBe(0)
})

describe('input it cannot replay exits 2 with one line on stderr', () => {
  const cases: ReadonlyArray<[string, () => Promise<string[]>, RegExp]> = [
    [
      'a text file',
      async () => {
        const file = join(directory, 'notes.txt')
        await writeFile(file, 'These are not the exchanges you are looking for.\n')
        return [file]
      },
      /^plant-store-mock replay: not a HAR: expected a JSON object with log\.entries\.$/,
    ],
    [
      'JSON without log.entries',
      async () => {
        const file = join(directory, 'other.json')
        await writeFile(file, JSON.stringify({ log: { version: '1.2', pages: [] } }))
        return [file]
      },
      /^plant-store-mock replay: not a HAR: it has no log\.entries array\.$/,
    ],
    [
      'a HAR with no Plant Store exchanges',
      async () => {
        const { file } = await recordIndependent()
        return [file, '--base-url', 'https://elsewhere.example.com']
      },
      /^plant-store-mock replay: no Plant Store exchanges: none of its \d+ entries is a request below https:\/\/elsewhere\.example\.com\/?\.$/,
    ],
    [
      'an unreadable token map',
      async () => {
        const { file } = await recordIndependent()
        const map = join(directory, 'bad-tokens.json')
        await writeFile(
          map,
          JSON.stringify({ [independentTokens.readWrite]: { tenant: 'north', scopes: ['plants:eat'] } }),
        )
        return [file, '--tokens', map]
      },
      /^plant-store-mock replay: the token map .* is not an object from each token to/,
    ],
    [
      'a HAR over the size bound',
      async () => {
        const { file } = await recordIndependent()
        return [file, '--max-size', '1KiB']
      },
      /^plant-store-mock replay: .* is \d+ bytes, over the bound of 1024 bytes \(--max-size\)\.$/,
    ],
    [
      'a file that is not there',
      async () => [join(directory, 'missing.har')],
      /^plant-store-mock replay: cannot read .*missing\.har/,
    ],
  ]
  test.each(cases)('%s', async (_title, args, message) => {
    const { code, stdout, stderr } = await spawnCli(['replay', ...(await args())]).done
    expect(stdout).toBe('')
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stderr.trimEnd()).toMatch(message)
    expect(stderr).not.toContain(independentTokens.readWrite)
    expect(code).toBe(2)
  })
})

test('no report, text, JSON or JUnit, shows a token, a cookie or a secret-looking query value', async () => {
  // Null tags: every list disagrees, the one with a secret in its query too.
  const provider = await startIndependentProvider({ divergence: 'null-tags' })
  const recorder = nodeHarRecorder(provider.url)
  try {
    for (const request of scriptedRun(independentTokens)) await recorder.send(request)
    await recorder.send({
      method: 'GET',
      path: '/plants?limit=9&api_key=hunter2-api-key',
      token: independentTokens.readOnly,
    })
  } finally {
    await provider.close()
  }
  const file = join(directory, 'secrets.har')
  await writeFile(file, JSON.stringify(recorder.har()))
  const junit = join(directory, 'replay.xml')
  const runs = await Promise.all([
    spawnCli(['replay', file, '--tokens', tokenFile, '--base-url', provider.url]).done,
    spawnCli(['replay', file, '--tokens', tokenFile, '--base-url', provider.url, '--report', 'json']).done,
    spawnCli([
      'replay',
      file,
      '--tokens',
      tokenFile,
      '--base-url',
      provider.url,
      '--report',
      'junit',
      '--output',
      junit,
    ]).done,
  ])
  const reports = [...runs.map(({ stdout }) => stdout), await readFile(junit, 'utf8')]
  expect(runs.map(({ code }) => code)).toEqual([1, 1, 1])
  expect(reports[0]).toContain('GET /plants?limit=9&api_key=[redacted]')
  // The JUnit run prints its summary; the report is in the file.
  expect(reports[2]).toMatch(`Replayed ${scriptedRun(independentTokens).length + 1} Plant Store exchanges`)
  for (const report of reports.filter((_, index) => index !== 2)) expect(report).toContain('api_key=[redacted]')
  for (const report of reports) {
    for (const secret of [...Object.values(independentTokens), 's3cr3t-session-cookie', 'hunter2-api-key']) {
      expect(report).not.toContain(secret)
    }
  }
})

test('worldFromHar gives the world the recording started from, which the msw handlers, the sandbox and its provisioning take', async () => {
  const { file, baseUrl } = await recordIndependent()
  const world = await worldFromHar(file, {
    baseUrl,
    tokens: tokenMapOf(independentTokens, { mine: 'north', foreign: 'south' }),
  })
  const plantsOf = (tenant: string) => world.find(({ id }) => id === tenant)?.plants
  // North listed three plants before the run created any; 9001 and 9002 are the run's own, not the world's.
  expect(plantsOf('north')).toEqual([
    { id: -1, name: 'Monstera', tag: 'aroid' },
    { id: -2, name: 'Snake Plant' },
    { id: -3, name: 'Fiddle Leaf Fig', tag: 'ficus' },
  ])
  // Stand-in ids count by place in each tenant's own list.
  expect(plantsOf('south')).toEqual([{ id: -1, name: 'Cactus', tag: 'succulent' }])
  const listed = [
    { name: 'Monstera', tag: 'aroid' },
    { name: 'Snake Plant' },
    { name: 'Fiddle Leaf Fig', tag: 'ficus' },
  ]
  // The msw handlers answer from it, with the recorded tokens (the expired one expired).
  const { server } = setupPlantStoreServer({ world })
  server.listen()
  try {
    const list = (token: string) =>
      fetch('https://plants.example.com/plants', { headers: { authorization: `Bearer ${token}` } })
    expect(await (await list(independentTokens.readOnly)).json()).toEqual(listed)
    expect((await list(independentTokens.expired)).status).toBe(401)
  } finally {
    server.close()
  }
  // So does the sandbox, given the world (as `--fixtures world.json` gives it).
  const seeded = await startSandbox({ port: 0, world })
  try {
    const list = await fetch(`${seeded.url}/plants`, {
      headers: { authorization: `Bearer ${independentTokens.foreign}` },
    })
    expect(await list.json()).toEqual([{ name: 'Cactus', tag: 'succulent' }])
  } finally {
    await seeded.close()
  }
  // The sandbox's provisioning takes a tenant's plants as a recipe.
  const sandbox = await startSandbox({ port: 0 })
  try {
    const provisioned = await fetch(`${sandbox.url}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plants: plantsOf('north') }),
    })
    expect(provisioned.status).toBe(201)
    const { tokens } = (await provisioned.json()) as { tokens: { read: string } }
    const list = await fetch(`${sandbox.url}/plants`, { headers: { authorization: `Bearer ${tokens.read}` } })
    expect(await list.json()).toEqual(listed)
  } finally {
    await sandbox.close()
  }
})

describe('the HAR is read as it goes, and the state follows every answer', () => {
  test('an entry of 300 KiB with brackets, quotes and escapes in its strings, across read chunks, after a byte-order mark', async () => {
    const { file, baseUrl } = await recordIndependent()
    const har = JSON.parse(await readFile(file, 'utf8')) as Har
    const text = `{"weird": "[{\\"}\\\\", "ünïcødé": "${'{[]}"\\\\'.repeat(3)}"} ${'}{]['.repeat(75_000)}`
    const big: Har['log']['entries'][number] = {
      startedDateTime: new Date().toISOString(),
      request: { method: 'GET', url: 'https://cdn.example.com/app.js', headers: [] },
      response: { status: 200, headers: [], content: { size: text.length, mimeType: 'text/plain', text } },
    }
    const entries = [...har.log.entries]
    entries.splice(5, 0, big)
    const padded = join(directory, 'padded.har')
    await writeFile(padded, `\uFEFF${JSON.stringify({ log: { ...har.log, entries } })}`)
    const report = await replayHar(padded, {
      baseUrl,
      tokens: tokenMapOf(independentTokens, { mine: 'north', foreign: 'south' }),
    })
    expect(report).toMatchObject({ exchanges: entries.length - 1, ignored: 1, disagreements: [], omitted: 0 })
  })

  test('a 507 means the tenant is full: the mock is filled to the same quota, and the run replays clean', async () => {
    const provider = await startIndependentProvider({ quota: 4 })
    const recorder = nodeHarRecorder(provider.url)
    try {
      const create = (id: number) => ({
        method: 'POST',
        path: '/plants',
        token: independentTokens.readWrite,
        body: JSON.stringify({ id, name: `Plant ${id}` }),
      })
      for (const request of [
        create(9001),
        create(9002),
        { method: 'DELETE', path: '/plants/9001', token: independentTokens.readWrite },
        create(9003),
        create(9004),
      ]) {
        await recorder.send(request)
      }
    } finally {
      await provider.close()
    }
    const statuses = recorder.har().log.entries.map((entry) => entry.response.status)
    expect(statuses).toEqual([200, 507, 204, 200, 507])
    const report = await replayHar(recorder.har(), {
      tokens: tokenMapOf(independentTokens, { mine: 'north', foreign: 'south' }),
    })
    expect(report.disagreements).toEqual([])
  })

  test('tokens the map does not name: the first 1,000 the real service took are learned, no more', async () => {
    const entry = (token: string): Har['log']['entries'][number] => ({
      request: {
        method: 'GET',
        url: 'https://plants.example.com/plants',
        headers: [{ name: 'Authorization', value: `Bearer ${token}` }],
      },
      response: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'application/json' }, ...requiredHeaders('listPlants', 200)],
        content: { size: 2, text: '[]' },
      },
    })
    const entries = Array.from({ length: 1001 }, (_, i) => entry(`token-${i}`))
    const report = await replayHar({ log: { entries } })
    expect(report.disagreements).toEqual([
      expect.objectContaining({ index: 1000, side: 'mock', differences: ['status: real 200, mock 401'] }),
    ])
    expect(JSON.stringify(report)).not.toContain('token-1000')
  })

  test('a report keeps the first 1,000 disagreements and counts the rest', async () => {
    const { file } = await recordIndependent('null-tags')
    const [list] = (JSON.parse(await readFile(file, 'utf8')) as Har).log.entries
    const har = { log: { entries: Array.from({ length: 1200 }, () => list) } } as unknown as Har
    const report = await replayHar(har, { tokens: tokenMapOf(independentTokens, { mine: 'north', foreign: 'south' }) })
    expect(report).toMatchObject({ exchanges: 1200, agreed: 0, omitted: 200 })
    expect(report.disagreements).toHaveLength(1000)
  })
})

describe('what else the contract judges in a real answer', () => {
  const map = () => tokenMapOf(independentTokens, { mine: 'north', foreign: 'south' })

  test('a list longer than its limit', async () => {
    const { file, baseUrl } = await recordIndependent('limit-ignored')
    const report = await replayHar(file, { baseUrl, tokens: map() })
    expect(report.disagreements).toEqual([
      expect.objectContaining({
        index: step('GET', '/plants?limit=2'),
        side: 'real',
        differences: ['the list holds 3 plants, more than limit=2'],
      }),
    ])
  })

  test.each([
    ['newest-first', 'the list is not in creation order: '],
    [
      'duplicate-overwrites',
      'plant 9001 was created earlier in the recording and not deleted since (the contract answers 409)',
    ],
    ['lenient-path-ids', 'a 404 to a request the contract refuses with 400 (id: format)'],
  ] as const)('an answer the recording itself contradicts: %s', async (divergence, what) => {
    const { file, baseUrl } = await recordIndependent(divergence)
    const report = await replayHar(file, { baseUrl, tokens: map() })
    expect(report.disagreements).toEqual([
      expect.objectContaining({ side: 'real', differences: [expect.stringContaining(what)] }),
    ])
  })

  test('a field the contract does not declare (its name, never its value)', async () => {
    const { file, baseUrl } = await recordIndependent()
    const har = JSON.parse(await readFile(file, 'utf8')) as Har
    const [list, ...rest] = har.log.entries
    if (!list?.response.content?.text) throw new Error('the first exchange is a list')
    const plants = JSON.parse(list.response.content.text) as object[]
    const text = JSON.stringify(plants.map((plant, id) => ({ ...plant, id, secretToken: 'leaked-value' })))
    const changed = { ...list, response: { ...list.response, content: { ...list.response.content, text } } }
    const report = await replayHar({ log: { entries: [changed, ...rest] } }, { baseUrl, tokens: map() })
    expect(report.disagreements).toEqual([
      expect.objectContaining({
        index: 0,
        side: 'real',
        differences: [
          'body[].id is a field the contract does not declare',
          'body[].secretToken is a field the contract does not declare',
        ],
      }),
    ])
    expect(JSON.stringify(report)).not.toContain('leaked-value')
  })
})
