/**
 * What a frontend team pays for the mock, measured from the PACKED tarball
 * installed into fresh projects in a temporary folder, each figure beside its
 * floor (the same thing done with msw alone) and its target:
 *  1. the install: `npm i <tarball> msw` beyond `npm i msw`, in packages and
 *     bytes on disk (issue 41's goals: ≤ +2 packages, ≤ +10 MB);
 *  2. import + `setupPlantStoreServer()` + `listen()` + one answered `fetch`,
 *     a fresh Node process each time, against msw's `setupServer` with one
 *     static handler answering the same bytes; the two alternated, medians
 *     and their spread (issue 41's goal ≤ 1.10×); and how many modules (files) that import loads, msw's
 *     included (target ≤ 120);
 *  3. a Vitest suite of 20 small test files in jsdom, six `fetch`es each,
 *     through the README's set-up, against the same suite on one static msw
 *     handler: wall time, medians of 3 alternated runs (target ≤ 1.04×);
 *  4. the README's browser entry bundled and minified (rolldown), gzipped:
 *     what the page loads before its first answer (the entry, the mock's
 *     chunk and their static imports) beyond msw's own `setupWorker` entry
 *     bundled the same way (issue 41's goal ≤ +20 kB), and beyond that entry
 *     with one static `http.get` handler answering the same body (what a page
 *     on plain msw loads: msw's `http` and `HttpResponse`); chunks loaded on
 *     demand are printed apart.
 * Run with `npm run bench:frontend` (a few minutes: it packs, installs from
 * the npm cache, and installs `vitest` and `jsdom` into both projects).
 * `--quick` takes fewer rounds and skips the Vitest suite; `--tarball <file>`
 * measures that tarball instead of packing this checkout; `--baseline <file>`
 * measures another tarball (e.g. main's) in the same run, alternated with it;
 * `--browser-only` installs the tarball and msw into one project and prints
 * the browser entry's figure alone (4.), in seconds rather than minutes;
 * `--rounds <n>` sets how many alternated rounds the start (2.) takes.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { median } from './median.ts'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const quick = process.argv.includes('--quick')
const browserOnly = process.argv.includes('--browser-only')
const roundsAt = process.argv.indexOf('--rounds')
const roundsGiven = roundsAt === -1 ? undefined : Number(process.argv[roundsAt + 1])
if (roundsGiven !== undefined && !(Number.isSafeInteger(roundsGiven) && roundsGiven >= 1)) {
  console.error(
    `bench:frontend: --rounds takes a whole number of rounds, at least 1 (got ${process.argv[roundsAt + 1]})`,
  )
  process.exit(2)
}
const manifest = (await import('../package.json', { with: { type: 'json' } })).default as {
  devDependencies: Record<string, string>
}

/** Runs a program to its end; rejects with its output when it fails. */
function run(file: string, args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
          PACT_DO_NOT_TRACK: 'true',
        },
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${file} ${args.join(' ')}:\n${stdout}${stderr}`)) : resolve(stdout),
    )
  })
}

const npmInstall = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']

function row(what: string, value: string, floor: string, target: string, met: boolean | undefined): void {
  const verdict = met === undefined ? '' : met ? ' ✓' : ' ✗ (missed)'
  console.log(`  ${what.padEnd(58)} ${value.padEnd(16)} floor ${floor.padEnd(16)} target ${target}${verdict}`)
}

/** Bytes of a folder's files (apparent size, as `du -sb`). */
async function folderBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  }
  return total
}

/** The packages installed in a project (every node_modules folder that holds a package.json). */
async function packageCount(app: string): Promise<number> {
  const listed = await run('npm', ['ls', '--all', '--parseable'], app)
  return listed.trim().split('\n').length - 1
}

/**
 * 4. The README's browser entry bundled and minified by rolldown in `app` (where the tarball and msw are
 * installed), gzipped: what the page loads before its first answer, beyond msw's own `setupWorker` entry built
 * the same way, bare (issue 41's floor) and with one static handler answering the same body (what a page on
 * plain msw loads, and the floor the Node figure is measured against).
 */
async function browserEntryFigure(app: string, label = ''): Promise<void> {
  const { build } = await import('rolldown')
  const browserEntries = {
    floor: `const { setupWorker } = await import('msw/browser')\nawait setupWorker().start()\n`,
    handler: `const [{ http, HttpResponse }, { setupWorker }] = await Promise.all([import('msw'), import('msw/browser')])
