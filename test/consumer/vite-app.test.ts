/**
 * Today's templates: the app `npm create vite@latest -- --template react-ts`
 * makes (TypeScript 7, a references-only root tsconfig, React 19), with the
 * packed package and, in one install, what its team adds (Vitest, Jest 30
 * through @swc/jest and jest-fixed-jsdom, Playwright, Storybook with
 * msw-storybook-addon 3, TypeScript 5.9 beside the template's 7). The
 * documentation's blocks for the `vite` project (```` ```tsx file=… project=vite ````)
 * are written there unmodified and run as the guides say: `tsc -b`, a
 * three-file Vitest suite on two workers and Playwright on the Vite dev
 * server with service workers blocked (the app starts the worker in
 * development and must still mount) on two workers, each printing one
 * contract coverage table for the whole run and failing below its threshold,
 * the two runs' reports merged by `plant-store-mock coverage`, each answer
 * once (the coverage guide's CI steps), Jest, and
 * `storybook build` visited in Chromium. The packed types are checked by
 * TypeScript 7 and 5.9 through a file that imports every entry.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findChromium, startChromium } from '../browser/chromium.ts'
import { total } from '../support/coverage-share.ts'
import { freePort, readmeCiSteps, readmeFiles, withFreePorts } from './readme.ts'
import { cleanEnv, npmInstall, packFromClone, type Ran, run, writeLocalPlaywrightConfig } from './run.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>
  devDependencies: Record<string, string>
}

/** What the team adds to the template, in one install (beside the template's own dependencies). */
const tooling = [
  'msw@3',
  `vitest@${manifest.devDependencies.vitest}`,
  `@playwright/test@${manifest.devDependencies['@playwright/test']}`,
  // The Jest recipe (node-tests guide).
  'jest@30',
  '@jest/globals@30',
  'jest-environment-jsdom@30',
  'jest-fixed-jsdom@0.0.11',
  '@swc/jest@0.2',
  '@swc/core@1',
  '@testing-library/react@16',
  '@testing-library/dom@10',
  // The Storybook guide's install.
  'storybook@10',
  '@storybook/react-vite@10',
  'msw-storybook-addon@3',
  // For the packed types under both compilers: TypeScript 5.9 beside the template's 7, and the optional
  // peers whose types the entries name (the server entry names Express's and pino's). No Pact: the coverage
  // guide's recordMswPact and the contracts entry's types need none (test/consumer/contracts-without-pact.test.ts).
  `typescript-5.9@npm:typescript@${manifest.devDependencies.typescript}`,
  `@types/express@${manifest.devDependencies['@types/express']}`,
  `pino@${manifest.devDependencies.pino}`,
]

/** How long `expect.poll` waits for a story to render. */
const polled = { timeout: 20_000 }

/** Terminal colour codes. */
const colours = new RegExp(`${String.fromCharCode(27)}\\[[\\d;]*m`, 'g')

/** What a run printed, both streams, without colour codes. */
const printed = (ran: Ran) => (ran.stdout + ran.stderr).replace(colours, '')

const jestEnv = { NODE_OPTIONS: '--experimental-vm-modules' }

/** The heading of a contract coverage table. */
const tableHeading = new RegExp(`^Plant Store contract coverage: \\d+ of ${total} declared answers`, 'gm')

/** The coverage guide's CI steps for the Vite app: the one that starts with `command`. */
function ciStep(command: string): string {
  const step = readmeCiSteps('vite').find(({ run }) => run.startsWith(command))
  if (step === undefined) throw new Error(`The coverage guide's CI steps for the Vite app have no ${command}.`)
  return step.run
}

/** Runs a CI step's command line as CI does, through a shell. */
const runStep = (command: string, env: Record<string, string> = {}) => run('sh', ['-c', command], app, env)

/**
 * Moves the app's `playwright.config.ts` (its dev server's port) to a port just taken from the system: each
 * Playwright run starts its dev server on a port of its own, so a dev server the previous run is still stopping,
 * or any other process that took the port since `beforeAll`, cannot make `--strictPort` fail.
 */
async function freshPlaywrightPort(): Promise<void> {
  const path = join(app, 'playwright.config.ts')
  const [moved] = await withFreePorts([{ path: 'playwright.config.ts', text: await readFile(path, 'utf8') }])
  if (moved === undefined) throw new Error('withFreePorts returned no file.')
  await writeFile(path, moved.text)
}

