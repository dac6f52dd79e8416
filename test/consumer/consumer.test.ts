/**
 * A team adopting plant-store-mock from scratch. The package is packed from a
 * clean copy of this repository (so `prepack` builds it, and this worktree's
 * `dist/` is left alone), installed into an empty project with the README's
 * command, `npm i -D <tarball> msw`, and the README's examples that name a
 * file are written there unmodified: they must type-check strictly under
 * `nodenext` and pass when run as the README's CI steps say. A README change
 * is what this test proves. That install takes the newest msw; then the
 * lowest msw of the peer range replaces it, and the tests and the strict
 * type check pass again: the peer range is the tested one.
 */
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readmeCiSteps, readmeFiles } from './readme.ts'
import { npmInstall, type Packed, packFromClone, run } from './run.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const manifest = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  engines: { node: string }
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  peerDependencies: Record<string, string>
}

let workDir: string
let app: string
let packed: Packed
let oldNode: string
/** The packages in the project right after the README's install, before the project's own tooling. */
let installedByReadme: string[]

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'plant-store-consumer-'))

  packed = await packFromClone(projectRoot, workDir)

  app = join(workDir, 'my-web-app')
  await mkdir(app)
  // As the README says: deny the validator's postinstall (patch-package), which fails when npm hoists its ajv;
  // npm runs install scripts in CI (CI=true) and only warns about them elsewhere.
  const projectManifest = {
    name: 'my-web-app',
    private: true,
    type: 'module',
    scripts: { test: 'vitest run' },
    allowScripts: { '@pactflow/swagger-mock-validator': false },
  }
  await writeFile(join(app, 'package.json'), `${JSON.stringify(projectManifest, null, 2)}\n`)

  // The README's install command, timed alone.
  const started = performance.now()
  const installed = await run('npm', [...npmInstall, '-D', join(workDir, packed.filename), 'msw'], app)
  const installSeconds = (performance.now() - started) / 1000
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`)
  const listed = await run('npm', ['ls', '--all', '--parseable'], app)
  installedByReadme = listed.stdout
    .trim()
    .split('\n')
    .map((path) => relative(join(app, 'node_modules'), path))
    .filter((path) => path !== '' && !path.startsWith('..'))

  // Then the project's own test tooling, at the versions this repository uses (so mostly from the npm cache),
  // and beside it a Node older than `engines`, from the npm registry (the `node` package), in a folder of its own.
  const tooling = ['vitest', 'typescript', '@types/node', '@pact-foundation/pact', '@pactflow/swagger-mock-validator']
  const versions = tooling.map((name) => `${name}@${manifest.devDependencies[name]}`)
  // The sandbox guide's embedding example brings Express and its types, as a TypeScript Express app has them.
  const embedding = ['express', '@types/express'].map((name) => `${name}@${manifest.devDependencies[name]}`)
  const old = join(workDir, 'old-node')
  await mkdir(old)
  // Its preinstall script links the platform's binary, as this repository's own `node` devDependency does.
  await writeFile(join(old, 'package.json'), JSON.stringify({ private: true, allowScripts: { node: true } }))
  const [toolingInstalled, oldInstalled] = await Promise.all([
    run('npm', [...npmInstall, '-D', ...versions, ...embedding], app),
    run('npm', [...npmInstall, 'node@20'], old),
  ])
  if (toolingInstalled.code !== 0) throw new Error(`npm install of the tooling failed:\n${toolingInstalled.stderr}`)
  if (oldInstalled.code !== 0) throw new Error(`npm install node@20 failed:\n${oldInstalled.stderr}`)
  oldNode = join(old, 'node_modules', '.bin', 'node')

  for (const file of readmeFiles()) {
    await mkdir(dirname(join(app, file.path)), { recursive: true })
    await writeFile(join(app, file.path), file.text)
  }

  const figures = {
    tarball: packed.filename,
    packageBytes: packed.size,
    unpackedBytes: packed.unpackedSize,
    files: packed.files.length,
    installCommand: `npm i -D ${packed.filename} msw`,
    installSeconds: Number(installSeconds.toFixed(1)),
  }
  await mkdir(join(projectRoot, 'test-results'), { recursive: true })
  await writeFile(join(projectRoot, 'test-results', 'consumer.json'), `${JSON.stringify(figures, null, 2)}\n`)
  process.stdout.write(
    `[consumer test] ${figures.tarball}: ${(figures.packageBytes / 1000).toFixed(1)} kB packed, ` +
      `${(figures.unpackedBytes / 1e6).toFixed(2)} MB unpacked, ${figures.files} files; ` +
      `\`${figures.installCommand}\` into an empty project: ${figures.installSeconds} s\n`,
  )
}, 300_000)

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

