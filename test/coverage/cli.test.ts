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
import { total } from '../support/coverage-share.ts'

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
      new RegExp(
        `^\\d+ HTTP interactions in 2 pact files\\.\\nPlant Store contract coverage: \\d+ of ${total} declared answers`,
      ),
    )
    expect(stdout).toMatch(/✓ addPlant +POST +\/plants +409 +\d+\n/)
    expect(stdout).toMatch(/✗ addPlant +POST +\/plants +507 +0\n/)
  })

  test("prints the JSON report with --json: the covered answers are exactly the pacts' interactions", async () => {
    const { code, stdout } = await spawnCli(['coverage', pacts, '--json']).done
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as CoverageReport
    expect(report).toMatchObject({ total, undocumented: [], unrouted: [] })
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

describe('merging coverage reports', () => {
  const listed = {
    description: 'a list',
    request: { method: 'GET', path: '/plants' },
    response: { status: 200, body: [] },
  }
  const taken = {
    description: 'a taken id',
    request: { method: 'POST', path: '/plants' },
    response: { status: 409, body: { error: 409, message: 'A plant with id 1 already exists.' } },
  }

  function hitsOf(report: CoverageReport, operationId: string, status: number): number | undefined {
    return report.operations
      .find((operation) => operation.operationId === operationId)
      ?.responses.find((response) => response.status === status)?.hits
  }

  test("adds the hits of reports (a run's, the sandbox's with its tenant) to the pacts' and writes the merged JSON with --out", async () => {
    const unit = join(directory, 'merge', 'unit.json')
    expect(
      (await spawnCli(['coverage', await pactFile('listed.json', [listed, listed]), '--out', unit]).done).code,
    ).toBe(0)
    const sandbox = join(directory, 'merge', 'sandbox.json')
    const fromUnit = JSON.parse(await readFile(unit, 'utf8')) as CoverageReport
    await writeFile(
      sandbox,
      JSON.stringify({ tenant: 'acme', ...fromUnit, unrouted: [{ answer: 'PUT 405', hits: 3 }] }),
    )
    const pact = await pactFile('taken.json', [taken])
    const merged = join(directory, 'merge', 'merged.json')

    const { code, stdout } = await spawnCli(['coverage', unit, sandbox, pact, '--out', merged]).done
    expect(code).toBe(0)
    expect(stdout).toMatch(/^1 HTTP interaction in 1 pact file, merged with 2 coverage reports\.\n/)
    expect(stdout).toMatch(/✓ listPlants +GET +\/plants +200 +4\n/)
    expect(stdout).toMatch(/✓ addPlant +POST +\/plants +409 +1\n/)
    const report = JSON.parse(await readFile(merged, 'utf8')) as CoverageReport
    expect(report).toMatchObject({ covered: 2, total, unrouted: [{ answer: 'PUT 405', hits: 3 }] })
    expect(hitsOf(report, 'listPlants', 200)).toBe(4)
  })

  test('reports alone, without a pact, are said as such: "2 coverage reports merged."', async () => {
    const unit = join(directory, 'merge', 'unit-alone.json')
    expect((await spawnCli(['coverage', await pactFile('listed-alone.json', [listed]), '--out', unit]).done).code).toBe(
      0,
    )

    const { code, stdout } = await spawnCli(['coverage', unit, unit]).done
    expect(code).toBe(0)
    expect(stdout).toMatch(/^2 coverage reports merged\.\n/)
    expect(stdout).toMatch(/✓ listPlants +GET +\/plants +200 +2\n/)
  })

  test('a report of an answer this contract does not declare counts it as undocumented; --require fails the run with exit 1', async () => {
    const other = join(directory, 'other-contract.json')
    const responses = [{ status: 418, hits: 2 }]
    await writeFile(
      other,
      JSON.stringify({ operations: [{ operationId: 'brewTea', responses }], undocumented: [], unrouted: [] }),
    )
    const { code, stdout, stderr } = await spawnCli(['coverage', other, '--json', '--require', 'addPlant 409']).done
    expect(code).toBe(1)
    expect((JSON.parse(stdout) as CoverageReport).undocumented).toEqual([{ answer: 'brewTea 418', hits: 2 }])
    expect(stderr).toBe('plant-store-mock coverage: addPlant 409 was never answered.\n')
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
    const badReport = join(directory, 'bad-report.json')
    const responses = [{ status: 200, hits: -1 }]
    await writeFile(
      badReport,
      JSON.stringify({ operations: [{ operationId: 'listPlants', responses }], undocumented: [], unrouted: [] }),
    )
    const brokenInteraction = await pactFile('broken.json', [{ request: { method: 'GET' }, response: { status: 200 } }])
    const cases: Array<[string[], RegExp]> = [
      [[], /^plant-store-mock coverage: give pact files, coverage reports, or folders of them\.\n$/],
      [[join(directory, 'missing.json')], /^plant-store-mock coverage: no such file or folder: .*missing\.json\.\n$/],
      [
        [empty],
        /^plant-store-mock coverage: no pact files or coverage reports \(\*\.json\) in the folder .*empty\.\n$/,
      ],
      [
        [notPact],
        /^plant-store-mock coverage: .*package\.json is neither a pact file \(it has no "interactions" list\) nor a coverage report \(no "operations"\)\.\n$/,
      ],
      [
        [badReport],
        /^plant-store-mock coverage: .*bad-report\.json is not a coverage report: operations\.0\.responses\.0\.hits .+\.\n$/,
      ],
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
