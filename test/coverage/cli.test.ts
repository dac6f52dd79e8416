/**
 * `plant-store-mock coverage` as a Pact pipeline runs it: spawned over this
 * project's own pacts (contracts/pacts) and over pact files written here,
 * reporting as text or JSON and exiting 0, 1 (below --min) or 2 (usage).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CoverageReport } from 'plant-store-mock'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { spawnCli } from '../conformance/support.ts'

const pacts = 'contracts/pacts'
let directory: string

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'plant-store-coverage-cli-'))
})
afterAll(() => rm(directory, { recursive: true, force: true }))

/** `METHOD /template status` of every interaction in this project's pacts, read without the command's code. */
async function answersInProjectPacts(): Promise<Set<string>> {
  const answers = new Set<string>()
  for (const file of await readdir(pacts)) {
    const pact = JSON.parse(await readFile(join(pacts, file), 'utf8')) as {
      interactions: Array<{ request: { method: string; path: string }; response: { status: number } }>
    }
    for (const { request, response } of pact.interactions) {
      answers.add(`${request.method} ${request.path.replace(/^\/plants\/[^/]+$/, '/plants/{id}')} ${response.status}`)
    }
  }
  return answers
}

function coveredAnswers(report: CoverageReport): Set<string> {
  return new Set(
    report.operations.flatMap(({ method, path, responses }) =>
      responses.filter(({ hits }) => hits > 0).map(({ status }) => `${method} ${path} ${status}`),
    ),
  )
}

async function pactFile(name: string, interactions: unknown[], extra: object = {}): Promise<string> {
  const file = join(directory, name)
  await writeFile(
    file,
    JSON.stringify({ consumer: { name: 'web' }, provider: { name: 'plant-store' }, interactions, ...extra }),
  )
  return file
}

describe("over this project's pacts", () => {
  test('prints the table of every declared answer, marking exactly those the interactions cover, and exits 0', async () => {
    const { code, stdout, stderr } = await spawnCli(['coverage', pacts]).done
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toMatch(
      /^\d+ HTTP interactions in 2 pact files\.\nPlant Store contract coverage: \d+ of 23 declared answers/,
    )
    expect(stdout).toMatch(/✓ addPlant +POST +\/plants +409 +\d+\n/)
    expect(stdout).toMatch(/✗ addPlant +POST +\/plants +507 +0\n/)
  })

  test("prints the JSON report with --json: the covered answers are exactly the pacts' interactions", async () => {
    const { code, stdout } = await spawnCli(['coverage', pacts, '--json']).done
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as CoverageReport
    expect(report).toMatchObject({ total: 23, undocumented: [], unrouted: [] })
    const expected = await answersInProjectPacts()
    expect(coveredAnswers(report)).toEqual(expected)
    expect(report.covered).toBe(expected.size)
  })

  test('exits 1 with one line on stderr below --min, and 0 at or above it', async () => {
    const { stdout } = await spawnCli(['coverage', pacts, '--json']).done
    const { percent } = JSON.parse(stdout) as CoverageReport
    const below = await spawnCli(['coverage', pacts, '--min', String(percent + 0.1)]).done
    expect(below.code).toBe(1)
    expect(below.stdout).toContain('Plant Store contract coverage:')
    expect(below.stderr).toBe(
      `plant-store-mock coverage: ${percent} % of the declared answers are covered; at least ${percent + 0.1} % are required.\n`,
    )
    expect(
      (await spawnCli(['coverage', `${pacts}/plant-store-web-plant-store.json`, pacts, '--min', String(percent)]).done)
        .code,
    ).toBe(0)
  })
})

describe('reading pacts', () => {
  test('reads V2 and V4 bodies and headers, tells the causes of a 401, lists answers outside the contract apart and skips message interactions', async () => {
    const file = await pactFile('mixed.json', [
      {
        description: 'expired token (V2 style: plain body and headers)',
        request: { method: 'GET', path: '/plants' },
        response: {
          status: 401,
          headers: { 'WWW-Authenticate': 'Bearer realm="plant-store", error="invalid_token"' },
          body: { error: 401, message: 'The access token has expired.' },
        },
      },
      {
        type: 'Synchronous/HTTP',
        description: 'unknown token (V4 style)',
        request: { method: 'delete', path: '/plants/3' },
        response: {
          status: 401,
          headers: { 'www-authenticate': ['Bearer realm="plant-store", error="invalid_token"'] },
          body: {
            content: { error: 401, message: 'The access token is not recognised.' },
            contentType: 'application/json',
          },
        },
      },
      { description: 'a 500', request: { method: 'POST', path: '/plants' }, response: { status: 500 } },
      { description: 'no such path', request: { method: 'GET', path: '/gardens' }, response: { status: 404 } },
      { type: 'Asynchronous/Messages', description: 'a message', contents: {} },
    ])
    const { code, stdout } = await spawnCli(['coverage', file, '--json']).done
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as CoverageReport
    const unauthorized = (operationId: string) =>
      report.operations
        .find((operation) => operation.operationId === operationId)
        ?.responses.find(({ status }) => status === 401)
    expect(unauthorized('listPlants')?.conditions).toEqual([
      { condition: 'missing token', hits: 0 },
      { condition: 'invalid token', hits: 0 },
      { condition: 'expired token', hits: 1 },
    ])
    expect(unauthorized('deletePlant')?.conditions?.find(({ condition }) => condition === 'invalid token')?.hits).toBe(
      1,
    )
    expect(report).toMatchObject({
      covered: 2,
      undocumented: [{ answer: 'addPlant 500', hits: 1 }],
      unrouted: [{ answer: 'GET 404', hits: 1 }],
    })
  })
})

describe('usage problems', () => {
  test('exit 2 with one clear line: no pacts, a missing path, an empty folder, non-pact JSON, not JSON, a bad --min', async () => {
    const empty = join(directory, 'empty')
    await mkdir(empty, { recursive: true })
    const notPact = join(directory, 'package.json')
    await writeFile(notPact, '{"name":"web"}')
    const notJson = join(directory, 'notes.json')
    await writeFile(notJson, 'plants!')
    const brokenInteraction = await pactFile('broken.json', [{ request: { method: 'GET' }, response: { status: 200 } }])
    const cases: Array<[string[], RegExp]> = [
      [[], /^plant-store-mock coverage: give pact files or folders of pact files\.\n$/],
      [[join(directory, 'missing.json')], /^plant-store-mock coverage: no such file or folder: .*missing\.json\.\n$/],
      [[empty], /^plant-store-mock coverage: no pact files \(\*\.json\) in the folder .*empty\.\n$/],
      [[notPact], /^plant-store-mock coverage: .*package\.json is not a pact file: it has no "interactions" list\.\n$/],
      [[notJson], /^plant-store-mock coverage: .*notes\.json is not a JSON file \(.*\)\.\n$/],
      [[brokenInteraction], /^plant-store-mock coverage: .*broken\.json is not a pact file: interaction 1 lacks/],
      [
        [pacts, '--min', '120'],
        /^error: option '--min <percent>' argument '120' is invalid\. must be a percentage from 0 to 100\.\n$/,
      ],
    ]
    for (const [args, line] of cases) {
      const { code, stdout, stderr } = await spawnCli(['coverage', ...args]).done
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' })
      expect(stderr).toMatch(line)
    }
  })
})
