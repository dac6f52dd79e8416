/**
 * `plant-store-mock/contracts` in a fresh project without the optional peer
 * `@pact-foundation/pact` and without `@types/express`: the packed package,
 * msw, TypeScript, Node's types and Playwright, nothing more. Its declarations
 * type-check strictly with `skipLibCheck: false`; `recordMswPact`,
 * `worldFromHar` and `replayHar` run; importing it inside a Playwright test
 * works; and `verifySandbox`, the one export that needs Pact, says in one line
 * which package to install.
 *
 * The sandbox's and CI tools' entries (`./server`, `./contracts`) are built apart from the frontend's (`.`,
 * `./node`), each build with its own copy of the classes both use (rolldown.config.ts): `recordMswPact` from
 * `./contracts` finds the store behind `./node`'s handlers (or it records nothing), and a `PlantStoreError` of
 * either build is `instanceof` the class of the other. Express (not its types) is installed for that, as
 * `./server` imports it.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { npmInstall, packFromClone, run } from './run.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>
}

const tooling = [
  'msw',
  `typescript@${manifest.devDependencies.typescript}`,
  `@types/node@${manifest.devDependencies['@types/node']}`,
  `@playwright/test@${manifest.devDependencies['@playwright/test']}`,
  `express@${manifest.devDependencies.express}`,
]

/** Uses every kind of export of the entry, its types included; prints what each call gave, as JSON. */
const script = `import {
  MissingPactError,
  type RecordedPact,
  type ReplayReport,
  recordMswPact,
  replayHar,
  type VerifySandboxOptions,
  verifySandbox,
  worldFromHar,
} from 'plant-store-mock/contracts'
import type { TenantSpec } from 'plant-store-mock'
import { fixtureTokens, setupPlantStoreServer } from 'plant-store-mock/node'

const { server } = setupPlantStoreServer()
const recorder = recordMswPact(server, { consumer: 'my-app', provider: 'plant-store' })
server.listen()
const listed = await fetch('https://api.example.com/plants', {
  headers: { authorization: \`Bearer \${fixtureTokens.acme.read}\` },
})
const plants: unknown = await listed.json()
const deleted = await fetch('https://api.example.com/plants/2', {
  method: 'DELETE',
  headers: { authorization: \`Bearer \${fixtureTokens.acme.write}\` },
})
const pact: RecordedPact = await recorder.pact()
server.close()

const har = {
  log: {
    entries: [
      {
        request: { method: 'GET', url: 'https://api.example.com/plants', headers: [{ name: 'authorization', value: \`Bearer \${fixtureTokens.acme.read}\` }] },
        response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: JSON.stringify(plants) } },
      },
      {
        request: { method: 'DELETE', url: 'https://api.example.com/plants/2', headers: [{ name: 'authorization', value: \`Bearer \${fixtureTokens.acme.write}\` }] },
        response: { status: deleted.status, headers: [] },
      },
    ],
  },
}
const world: TenantSpec[] = await worldFromHar(har)
const report: ReplayReport = await replayHar(har)

const options: VerifySandboxOptions = { pactUrls: ['pacts'] }
let verify: string
try {
  await verifySandbox(options)
  verify = 'verified'
} catch (error) {
  verify = error instanceof MissingPactError ? error.message : String(error)
}

console.log(JSON.stringify({
  interactions: pact.interactions.length,
  tenants: world.length,
  exchanges: report.exchanges,
  verify,
}))
`

const spec = `import { expect, test } from '@playwright/test'
import { worldFromHar } from 'plant-store-mock/contracts'
import { fixtureTokens } from 'plant-store-mock/node'

test('worldFromHar runs inside a Playwright test', async () => {
  const request = {
    method: 'GET',
    url: 'https://api.example.com/plants',
    headers: [{ name: 'authorization', value: \`Bearer \${fixtureTokens.acme.read}\` }],
  }
  const response = { status: 200, content: { mimeType: 'application/json', text: '[]' } }
  const world = await worldFromHar({ log: { entries: [{ request, response }] } })
  // Without a token map, the token's tenant is one of its own.
  expect(world).toHaveLength(1)
})
`

