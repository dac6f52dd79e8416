/**
 * What the README's browser entry weighs before its first answer, and where
 * those bytes are (issue 41's goal: ≤ +20 kB gzipped beyond msw's
 * `setupWorker`). `plant-store-mock/browser` is built as `npm run build`
 * builds it (`browserBuild` in `rolldown.config.ts`: a build of its own, zod
 * and the mock's other parts in one chunk loaded on demand) into a temporary
 * folder, then the README's entry (`setupPlantStoreWorker().start()` behind an
 * `await import()`) is bundled from it as a page's bundler would, minified by
 * rolldown and gzipped, as `bench/frontend.ts` bundles the installed tarball.
 * It prints the figure beyond both floors, the chunks loaded only on demand,
 * and which of the package's source modules the eager part holds (each
 * eager chunk's gzipped bytes shared out by the modules' rendered lengths:
 * an estimate).
 *
 * `--without <regexp>` (repeatable) leaves the source modules whose path
 * (below the project) matches out of the package's build, as if they came
 * on demand: a lower bound of what moving them off the first answer's path
 * would give (a split chunk adds its `import` and loses gzip context).
 *
 * Run with `node bench/browser-parts.ts` (seconds; no install).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type OutputChunk } from 'rolldown'
import { browserBuild } from '../rolldown.config.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const without = process.argv.flatMap((arg, at) => (process.argv[at - 1] === '--without' ? [new RegExp(arg)] : []))

// Inside the project, so that the entries resolve msw from its node_modules (which git ignores).
const work = join(root, 'node_modules', '.cache', `psm-browser-parts-${process.pid}`)
const packageDir = join(work, 'browser')
await mkdir(work, { recursive: true })

/** The page's entries, as `bench/frontend.ts` writes them. */
const entries = {
  floor: `const { setupWorker } = await import('msw/browser')\nawait setupWorker().start()\n`,
  handler: `const [{ http, HttpResponse }, { setupWorker }] = await Promise.all([import('msw'), import('msw/browser')])
await setupWorker(http.get('/plants', () => HttpResponse.json([{ name: 'Monstera', tag: 'indoor' }, { name: 'Fern' }]))).start()\n`,
  mock: `const { setupPlantStoreWorker } = await import(${JSON.stringify(join(packageDir, 'browser.js'))})\nawait setupPlantStoreWorker().start()\n`,
}

/** The chunks an entry chunk loads before its first answer: itself, what its `import()`s name, their static imports. */
function eagerChunks(chunks: ReadonlyMap<string, OutputChunk>, first: OutputChunk, dynamic: boolean): Set<string> {
  const eager = new Set<string>()
  const visit = (fileName: string) => {
    if (eager.has(fileName) || !chunks.has(fileName)) return
    eager.add(fileName)
    for (const imported of chunks.get(fileName)!.imports) visit(imported)
  }
  for (const fileName of [first.fileName, ...(dynamic ? first.dynamicImports : [])]) visit(fileName)
  return eager
}

const gzipped = (chunk: OutputChunk) => gzipSync(chunk.code).length

/** Gzipped bytes a page's entry loads before its first answer, and those of the chunks it loads only on demand. */
async function pageBytes(code: string): Promise<{ eager: number; onDemand: Map<string, number> }> {
  const entry = join(work, 'entry.js')
  await writeFile(entry, code)
  const output = await build({
    input: entry,
    cwd: root,
    platform: 'browser',
    logLevel: 'silent',
    write: false,
    // The source modules `--without` left out of the package.
    external: /\.ts$/,
    output: { format: 'esm', minify: true },
  })
  const chunks = new Map(output.output.flatMap((chunk) => (chunk.type === 'chunk' ? [[chunk.fileName, chunk]] : [])))
  const eager = eagerChunks(chunks, [...chunks.values()].find((chunk) => chunk.isEntry)!, true)
  const onDemand = new Map([...chunks].filter(([name]) => !eager.has(name)).map(([name, c]) => [name, gzipped(c)]))
  return { eager: [...eager].reduce((sum, name) => sum + gzipped(chunks.get(name)!), 0), onDemand }
}

try {
  // The package's browser entry, as `npm run build` makes it (minus `--without`'s modules).
  const packaged = await build({
    ...browserBuild,
    cwd: root,
    external: (id, importer) => {
      if (browserBuild.external.some((peer) => peer.test(id))) return true
      const path = id.startsWith('.') && importer ? fileURLToPath(new URL(id, `file://${importer}`)) : id
      return without.some((test) => test.test(path.startsWith(root) ? path.slice(root.length) : path))
    },
    output: { ...browserBuild.output, dir: packageDir },
  })
  const [floor, handler, mock] = [
    await pageBytes(entries.floor),
    await pageBytes(entries.handler),
    await pageBytes(entries.mock),
  ]
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
  const beyond = (bytes: number) => `${bytes >= 0 ? '+' : ''}${kB(bytes)}`
  console.log(
    `The README's browser entry, gzipped, before its first answer${without.length ? ` (without ${without.join(', ')})` : ''}:\n` +
      `  beyond msw's bare setupWorker (${kB(floor.eager)}): ${beyond(mock.eager - floor.eager)}; ` +
      `beyond setupWorker with one static http.get (${kB(handler.eager)}): ${beyond(mock.eager - handler.eager)}; goal ≤ +20 kB`,
  )
  for (const [name, bytes] of mock.onDemand) console.log(`  loaded only on demand: ${name} ${kB(bytes)}`)

  // Where the package's eager bytes are: its entry chunk and the chunks that one imports.
  const library = new Map(packaged.output.flatMap((chunk) => (chunk.type === 'chunk' ? [[chunk.fileName, chunk]] : [])))
  const shares = new Map<string, number>()
  for (const name of eagerChunks(library, library.get('browser.js')!, false)) {
    const chunk = library.get(name)!
    const modules = Object.entries(chunk.modules)
    const rendered = modules.reduce((sum, [, { renderedLength }]) => sum + renderedLength, 0)
    for (const [id, { renderedLength }] of modules) {
      const path = id.startsWith(root) ? id.slice(root.length) : id
      const key = path.replace(/^node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, '$1')
      shares.set(key, (shares.get(key) ?? 0) + (gzipped(chunk) * renderedLength) / rendered)
    }
  }
  console.log('  the package’s eager chunks by module (gzipped, estimated; the largest 25):')
  for (const [module, bytes] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`    ${kB(bytes).padStart(8)}  ${module}`)
  }
} finally {
  await rm(work, { recursive: true, force: true })
}