await setupWorker(http.get('/plants', () => HttpResponse.json([{ name: 'Monstera', tag: 'indoor' }, { name: 'Fern' }]))).start()\n`,
    mock: `const { setupPlantStoreWorker } = await import('plant-store-mock/browser')\nawait setupPlantStoreWorker().start()\n`,
  }
  // What the page loads before its first answer: the entry, the chunks its `await import()`s name and their
  // static imports (the first `GET /plants` of the seeded world imports nothing more); chunks imported later
  // (the mock's parts, right after the first answer; faker, for plants of another seed or count) are counted apart.
  const gzipped: Record<string, { eager: number; onDemand: number }> = {}
  for (const [name, code] of Object.entries(browserEntries)) {
    const entry = join(app, `browser-${name}.js`)
    await writeFile(entry, code)
    const output = await build({
      input: entry,
      cwd: app,
      platform: 'browser',
      logLevel: 'silent',
      write: false,
      output: { format: 'esm', minify: true },
    })
    const chunks = new Map(output.output.flatMap((chunk) => (chunk.type === 'chunk' ? [[chunk.fileName, chunk]] : [])))
    const first = [...chunks.values()].find((chunk) => chunk.isEntry)!
    const eager = new Set<string>()
    const visit = (fileName: string) => {
      if (eager.has(fileName)) return
      eager.add(fileName)
      for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported)
    }
    for (const fileName of [first.fileName, ...first.dynamicImports]) visit(fileName)
    const size = (names: string[]) =>
      names.reduce((sum, fileName) => sum + gzipSync(chunks.get(fileName)!.code).length, 0)
    gzipped[name] = {
      eager: size([...eager]),
      onDemand: size([...chunks.keys()].filter((fileName) => !eager.has(fileName))),
    }
  }
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
  if (!label)
    console.log(
      '\nThe README’s browser entry, bundled and minified (rolldown), gzipped, what the page loads before its first answer:',
    )
  const beyond = gzipped.mock!.eager - gzipped.floor!.eager
  row(
    `${label}\`plant-store-mock/browser\` with msw, beyond msw’s setupWorker`,
    `+${kb(beyond)}`,
    kb(gzipped.floor!.eager),
    '≤ +20 kB (issue 41)',
    beyond <= 20e3,
  )
  const beyondHandler = gzipped.mock!.eager - gzipped.handler!.eager
  row(
    `${label}the same, beyond setupWorker with one static \`http.get\``,
    `+${kb(beyondHandler)}`,
    kb(gzipped.handler!.eager),
    '≤ +20 kB',
    beyondHandler <= 20e3,
  )
  console.log(`  (and ${kb(gzipped.mock!.onDemand)} more in chunks loaded only on demand)`)
}