let workDir: string
let app: string

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'plant-store-vite-'))
  const [{ filename }, created] = await Promise.all([
    packFromClone(projectRoot, workDir),
    run(
      'npm',
      ['create', '--yes', 'vite@latest', 'my-vite-app', '--', '--template', 'react-ts', '--no-interactive'],
      workDir,
    ),
  ])
  if (created.code !== 0) throw new Error(`npm create vite failed:\n${printed(created)}`)
  app = join(workDir, 'my-vite-app')

  const installed = await run('npm', [...npmInstall, '-D', join(workDir, filename), ...tooling], app)
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`)
  const workerScript = await run('npx', ['msw', 'init', 'public', '--save'], app)
  if (workerScript.code !== 0) throw new Error(`npx msw init failed:\n${printed(workerScript)}`)

  // Every server the guides start (the dev server of Playwright's webServer) on a free port, never a fixed one.
  for (const file of await withFreePorts(readmeFiles('vite'))) {
    await mkdir(dirname(join(app, file.path)), { recursive: true })
    await writeFile(join(app, file.path), file.text)
  }
}, 600_000)

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

describe('the app of npm create vite (react-ts), with the guides’ recipes', () => {
  test('is today’s template: TypeScript 7 and a root tsconfig that only lists references', async () => {
    const template = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>
    }
    const tsc = await run(join(app, 'node_modules', '.bin', 'tsc'), ['--version'], app)
    const guideTsconfig = readmeFiles('vite').find(({ path }) => path === 'tsconfig.json')

    expect(template.devDependencies.typescript).toMatch(/^[~^]?7\./)
    expect(tsc.stdout).toMatch(/^Version 7\./)
    expect(JSON.parse(guideTsconfig?.text ?? '{}')).toMatchObject({ files: [], references: expect.any(Array) })
  })

  test('holds every file the guides name for it, the README’s dev snippet in its main.tsx', async () => {
    const files = readmeFiles('vite')
    const readme = await readFile(join(projectRoot, 'README.md'), 'utf8')
    const snippet = /```ts\n(if \(import\.meta\.env\.DEV\) \{\n[\s\S]*?\n\})\n```/.exec(readme)?.[1]

    expect(files.map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        'src/main.tsx',
        'src/App.tsx',
        'src/PlantList.tsx',
        'src/AddPlant.tsx',
        'tsconfig.json',
        'tsconfig.test.json',
        'jest.config.js',
        'jest/environment.js',
        'jest/setup.ts',
        'jest/plants.test.tsx',
        'playwright.config.ts',
        'e2e/fixtures.ts',
        'e2e/app.spec.ts',
        '.storybook/main.ts',
        '.storybook/preview.tsx',
        'src/PlantList.stories.tsx',
        'vitest.config.ts',
        'test/setup.ts',
        'test/add.test.ts',
        'test/list.test.ts',
        'test/delete.test.ts',
        'ci-steps.yml',
      ]),
    )
    expect(snippet).toBeDefined()
    expect(files.find(({ path }) => path === 'src/main.tsx')?.text).toContain(snippet)
  })

  test('type-check with TypeScript 7 through the template’s tsc -b: the app, the tests, the suite and the stories', async () => {
    const checked = await run(join(app, 'node_modules', '.bin', 'tsc'), ['-b'], app)

    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.code).toBe(0)
  })

  test('pass under Vitest, three files on two workers: one coverage table for the whole run, the pact recorded', async () => {
    const ran = await runStep(ciStep('npx vitest run'))
    const report = JSON.parse(await readFile(join(app, 'coverage', 'unit.json'), 'utf8')) as { covered: number }
    const pact = JSON.parse(await readFile(join(app, 'pacts', 'my-vite-app-plant-store.json'), 'utf8')) as {
      interactions: unknown[]
    }

    expect(ran.code, printed(ran)).toBe(0)
    expect(printed(ran)).toMatch(/Test Files\s+3 passed \(3\)/)
    expect(printed(ran).match(tableHeading)).toHaveLength(1)
    expect(printed(ran)).toMatch(/\(one run: merged from [23] process files\)/)
    expect(report.covered).toBeGreaterThanOrEqual(7)
    expect(pact.interactions).toHaveLength(4)
  })

  test('pass under Vitest with --no-isolate too, into one table with the same count', async () => {
    const isolated = await readFile(join(app, 'coverage', 'unit.json'), 'utf8')

    const ran = await runStep(`${ciStep('npx vitest run')} --no-isolate`)

    expect(ran.code, printed(ran)).toBe(0)
    expect(printed(ran).match(tableHeading)).toHaveLength(1)
    expect(await readFile(join(app, 'coverage', 'unit.json'), 'utf8')).toBe(isolated)
  })

  test('fail under Vitest below the reporter’s threshold, every test passing', async () => {
    const config = await readFile(join(app, 'vitest.config.ts'), 'utf8')
    // The guide gates on answers the app owns (`require`), which hold whatever the contract adds; a share of all
    // declared answers (`min`) is what this run asks for too much of.
    const strict = config.replace("'plant-store-mock/vitest', {", "'plant-store-mock/vitest', { min: 90,")
    expect(strict, 'the guide configures plant-store-mock/vitest with an options object').not.toBe(config)
    await writeFile(join(app, 'vitest.strict.config.ts'), strict)

    const ran = await run('npx', ['vitest', 'run', '--config', 'vitest.strict.config.ts'], app)

    expect(ran.code).toBe(1)
    expect(printed(ran)).toMatch(/Tests\s+6 passed \(6\)/)
    expect(printed(ran).match(tableHeading)).toHaveLength(1)
    expect(printed(ran)).toMatch(
      /Plant Store contract coverage is below the threshold:\n\s+- [\d.]+ % of the declared answers are covered; at least 90 % are required\./,
    )
  })

  test('pass under Jest 30 through @swc/jest with TypeScript 7 installed, forms included', async () => {
    const ran = await run('npx', ['jest'], app, jestEnv)

    expect(ran.code, printed(ran)).toBe(0)
    expect(printed(ran)).toMatch(/Tests:\s+3 passed, 3 total/)
  })

  test('fail to read a form under jest-fixed-jsdom as it comes, with the message the Jest guide quotes', async () => {
    const config = await readFile(join(app, 'jest.config.js'), 'utf8')
    await writeFile(
      join(app, 'jest.plain.config.js'),
      config.replace("'<rootDir>/jest/environment.js'", "'jest-fixed-jsdom'"),
    )

    const ran = await run('npx', ['jest', '-c', 'jest.plain.config.js'], app, jestEnv)

    expect(ran.code).not.toBe(0)
    expect(printed(ran)).toContain('TypeError: FormData constructor: Argument 1 could not be converted to: undefined.')
    expect(printed(ran)).toMatch(/Tests:\s+2 failed, 1 passed, 3 total/)
  })

  test('pass under Playwright on the Vite dev server with service workers blocked: the app mounts, the routes answer', async () => {
    // The guide's configuration, pointed at the Chromium the browser tests use (nothing is downloaded).
    await writeLocalPlaywrightConfig(app)
    await freshPlaywrightPort()
    // CI=true: Playwright starts the dev server itself, never reusing one on that port. Two workers (CI's
    // default is half the cores).
    const ran = await runStep(`${ciStep('npx playwright test')} --config playwright.local.config.ts --workers 2`, {
      CI: 'true',
    })

    expect(ran.code, printed(ran)).toBe(0)
    expect(ran.stdout).toMatch(/Running 3 tests using 2 workers/)
    expect(ran.stdout).toMatch(/3 passed/)
    expect(ran.stdout).not.toMatch(/skipped|flaky/i)
    // The reporter: one table for the three tests and both workers.
    expect(printed(ran).match(tableHeading)).toHaveLength(1)
    expect(printed(ran)).toContain('(one run: merged from 2 process files)')
  }, 240_000)

  test('fail under Playwright below the reporter’s threshold, every test passing', async () => {
    await freshPlaywrightPort()
    const config = await readFile(join(app, 'playwright.config.ts'), 'utf8')
    const strict = config.replace(/\bmin: \d+,/, 'min: 90,')
    expect(strict, 'the guide gives the Playwright reporter a min').not.toBe(config)
    await writeFile(join(app, 'playwright.strict.config.ts'), strict)
    const local = await readFile(join(app, 'playwright.local.config.ts'), 'utf8')
    await writeFile(
      join(app, 'playwright.strict.local.config.ts'),
      local.replace("'./playwright.config.ts'", "'./playwright.strict.config.ts'"),
    )

    const ran = await run(
      'npx',
      ['playwright', 'test', '--config', 'playwright.strict.local.config.ts', '--workers', '2'],
      app,
      { CI: 'true' },
    )

    expect(ran.code).toBe(1)
    expect(ran.stdout).toMatch(/3 passed/)
    expect(printed(ran).match(tableHeading)).toHaveLength(1)
    expect(printed(ran)).toMatch(
      /Plant Store contract coverage is below the threshold:\n\s+- [\d.]+ % of the declared answers are covered; at least 90 % are required\./,
    )
  }, 240_000)

  test('merge into one table with plant-store-mock coverage: the Vitest run and the Playwright run, each answer once', async () => {
    const ran = await runStep(ciStep('npx plant-store-mock coverage'))
    const read = async (file: string) =>
      JSON.parse(await readFile(join(app, 'coverage', file), 'utf8')) as {
        covered: number
        operations: { operationId: string; responses: { status: number; hits: number }[] }[]
      }
    const [unit, e2e, merged] = await Promise.all([read('unit.json'), read('e2e.json'), read('plant-store.json')])
    const listed = (report: typeof unit) =>
      report.operations
        .find(({ operationId }) => operationId === 'listPlants')
        ?.responses.find(({ status }) => status === 200)?.hits ?? 0

    expect(ran.code, printed(ran)).toBe(0)
    expect(ran.stdout).toMatch(/^2 coverage reports merged\.$/m)
    expect(printed(ran).match(tableHeading)).toHaveLength(1)
    // Every run's answers, added up once: the Vitest run's recorded pact is in unit.json already, not added again.
    expect(listed(merged)).toBe(listed(unit) + listed(e2e))
    expect(merged.covered).toBeGreaterThanOrEqual(unit.covered)
  })
})

describe('the packed types', () => {
  const entries = Object.keys(manifest.exports).filter((entry) => entry !== './package.json')

  for (const [compiler, bin] of [
    ['TypeScript 7', ['node_modules', '.bin', 'tsc']],
    ['TypeScript 5.9', ['node_modules', 'typescript-5.9', 'bin', 'tsc']],
  ] as const) {
    test(`type-check under ${compiler}: a file importing every entry, strict, nodenext, skipLibCheck off`, async () => {
      await mkdir(join(app, 'entries'), { recursive: true })
      const names = entries.map((entry) => `plant-store-mock${entry.slice(1)}`)
      await writeFile(
        join(app, 'entries', 'every-entry.ts'),
        `${names.map((name, index) => `import * as entry${index} from '${name}'`).join('\n')}\n\n` +
          `export const entries = [${names.map((_, index) => `entry${index}`).join(', ')}]\n`,
      )
      const tsconfig = {
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          target: 'es2023',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['every-entry.ts'],
      }
      await writeFile(join(app, 'entries', 'tsconfig.json'), JSON.stringify(tsconfig))

      const version = await run(join(app, ...bin), ['--version'], app)
      const checked = await run(join(app, ...bin), ['-p', 'entries'], app)

      expect(entries).toHaveLength(10) // with ./playwright/reporter, ./vitest and ./vitest/setup
      expect(version.stdout).toContain(compiler === 'TypeScript 7' ? 'Version 7.' : 'Version 5.9.')
      expect(checked.stdout + checked.stderr).toBe('')
      expect(checked.code).toBe(0)
    })
  }
})

describe('the Storybook guide’s stories', () => {
  let preview: ChildProcess | undefined
  let browser: Browser | undefined

  afterAll(async () => {
    await browser?.close()
    preview?.kill()
  })

  test('build, and render in Chromium: a fault rule’s story, then a world of its own, then the seeded world again', async () => {
    const built = await run('npx', ['storybook', 'build', '--quiet'], app, { STORYBOOK_DISABLE_TELEMETRY: '1' })
    expect(built.code, printed(built)).toBe(0)

    const port = await freePort()
    const vite = join(app, 'node_modules', 'vite', 'bin', 'vite.js')
    const address = `http://127.0.0.1:${port}`
    preview = spawn(
      process.execPath,
      [vite, 'preview', '--outDir', 'storybook-static', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
      { cwd: app, env: cleanEnv, stdio: 'ignore' },
    )
    await expect
      .poll(
        () =>
          fetch(address).then(
            ({ ok }) => ok,
            () => false,
          ),
        { timeout: 30_000 },
      )
      .toBe(true)
    browser = await startChromium(await findChromium())
    const page = await browser.newPage()
    const said: string[] = []
    page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`))
    const story = page.frameLocator('#storybook-preview-iframe')

    // The fault rule's story: every GET /plants of Acme answers 503.
    await page.goto(`${address}/?path=/story/plants-plantlist--list-fails`)
    await expect.poll(() => story.getByRole('alert').textContent(), polled).toBe('Could not load the plants (503)')

    // In the same page, as a reader clicks through: Globex's token and a world of 20 plants a tenant.
    await page.getByRole('link', { name: 'Twenty Plants' }).click()
    await expect.poll(() => story.getByRole('listitem').count(), polled).toBe(20)

    // And the seeded world again, the fault rule gone.
    await page.getByRole('link', { name: 'Seeded' }).click()
    await expect.poll(() => story.getByRole('listitem').count(), polled).toBe(5)
    expect(await story.getByRole('alert').count()).toBe(0)
    expect(said.filter((line) => line.includes('[plant-store-mock]'))).toEqual([])
  }, 180_000)
})
