/**
 * A frontend team's project, from scratch: the packed package and, in one
 * install, the tools such a team uses (Vitest with jsdom and happy-dom, React
 * Testing Library, Jest with jest-fixed-jsdom, Playwright). The documentation's
 * blocks that name a file of the `frontend` project (```` ```ts file=… project=frontend ````)
 * are written there unmodified and run as the guides say: the strict type
 * check, Vitest with the setup module in `setupFiles` (isolated and not),
 * Jest, and Playwright on the Chromium the browser tests use, both the
 * `routePlantStore` fixture suite and the sandbox suite. The Jest guide's
 * table of error messages is checked against what Jest says.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readmeFiles, withFreePorts } from './readme.ts'
import { npmInstall, packFromClone, type Ran, run, writeLocalPlaywrightConfig } from './run.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>
}

/** The tools of the frontend recipes, in one install (the ones this repository uses at its versions). */
const tooling = [
  'msw',
  `@playwright/test@${manifest.devDependencies['@playwright/test']}`,
  `vitest@${manifest.devDependencies.vitest}`,
  `typescript@${manifest.devDependencies.typescript}`,
  `@types/node@${manifest.devDependencies['@types/node']}`,
  'jsdom@29',
  'happy-dom@21',
  'react@19',
  'react-dom@19',
  '@types/react@19',
  '@types/react-dom@19',
  '@testing-library/react@16',
  '@testing-library/dom@10',
  'jest@30',
  '@jest/globals@30',
  'ts-jest@29',
  'jest-environment-jsdom@30',
  'jest-fixed-jsdom@0.0.11',
]

const jest = ['--experimental-vm-modules'] as const

/** Terminal colour codes (ts-jest colours its warnings even into a pipe). */
const colours = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g')

/** What a run printed, both streams, without colour codes. */
const printed = (ran: Ran) => (ran.stdout + ran.stderr).replace(colours, '')

let workDir: string
let app: string

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'plant-store-frontend-'))
  const { filename } = await packFromClone(projectRoot, workDir)

  app = join(workDir, 'my-frontend')
  await mkdir(app)
  const projectManifest = {
    name: 'my-frontend',
    private: true,
    type: 'module',
    // The Playwright guide's stand-in app, served by Vite (which Vitest brings).
    scripts: { test: 'vitest run', dev: 'vite app --host 127.0.0.1' },
    allowScripts: { '@pactflow/swagger-mock-validator': false },
  }
  await writeFile(join(app, 'package.json'), `${JSON.stringify(projectManifest, null, 2)}\n`)
  const installed = await run('npm', [...npmInstall, '-D', join(workDir, filename), ...tooling], app)
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`)

  // Every server the guides start (the sandbox and the app of Playwright's webServer) on a free port.
  for (const file of await withFreePorts(readmeFiles('frontend'))) {
    await mkdir(dirname(join(app, file.path)), { recursive: true })
    await writeFile(join(app, file.path), file.text)
  }
}, 600_000)

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

describe('the frontend recipes in a fresh project', () => {
  test('hold every file the guides name for it', () => {
    expect(readmeFiles('frontend').map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        'tsconfig.json',
        'vitest.config.ts',
        'test/setup.ts',
        'src/PlantList.tsx',
        'test/plant-list.test.tsx',
        'test/plant-list.happy-dom.test.tsx',
        'jest.config.js',
        'jest/plant-list.test.tsx',
        'playwright.config.ts',
        'app/index.html',
        'e2e/fixtures.ts',
        'e2e/plants.spec.ts',
        'e2e/sandbox.spec.ts',
      ]),
    )
  })

  test('type-check strictly with the guides’ tsconfig', async () => {
    const checked = await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', '.'], app)

    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.code).toBe(0)
  })

  for (const [how, args] of [
    ['isolated (Vitest’s default)', []],
    ['with --no-isolate: the setup module in setupFiles holds', ['--no-isolate']],
  ] as const) {
    test(`pass under Vitest, ${how}: jsdom, happy-dom, React Testing Library, StrictMode`, async () => {
      const ran = await run('npx', ['vitest', 'run', ...args], app)

      expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
      for (const file of ['client.test.ts', 'plant-list.test.tsx', 'plant-list.happy-dom.test.tsx']) {
        expect(ran.stdout).toContain(file)
      }
      expect(printed(ran)).toMatch(/Tests\s+6 passed/)
      expect(ran.stdout).not.toMatch(/skipped|todo/i)
    })
  }

  test('pass under Jest with jest-fixed-jsdom, without a ts-jest warning', async () => {
    const ran = await run('npx', ['jest'], app, { NODE_OPTIONS: jest.join(' ') })

    expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
    expect(printed(ran)).toMatch(/Tests:\s+2 passed, 2 total/)
    expect(printed(ran)).not.toContain('TS151002')
  })

  test('fail under Jest with the messages the Jest guide quotes', async () => {
    const withoutFlag = await run('npx', ['jest'], app)
    expect(withoutFlag.code).not.toBe(0)
    expect(withoutFlag.stderr).toContain(`Must use import to load ES Module: ${join(app, 'jest', 'setup.ts')}`)

    const config = await readFile(join(app, 'jest.config.js'), 'utf8')
    await writeFile(join(app, 'jest.jsdom.config.js'), config.replace("'jest-fixed-jsdom'", "'jsdom'"))
    const withJsdom = await run('npx', ['jest', '-c', 'jest.jsdom.config.js'], app, { NODE_OPTIONS: jest.join(' ') })
    expect(withJsdom.code).not.toBe(0)
    expect(withJsdom.stderr).toContain('ReferenceError: Request is not defined')

    const tsconfig = await readFile(join(app, 'tsconfig.json'), 'utf8')
    await writeFile(join(app, 'tsconfig.json'), tsconfig.replace(/^\s*"isolatedModules": true,\n/m, ''))
    try {
      const warned = await run('npx', ['jest', '--no-cache'], app, { NODE_OPTIONS: jest.join(' ') })
      expect(warned.code).toBe(0)
      expect(printed(warned)).toContain(
        'TS151002: Using hybrid module kind (Node16/18/Next) is only supported in "isolatedModules: true".',
      )
    } finally {
      await writeFile(join(app, 'tsconfig.json'), tsconfig)
    }
  })

  test('pass under Playwright on Chromium: the routePlantStore fixture suite and the sandbox suite', async () => {
    // The guide's configuration, pointed at the Chromium the browser tests use (nothing is downloaded).
    await writeLocalPlaywrightConfig(app)
    // CI=true: Playwright starts the sandbox and the app itself, never reusing a server on those ports.
    const ran = await run(
      'npx',
      ['playwright', 'test', '--config', 'playwright.local.config.ts', '--reporter=list'],
      app,
      {
        CI: 'true',
      },
    )

    expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
    expect(ran.stdout).toMatch(/6 passed/)
    expect(ran.stdout).toContain('plants.spec.ts')
    expect(ran.stdout).toContain('sandbox.spec.ts')
    expect(ran.stdout).not.toMatch(/skipped|flaky/i)
  }, 240_000)
})