const work = await mkdtemp(join(tmpdir(), 'psm-frontend-bench-'))
try {
  console.log('Frontend bench: from the packed tarball, in fresh projects beside msw alone')

  // The tarball as npm publishes it (`prepack` builds the entries and the bin), or another one to compare.
  const given = process.argv.indexOf('--tarball')
  const tarball =
    given === -1
      ? join(
          work,
          (
            JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], projectRoot)) as {
              filename: string
            }[]
          )[0]!.filename,
        )
      : resolve(process.argv[given + 1]!)
  const tarballBytes = (await stat(tarball)).size
  // `--baseline <file>`: another tarball (e.g. main's) measured in the same run, alternated with this one.
  const baselineAt = process.argv.indexOf('--baseline')
  const baseline = baselineAt === -1 || browserOnly ? undefined : resolve(process.argv[baselineAt + 1]!)
  const baselineApp = join(work, 'with-baseline')

  const floorApp = join(work, 'msw-only')
  const mockApp = join(work, 'with-mock')
  for (const app of browserOnly ? [mockApp] : [floorApp, mockApp, ...(baseline ? [baselineApp] : [])]) {
    await mkdir(app)
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  }
  await run('npm', [...npmInstall, tarball, `msw@${manifest.devDependencies.msw}`], mockApp)
  if (browserOnly) {
    console.log(`(${tarball}: ${(tarballBytes / 1e6).toFixed(2)} MB packed; --browser-only)`)
    await browserEntryFigure(mockApp)
  } else {
    await run('npm', [...npmInstall, `msw@${manifest.devDependencies.msw}`], floorApp)
    if (baseline) await run('npm', [...npmInstall, baseline, `msw@${manifest.devDependencies.msw}`], baselineApp)

    // 1. The install.
    const [floorPackages, mockPackages] = [await packageCount(floorApp), await packageCount(mockApp)]
    const [floorBytes, mockBytes] = [
      await folderBytes(join(floorApp, 'node_modules')),
      await folderBytes(join(mockApp, 'node_modules')),
    ]
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
    console.log(`\nInstall (${tarball}: ${(tarballBytes / 1e6).toFixed(2)} MB packed):`)
    row(
      '`npm i plant-store-mock msw`: packages beyond msw alone',
      `+${mockPackages - floorPackages} (${mockPackages})`,
      `${floorPackages}`,
      '≤ +2 (issue 41)',
      mockPackages - floorPackages <= 2,
    )
    row(
      '`npm i plant-store-mock msw`: on disk beyond msw alone',
      `+${mb(mockBytes - floorBytes)}`,
      mb(floorBytes),
      '≤ +10 MB (issue 41)',
      mockBytes - floorBytes <= 10e6,
    )
    if (baseline) {
      const [packages, bytes] = [await packageCount(baselineApp), await folderBytes(join(baselineApp, 'node_modules'))]
      console.log(`  the baseline (${baseline}: ${((await stat(baseline)).size / 1e6).toFixed(2)} MB packed):`)
      row(
        '  packages beyond msw alone',
        `+${packages - floorPackages} (${packages})`,
        `${floorPackages}`,
        '≤ +2',
        packages - floorPackages <= 2,
      )
      row(
        '  on disk beyond msw alone',
        `+${mb(bytes - floorBytes)}`,
        mb(floorBytes),
        '≤ +10 MB',
        bytes - floorBytes <= 10e6,
      )
    }

    // 2. Import + set-up + first answer, fresh processes, alternated.
    const plantsUrl = 'https://api.example.com/plants?limit=2'
    // The process's own CPU time (user + system) as it ends: a steadier figure than wall time on a machine
    // that other jobs share, since waiting for a core is not counted.
    const reportCpu = `process.on('exit', () => { const { user, system } = process.cpuUsage(); process.stderr.write('cpu:' + (user + system) + '\\n') })\n`
    const floorScript = `import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
const server = setupServer(http.get('https://api.example.com/plants', () => HttpResponse.json([{ name: 'Monstera', tag: 'indoor' }, { name: 'Fern' }])))
server.listen({ onUnhandledFrame: 'error' })
const response = await fetch('${plantsUrl}', { headers: { authorization: 'Bearer psm_acme_read' } })
if ((await response.json()).length !== 2) process.exit(1)
server.close()
${reportCpu}`
    const mockScript = `import { setupPlantStoreServer } from 'plant-store-mock/node'
const { server } = setupPlantStoreServer()
server.listen({ onUnhandledFrame: 'error' })
const response = await fetch('${plantsUrl}', { headers: { authorization: 'Bearer psm_acme_read' } })
if ((await response.json()).length !== 2) process.exit(1)
server.close()
${reportCpu}`
    await writeFile(join(floorApp, 'first-answer.mjs'), floorScript)
    await writeFile(join(mockApp, 'first-answer.mjs'), mockScript)
    if (baseline) await writeFile(join(baselineApp, 'first-answer.mjs'), mockScript)
    // Counts the files Node loads (not its built-ins), printed at exit.
    const counter = join(work, 'count-modules.mjs')
    await writeFile(
      counter,
      `import { registerHooks } from 'node:module'
let count = 0
registerHooks({ load(url, context, next) { if (!url.startsWith('node:')) count++; return next(url, context) } })
process.on('exit', () => process.stderr.write('modules:' + (count - 1) + '\\n'))
`,
    )
    const once = (app: string, args: string[] = []) =>
      new Promise<{ ms: number; stderr: string }>((resolve, reject) => {
        const started = performance.now()
        const child = spawn(process.execPath, [...args, 'first-answer.mjs'], {
          cwd: app,
          stdio: ['ignore', 'ignore', 'pipe'],
        })
        let stderr = ''
        child.stderr.on('data', (chunk) => (stderr += chunk))
        child.on('exit', (code) =>
          code === 0
            ? resolve({ ms: performance.now() - started, stderr })
            : reject(new Error(`exit ${code}: ${stderr}`)),
        )
      })
    const rounds = roundsGiven ?? (quick ? 5 : 15)
    const times: Record<string, number[]> = { floor: [], mock: [], baseline: [] }
    const cpu: Record<string, number[]> = { floor: [], mock: [], baseline: [] }
    const cpuMs = (stderr: string) => Number(/cpu:(\d+)/.exec(stderr)?.[1]) / 1000
    const apps: [string, string][] = [
      ['floor', floorApp],
      ['mock', mockApp],
      ...(baseline ? [['baseline', baselineApp] as [string, string]] : []),
    ]
    for (const [, app] of apps) await once(app)
    for (let i = 0; i < rounds; i++) {
      for (const [name, app] of apps) {
        const { ms, stderr } = await once(app)
        times[name]!.push(ms)
        cpu[name]!.push(cpuMs(stderr))
      }
    }
    const modules = async (app: string) =>
      Number(/modules:(\d+)/.exec((await once(app, ['--import', counter])).stderr)?.[1])
    const [floorModules, mockModules] = [await modules(floorApp), await modules(mockApp)]
    const [floorMs, mockMs] = [median(times.floor!), median(times.mock!)]
    console.log(`\nImport + set-up + one answered fetch, fresh \`node\` processes, medians of ${rounds}, alternated:`)
    row(
      '`plant-store-mock/node`: setupPlantStoreServer() + fetch',
      `${mockMs.toFixed(0)} ms (${(mockMs / floorMs).toFixed(2)}×)`,
      `${floorMs.toFixed(0)} ms`,
      '≤ 1.10× (issue 41)',
      mockMs / floorMs <= 1.1,
    )
    const spread = (ms: number[]) => `${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)} ms`
    console.log(`  (spread: the mock ${spread(times.mock!)}, msw alone ${spread(times.floor!)})`)
    const [floorCpu, mockCpu] = [median(cpu.floor!), median(cpu.mock!)]
    row(
      'the same by the process’s CPU time (user + system)',
      `${mockCpu.toFixed(0)} ms (${(mockCpu / floorCpu).toFixed(2)}×)`,
      `${floorCpu.toFixed(0)} ms`,
      '≤ 1.10× (issue 41)',
      mockCpu / floorCpu <= 1.1,
    )
    console.log(`  (spread: the mock ${spread(cpu.mock!)}, msw alone ${spread(cpu.floor!)})`)
    // Each round's own ratio, the floor's process and the mock's run one after the other: the load a round
    // shares drops out of it, which the ratio of two medians taken over every round keeps.
    const paired = (name: string, of: Record<string, number[]>) =>
      median(of[name]!.map((value, i) => value / of.floor![i]!)).toFixed(2)
    console.log(
      `  (median of the rounds' own ratios: wall ${paired('mock', times)}×, CPU ${paired('mock', cpu)}×` +
        (baseline ? `; the baseline's: wall ${paired('baseline', times)}×, CPU ${paired('baseline', cpu)}×)` : ')'),
    )
    if (baseline) {
      const [ms, used] = [median(times.baseline!), median(cpu.baseline!)]
      console.log('  the baseline, in the same rounds:')
      row(
        '  setupPlantStoreServer() + fetch',
        `${ms.toFixed(0)} ms (${(ms / floorMs).toFixed(2)}×)`,
        `${floorMs.toFixed(0)} ms`,
        '≤ 1.10×',
        ms / floorMs <= 1.1,
      )
      console.log(`    (spread: ${spread(times.baseline!)})`)
      row(
        '  by CPU time',
        `${used.toFixed(0)} ms (${(used / floorCpu).toFixed(2)}×)`,
        `${floorCpu.toFixed(0)} ms`,
        '≤ 1.10×',
        used / floorCpu <= 1.1,
      )
      console.log(`    (spread: ${spread(cpu.baseline!)})`)
    }
    row(
      'modules (files) that run loads, msw’s included',
      String(mockModules),
      String(floorModules),
      '≤ 120',
      mockModules <= 120,
    )
    if (baseline) console.log(`  (the baseline: ${await modules(baselineApp)})`)

    await browserEntryFigure(mockApp)
    if (baseline) await browserEntryFigure(baselineApp, 'the baseline: ')

    // 3. Twenty small Vitest files in jsdom: the README's set-up against one static handler.
    if (!quick) {
      const tooling = [`vitest@${manifest.devDependencies.vitest}`, 'jsdom']
      const installed = await Promise.all(
        [floorApp, mockApp].map((app) =>
          run('npm', [...npmInstall, '-D', ...tooling], app).then(
            () => true,
            () => false,
          ),
        ),
      )
      if (installed.includes(false)) {
        console.error(
          'bench:frontend: cannot install vitest and jsdom into the temporary projects (npm registry or cache needed)',
        )
        process.exitCode = 2
        throw new Error('skipped')
      }
      const setups = {
        floor: `import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
export const server = setupServer(http.get('https://api.example.com/plants', () => HttpResponse.json([{ name: 'Monstera', tag: 'indoor' }, { name: 'Fern' }])))
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
`,
        mock: `import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
export const { server, store } = setupPlantStoreServer()
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(async () => {
  server.resetHandlers()
  await store.reset()
})
afterAll(() => server.close())
`,
      }
      const testFile = `import { expect, test } from 'vitest'
import './setup.js'
for (let i = 1; i <= 6; i++) {
  test('lists two plants, ' + i, async () => {
    const response = await fetch('${plantsUrl}', { headers: { authorization: 'Bearer psm_acme_read' } })
    expect(await response.json()).toHaveLength(2)
  })
}
`
      for (const [name, app] of [
        ['floor', floorApp],
        ['mock', mockApp],
      ] as const) {
        await mkdir(join(app, 'test'))
        await writeFile(join(app, 'test', 'setup.ts'), setups[name])
        for (let i = 1; i <= 20; i++) await writeFile(join(app, 'test', `plants-${i}.test.ts`), testFile)
        await writeFile(join(app, 'vitest.config.mjs'), `export default { test: { environment: 'jsdom' } }\n`)
      }
      const suite = async (app: string) => {
        const started = performance.now()
        await run(join(app, 'node_modules', '.bin', 'vitest'), ['run'], app)
        return performance.now() - started
      }
      await suite(floorApp)
      await suite(mockApp)
      const suites = { floor: [] as number[], mock: [] as number[] }
      for (let i = 0; i < 3; i++) {
        suites.floor.push(await suite(floorApp))
        suites.mock.push(await suite(mockApp))
      }
      const [floorSuite, mockSuite] = [median(suites.floor), median(suites.mock)]
      console.log('\n20 Vitest files in jsdom, 120 fetches, `vitest run` wall time, medians of 3, alternated:')
      row(
        'the README’s set-up (setupPlantStoreServer, store.reset)',
        `${(mockSuite / 1000).toFixed(1)} s (${(mockSuite / floorSuite).toFixed(2)}×)`,
        `${(floorSuite / 1000).toFixed(1)} s`,
        '≤ 1.04×',
        mockSuite / floorSuite <= 1.04,
      )
    }
  }
} catch (error) {
  if (process.exitCode !== 2) throw error
} finally {
  await rm(work, { recursive: true, force: true })
}