/**
 * A `PlantStoreError` thrown by the store behind `./node`'s handlers, and one made with `./server`'s class, checked
 * against both builds' classes (and a plain `Error` against them); prints the answers as JSON. JavaScript: the
 * types of `./server` need `@types/express`, which this project has not.
 */
const identity = `import { PlantStoreError } from 'plant-store-mock'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { PlantStoreError as SandboxError } from 'plant-store-mock/server'

const { store } = setupPlantStoreServer()
let thrown
try {
  store.resolveToken('not-a-token')
} catch (error) {
  thrown = error
}
const made = new SandboxError('not_found', 'No plant with id 7 exists.')
console.log(JSON.stringify({
  thrown: [thrown?.status, thrown instanceof PlantStoreError, thrown instanceof SandboxError],
  made: [made instanceof PlantStoreError, made instanceof SandboxError],
  plain: [new Error('x') instanceof PlantStoreError, new Error('x') instanceof SandboxError],
  twoClasses: PlantStoreError !== SandboxError,
}))
`

let workDir: string
let app: string

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'plant-store-contracts-'))
  const { filename } = await packFromClone(projectRoot, workDir)
  app = join(workDir, 'my-app')
  await mkdir(join(app, 'e2e'), { recursive: true })
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'my-app', private: true, type: 'module' }))
  const tsconfig = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      types: ['node'],
      noEmit: true,
      skipLibCheck: false,
      verbatimModuleSyntax: true,
    },
    include: ['*.ts', 'e2e/*.ts'],
  }
  await writeFile(join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
  await writeFile(join(app, 'contracts.ts'), script)
  await writeFile(join(app, 'identity.mjs'), identity)
  await writeFile(join(app, 'playwright.config.ts'), "export default { testDir: 'e2e' }\n")
  await writeFile(join(app, 'e2e', 'contracts.spec.ts'), spec)
  const installed = await run('npm', [...npmInstall, '-D', join(workDir, filename), ...tooling], app)
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`)
}, 600_000)

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

describe('plant-store-mock/contracts without @pact-foundation/pact and @types/express', () => {
  test('the project has neither', () => {
    expect(existsSync(join(app, 'node_modules', '@pact-foundation', 'pact'))).toBe(false)
    expect(existsSync(join(app, 'node_modules', '@types', 'express'))).toBe(false)
  })

  test('type-checks strictly, the package’s declarations included (skipLibCheck: false)', async () => {
    const checked = await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', '.'], app)

    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.code).toBe(0)
  }, 300_000)

  // `interactions: 2`: recordMswPact (./contracts) found the handlers of ./node by the store registry behind them.
  test('records a pact, infers a world and replays a HAR; verifySandbox names the peer to install', async () => {
    // The Node that runs this test, first on PATH (it runs TypeScript as it is).
    const ran = await run('node', ['contracts.ts'], app)

    expect(ran.stderr).toBe('')
    expect(ran.code).toBe(0)
    expect(JSON.parse(ran.stdout)).toEqual({
      interactions: 2,
      tenants: expect.any(Number),
      exchanges: 2,
      verify:
        'verifySandbox needs the optional peer dependency @pact-foundation/pact; install it: npm i -D @pact-foundation/pact',
    })
  })

  test('a PlantStoreError thrown behind ./node’s handlers is instanceof ./server’s PlantStoreError, and the other way round', async () => {
    const ran = await run('node', ['identity.mjs'], app)

    expect(ran.stderr).toBe('')
    expect(JSON.parse(ran.stdout)).toEqual({
      thrown: [401, true, true],
      made: [true, true],
      plain: [false, false],
      // Two builds, two classes: what the brand is for.
      twoClasses: true,
    })
  })

  test('imports inside a Playwright test', async () => {
    const ran = await run('npx', ['playwright', 'test', '--reporter=list'], app)

    expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
    expect(ran.stdout).toMatch(/1 passed/)
  })
})
