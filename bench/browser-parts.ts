/**
 * What each part of the mock weighs in the README's browser entry, and what
 * the entry would weigh if parts of it loaded on demand (issue 41's goal:
 * ≤ +20 kB gzipped beyond msw's `setupWorker`). The entry
 * (`setupPlantStoreWorker().start()` behind an `await import()`) is bundled
 * from the sources and minified by rolldown, gzipped, as `bench/frontend.ts`
 * bundles the packed one, first whole, then with groups of modules left out
 * (made external), one more group each line: what the page would load before
 * its first answer if those modules came in chunks of their own later. Leaving
 * a module out drops its code but not the `import` a lazy chunk would add nor
 * the gzip context split chunks lose, so each line is a lower bound: a lazy
 * chunk costs a few hundred bytes more (a fault engine split out alone saved
 * nothing, its shared code going into a new eager chunk).
 *
 * Run with `node bench/browser-parts.ts` (seconds; no install).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'rolldown'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Source modules by part, as paths below the project's root. */
const parts: [name: string, test: RegExp][] = [
  ['zod/mini and its English messages', /^node_modules\/zod\//],
  ['the stored world (persist)', /^src\/browser\/stored-world\.ts$/],
  [
    'fault rules (rules, engine, made-up answers, held delays)',
    /^src\/(faults\/|core\/(made-up-answers|held-requests)\.ts$)/,
  ],
  ['coverage (tally, report, table)', /^src\/(core\/coverage|coverage-report|generated\/contract-answers)\.ts$/],
  [
    'the request journal (record, query, redaction, patterns)',
    /^src\/(core\/(journal|journal-query|redaction|request-pattern)|plant-store-requests|client\/request-filter)\.ts$/,
  ],
]

/** The page's entries, as `bench/frontend.ts` writes them. */
const entries = {
  floor: `const { setupWorker } = await import('msw/browser')\nawait setupWorker().start()\n`,
  handler: `const [{ http, HttpResponse }, { setupWorker }] = await Promise.all([import('msw'), import('msw/browser')])
await setupWorker(http.get('/plants', () => HttpResponse.json([{ name: 'Monstera', tag: 'indoor' }, { name: 'Fern' }]))).start()\n`,
  mock: `const { setupPlantStoreWorker } = await import(${JSON.stringify(join(root, 'src/browser.ts'))})\nawait setupPlantStoreWorker().start()\n`,
}

// Inside the project, so that the entries resolve msw from its node_modules (which git ignores).
const work = join(root, 'node_modules', '.cache', `psm-browser-parts-${process.pid}`)
await mkdir(work, { recursive: true })

/** Gzipped bytes the entry loads before its first answer (chunks loaded only on demand, faker, left out), without `left`. */
async function eagerBytes(code: string, left: readonly RegExp[] = []): Promise<number> {
  const entry = join(work, 'entry.js')
  await writeFile(entry, code)
  const output = await build({
    input: entry,
    cwd: root,
    platform: 'browser',
    logLevel: 'silent',
    write: false,
    external: (id, importer) => {
      const path = id.startsWith('.') && importer ? fileURLToPath(new URL(id, `file://${importer}`)) : id
      const relative = path.startsWith(root) ? path.slice(root.length) : path
      return left.some((test) => test.test(relative) || (!path.startsWith('/') && test.test(`node_modules/${id}/`)))
    },
    // As rolldown.config.ts: mutative, which @msw/data's `Collection` alone uses, goes when unused.
    treeshake: { moduleSideEffects: [{ test: /[\\/]node_modules[\\/]mutative[\\/]/, sideEffects: false }] },
    output: { format: 'esm', minify: true },
  })
  const chunks = new Map(output.output.flatMap((chunk) => (chunk.type === 'chunk' ? [[chunk.fileName, chunk]] : [])))
  const first = [...chunks.values()].find((chunk) => chunk.isEntry)!
  const eager = new Set<string>()
  const visit = (fileName: string) => {
    if (eager.has(fileName) || !chunks.has(fileName)) return
    eager.add(fileName)
    for (const imported of chunks.get(fileName)!.imports) visit(imported)
  }
  for (const fileName of [first.fileName, ...first.dynamicImports]) visit(fileName)
  return [...eager].reduce((sum, fileName) => sum + gzipSync(chunks.get(fileName)!.code).length, 0)
}

try {
  const [floor, handler] = [await eagerBytes(entries.floor), await eagerBytes(entries.handler)]
  const kb = (bytes: number) => `${bytes >= 0 ? '+' : ''}${(bytes / 1000).toFixed(1)} kB`
  console.log(
    `The README's browser entry from the sources, gzipped, beyond msw's setupWorker (${(floor / 1000).toFixed(1)} kB)` +
      ` and beyond it with one static http.get (${(handler / 1000).toFixed(1)} kB); goal ≤ +20 kB:`,
  )
  const line = (what: string, bytes: number) =>
    console.log(`  ${what.padEnd(74)} ${kb(bytes - floor).padStart(9)} ${kb(bytes - handler).padStart(9)}`)
  line('as it is', await eagerBytes(entries.mock))
  const left: RegExp[] = []
  for (const [name, test] of parts) {
    left.push(test)
    line(`without ${left.length > 1 ? '… and ' : ''}${name}`, await eagerBytes(entries.mock, left))
  }
  const withoutZod = parts.slice(1).map(([, test]) => test)
  line('all of those but zod', await eagerBytes(entries.mock, withoutZod))
} finally {
  await rm(work, { recursive: true, force: true })
}