describe('the packed package', () => {
  test('ships the bundled entries (the browser entry built apart) with their types and zod’s, the bin bundle, Swagger UI’s files, both contracts, the inspector page, the nginx template, README and LICENSE, and no sources or source maps', () => {
    const paths = packed.files.map((file) => file.path)
    const built =
      /^(dist\/(lib|browser|sandbox|swagger-ui)\/|contracts\/(sandbox\.)?openapi\.yaml$|src\/inspector\/[\w-]+\.(html|js|css)$|cluster\/nginx\.conf\.template$)/

    expect(paths.filter((path) => !built.test(path)).sort()).toEqual(['LICENSE', 'README.md', 'package.json'])
    expect(paths).toEqual(
      expect.arrayContaining([
        'dist/sandbox/cli.js',
        'dist/lib/index.js',
        'dist/lib/node.d.ts',
        'dist/browser/browser.js',
        'dist/lib/browser.d.ts',
        'dist/lib/zod-types/mini/index.d.ts',
        'dist/lib/zod-types/LICENSE',
        'dist/swagger-ui/swagger-ui-bundle.js',
        'contracts/openapi.yaml',
        'contracts/sandbox.openapi.yaml',
        'src/inspector/index.html',
        'src/inspector/inspector.js',
      ]),
    )
    expect(paths.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([])
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([])
  })

  test('brings a frontend nothing of the sandbox (no server, logger, Redis client, CLI parser or docs page packages) and no zod', () => {
    const sandboxOnly = ['express', 'cors', 'pino', '@redis/client', 'commander', 'swagger-ui-dist', 'ajv', 'yaml']
    const bundled = ['@msw/data', 'es-toolkit', '@faker-js/faker', 'zod']

    expect(installedByReadme).toContain('plant-store-mock')
    expect(installedByReadme.filter((name) => [...sandboxOnly, ...bundled].includes(name))).toEqual([])
  })

  test('installs beside the project’s own msw without a second copy of msw', async () => {
    const listed = await run('npm', ['ls', 'msw', '--all', '--parseable'], app)

    expect(listed.code).toBe(0)
    expect(listed.stdout.trim().split('\n')).toEqual([join(await realpath(app), 'node_modules', 'msw')])
  })

  test('says which Node it needs, in one line with exit code 2, when run on an older Node', async () => {
    const bin = await realpath(join(app, 'node_modules', '.bin', 'plant-store-mock'))
    const oldVersion = (await run(oldNode, ['--version'], app)).stdout.trim().replace(/^v/, '')

    const ran = await run(oldNode, [bin, '--help'], app)

    expect(oldVersion).toMatch(/^20\./)
    expect(ran).toEqual({
      code: 2,
      stdout: '',
      stderr: `plant-store-mock needs Node ${manifest.engines.node} (this is ${oldVersion})\n`,
    })
  })
})

describe('the README’s examples in a fresh project', () => {
  test('type-check with the README’s tsconfig: strict, module and moduleResolution nodenext', async () => {
    const tsconfig = JSON.parse(await readFile(join(app, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>
    }
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, module: 'nodenext', moduleResolution: 'nodenext' })

    const checked = await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', '.'], app)

    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.code).toBe(0)
  })

  test('do not type-check when the package brings its own copy of msw (the bug the peer dependency fixes)', async () => {
    const nested = join(app, 'node_modules', 'plant-store-mock', 'node_modules', 'msw')
    await cp(join(app, 'node_modules', 'msw'), nested, { recursive: true })
    try {
      const checked = await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', '.'], app)

      expect(checked.code).not.toBe(0)
      expect(checked.stdout).toContain('test/plants.test.ts')
      expect(checked.stdout).toMatch(/HttpHandler.*is not assignable/s)
    } finally {
      await rm(join(app, 'node_modules', 'plant-store-mock', 'node_modules'), { recursive: true, force: true })
    }
  })

  // The README's CI steps, in order: `npm test` runs the Node tests, the typed client and both Pact tests
  // (writing pacts/), then the sandbox verifies the pacts and the OpenAPI gate checks them.
  for (const [index, step] of readmeCiSteps().entries()) {
    test(`pass the README’s CI step ${index + 1}: ${step.run}`, async () => {
      const ran = await run('sh', ['-c', step.run], app, step.env)

      expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0)
      if (step.run === 'npm test') {
        const testFiles = readmeFiles().filter((file) => file.path.endsWith('.test.ts'))
        expect(testFiles.length).toBeGreaterThanOrEqual(4)
        for (const file of testFiles) expect(ran.stdout).toContain(basename(file.path))
        expect(ran.stdout).not.toMatch(/skipped|todo/i)
        // The coverage guide's check printed its table and wrote its report.
        expect(ran.stdout).toContain('Plant Store contract coverage:')
        expect(JSON.parse(await readFile(join(app, 'coverage', 'plant-store.json'), 'utf8'))).toMatchObject({
          covered: expect.any(Number),
        })
      }
    })
  }
})

/** The version of msw installed in the project, as npm lists it. */
async function installedMsw(): Promise<string> {
  const listed = await run('npm', ['ls', 'msw', '--json', '--depth=0'], app)
  return (JSON.parse(listed.stdout) as { dependencies: { msw: { version: string } } }).dependencies.msw.version
}

describe('the peer range of msw', () => {
  const range = manifest.peerDependencies.msw ?? ''
  // `^x.y.z`: its lowest version is x.y.z.
  const lowest = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1] ?? ''

  test('is a caret range whose newest version is what the README’s install took', async () => {
    expect(lowest).not.toBe('')
    const inRange = await run('npm', ['view', `msw@${range}`, 'version', '--json'], app)
    const versions = [JSON.parse(inRange.stdout) as string | string[]].flat()
    expect(await installedMsw()).toBe(versions.at(-1))
  })

  test('holds at its lowest version: it installs without a conflict, and the tests and the strict type check pass', async () => {
    const installed = await run('npm', [...npmInstall, '-D', `msw@${lowest}`], app)
    expect(installed.code, installed.stderr).toBe(0)
    expect(await installedMsw()).toBe(lowest)

    const checked = await run(join(app, 'node_modules', '.bin', 'tsc'), ['-p', '.'], app)
    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.code).toBe(0)

    const tested = await run('npm', ['test'], app)
    expect(tested.code, `${tested.stdout}\n${tested.stderr}`).toBe(0)
    expect(tested.stdout).not.toMatch(/skipped|todo/i)
  })
})
