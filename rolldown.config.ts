/**
 * The library build (`npm run build`): the package's entries bundled into
 * `dist/lib/` by two builds, the frontend's and the sandbox's and CI tools'
 * (see {@link builds}) — one file per entry, shared chunks under
 * `dist/lib/chunks/` and `dist/lib/chunks/tools/`, no source maps (they were a
 * quarter of the install) — and a declaration bundle per entry.
 *
 * What a frontend installs is `msw` (a peer) and this package, nothing more:
 * every other runtime dependency (`@msw/data` and its `es-toolkit`, `zod`,
 * `@faker-js/faker`, `yaml`, `ajv`, `commander`, `cors`, `pino`) is bundled
 * and tree-shaken here, and their types are inlined into the declarations
 * (zod's are shipped beside them, see `zodTypes`, so zod is not installed
 * with the package: its 6 MB were most of what a frontend paid on disk).
 * External stay the peers: `msw`, `express` (only `plant-store-mock/server`
 * imports it; an optional peer for embedding) and `@pact-foundation/pact`
 * (only `verify`; an optional peer), `@playwright/test` (only `plant-store-mock/playwright`; an optional
 * peer), plus Node's built-ins.
 *
 * Swagger UI's files are copied into `dist/swagger-ui/` (what the `/docs`
 * page serves), so `swagger-ui-dist` is a build-time dependency only.
 */
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { defineConfig } from 'rolldown'
import { dts } from 'rolldown-plugin-dts'

const require = createRequire(import.meta.url)

/**
 * zod's own declarations, unchanged, for the exported schemas' types (`plantSchema` and the others are zod/mini
 * schemas): zod/mini's and the core's and locales' they import, 230 kB, copied into `dist/lib/zod-types/` with
 * zod's licence, and the declarations' `zod/mini` and `zod/v4/core` imports pointed there. So `npm i
 * plant-store-mock` does not install zod (6 MB, most of it sources and builds the package never runs: the code
 * that runs is the bundled copy). Inlining them into the declaration bundle instead renames zod's types, and a
 * strict check (`skipLibCheck: false`) then fails zod's variance annotations.
 */
const zodTypes = {
  folders: ['mini', 'v4/mini', 'v4/core', 'v4/locales'],
  into: 'zod-types',
  copy(): void {
    const from = dirname(require.resolve('zod/package.json'))
    const to = join(import.meta.dirname, 'dist', 'lib', zodTypes.into)
    rmSync(to, { recursive: true, force: true })
    for (const folder of zodTypes.folders) {
      mkdirSync(join(to, folder), { recursive: true })
      for (const file of readdirSync(join(from, folder)).filter((name) => name.endsWith('.d.ts')))
        cpSync(join(from, folder, file), join(to, folder, file))
    }
    cpSync(join(from, 'LICENSE'), join(to, 'LICENSE'))
  },
  /** A declaration file's `from "zod/…"` pointed at the copy, relative to where the file is written. */
  point(code: string, fileName: string): string {
    const up = '../'.repeat(fileName.split('/').length - 1) || './'
    return code.replace(/from "zod\/(mini|v4\/core)"/g, (_, path: string) => `from "${up}${zodTypes.into}/${path}/index.js"`)
  },
}

/** The peers: imported from the consumer's own copy, never bundled. */
const peers = [/^vitest(\/|$)/, /^msw(\/|$)/, /^express(\/|$)/, /^@pact-foundation\/pact(\/|$)/, /^@playwright\/test(\/|$)/, /^node:/]

/** The Swagger UI files the docs page needs (its HTML, script, preset, styles, icons) and their licences. */
const swaggerUiFiles = [
  'index.html',
  'index.css',
  'favicon-16x16.png',
  'favicon-32x32.png',
  'oauth2-redirect.html',
  'oauth2-redirect.js',
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt',
  'swagger-ui-standalone-preset.js',
  'swagger-ui-standalone-preset.js.LICENSE.txt',
  'swagger-ui.css',
  'LICENSE',
  'NOTICE',
  'package.json',
]

function copySwaggerUi(): void {
  const from = dirname(require.resolve('swagger-ui-dist/package.json'))
  const to = join(import.meta.dirname, 'dist', 'swagger-ui')
  rmSync(to, { recursive: true, force: true })
  mkdirSync(to, { recursive: true })
  for (const file of swaggerUiFiles) cpSync(join(from, file), join(to, file))
}

/**
 * The package's entries, in two JavaScript builds. What a frontend's tests and pages import (`.`, `./node`,
 * `./browser`, the client, the Playwright fixtures, the Vitest setup file) is built apart from what only the
 * sandbox and the CI tools import (`./server`, `./contracts`, the suite-coverage reporters, which run in the
 * test runner's own process): one build holds one copy of each bundled package, and tree-shaking keeps in it
 * whatever ANY of its entries uses, so in one build `./node`'s path carried ~50 kB of `zod/v4/core` that only
 * the sandbox's and the contract tools' schemas use (docs/maintainers/performance.md, "The browser entry").
 *
 * The price is two copies of the modules both builds bundle. Nothing relies on their identity but what two
 * entries share at run time, and those two are shared through `Symbol.for` keys instead: `PlantStoreError`'s
 * `instanceof` (src/core/errors.ts) and the handlers' store registry that `recordMswPact` reads
 * (src/msw/handlers.ts). `test/consumer/contracts-without-pact.test.ts` proves both from the packed tarball.
 * The declarations stay one bundle (below): a type has one declaration whichever entry names it.
 *
 * Each build writes its entries into `dist/lib/` and its shared chunks into a folder of its own.
 */
const builds = {
  frontend: {
    input: {
      index: 'src/index.ts',
      node: 'src/node.ts',
      browser: 'src/browser.ts',
      client: 'src/client/index.ts',
      playwright: 'src/playwright.ts',
      'vitest-setup': 'src/vitest-setup.ts',
    },
    chunks: 'chunks',
  },
  tools: {
    input: {
      server: 'src/server/index.ts',
      contracts: 'src/contract-testing/index.ts',
      'playwright-reporter': 'src/playwright-reporter.ts',
      vitest: 'src/vitest.ts',
    },
    chunks: 'chunks/tools',
  },
} as const

/** Every entry, for the declarations. */
const input = { ...builds.frontend.input, ...builds.tools.input }

/**
 * Packages whose types the declarations import rather than inline: the peers, `zod` (its declarations are
 * shipped as they are: see {@link zodTypes}) and the packages whose declarations are CommonJS (`export =`),
 * which a declaration bundle cannot inline.
 */
const typeExternals = [...peers, /^zod(\/|$)/, /^cors$/, /^pino$/, /^ajv(\/|$)/]

/**
 * Not warned about: the entries re-export what some modules also load lazily (the dynamic import then stays
 * in the entry's chunk, as intended), and the declaration plugin's time.
 */
const quiet = { ineffectiveDynamicImport: false, bundlerTimings: false }

/**
 * `mutative` declares no `sideEffects`, so a bundler keeps all of it (~19 kB minified, ~6 kB gzipped) once `@msw/data` is in,
 * though only `@msw/data`'s `Collection` calls it and the package uses its `Query` alone. Its top level only
 * builds its own objects (proxy handlers, `create`), so it may go wherever nothing of it is used.
 */
const treeshake = { moduleSideEffects: [{ test: /[\\/]node_modules[\\/]mutative[\\/]/, sideEffects: false }] }

/**
 * The browser entry's one seam (issue 41): `src/core/zod.ts` replaced by `src/browser/zod-on-demand.ts`, so
 * that zod comes in the chunk of the parts a page loads on demand (`src/browser/parts.ts`) and the first
 * answer loads none of it. A rolldown (and Vite, Rollup) plugin: the browser tests build their pages with it.
 */
export const zodOnDemand = {
  name: 'zod-on-demand',
  resolveId: {
    order: 'pre' as const,
    handler(id: string, importer: string | undefined): string | null {
      if (importer === undefined || !id.endsWith('zod.ts')) return null
      const path = resolve(dirname(importer), id)
      return path === join(import.meta.dirname, 'src', 'core', 'zod.ts')
        ? join(import.meta.dirname, 'src', 'browser', 'zod-on-demand.ts')
        : null
    },
  },
}

/**
 * `plant-store-mock/browser`, built on its own into `dist/browser/` for the browser, with zod on demand
 * ({@link zodOnDemand}): what a page loads before its first answer is the store, the core and msw's adapter;
 * zod, the fault rules, the journal, the coverage and the stored world come in one chunk after it. Its
 * classes are its own copies (a page imports from this entry alone; `PlantStoreError` is exported here).
 */
export const browserBuild = {
  input: { browser: input.browser },
  platform: 'browser' as const,
  external: peers,
  plugins: [zodOnDemand],
  output: {
    dir: 'dist/browser',
    format: 'esm' as const,
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    cleanDir: true,
    // Everything the entry loads at once in one chunk, which the parts' chunk imports from, so that a page's
    // bundler keeps it with msw in one chunk too (a common chunk apart gzips ~0.9 kB worse).
    codeSplitting: { groups: [{ name: 'page', tags: ['$initial' as const] }] },
  },
  treeshake,
  checks: quiet,
  logLevel: 'warn' as const,
}

/**
 * Bytes that Node reads at import and nothing runs: our JSDoc (the declarations carry it) is left out of the
 * JavaScript, the licence comments kept; and non-ASCII characters are escaped, since one `…` in a comment or a
 * string makes V8 hold the whole chunk's source two bytes a character. Names and lines stay readable (not
 * minified: the package ships no source maps, so a stack trace reads the code as it is).
 */
const lean = { comments: { legal: true, annotation: true, jsdoc: false }, charset: 'ascii' } as const

/** The entries each build makes for Node: the browser entry is {@link browserBuild}'s (its declarations are built with the rest). */
const nodeBuilds = Object.values(builds).map(({ input, chunks }) => ({
  input: Object.fromEntries(Object.entries(input).filter(([name]) => name !== 'browser')),
  chunks,
}))

export default defineConfig([
  browserBuild,
  ...nodeBuilds.map(({ input, chunks }, index) => ({
    input,
    platform: 'node' as const,
    external: peers,
    // The Swagger UI files once, with the first build, which also empties `dist/lib/` (the builds run in order).
    plugins: index === 0 ? [{ name: 'swagger-ui-assets', writeBundle: copySwaggerUi }] : [],
    output: {
      dir: 'dist/lib',
      format: 'esm' as const,
      entryFileNames: '[name].js',
      chunkFileNames: `${chunks}/[name]-[hash].js`,
      cleanDir: index === 0,
      ...lean,
    },
    treeshake,
    checks: quiet,
    logLevel: 'warn' as const,
  })),
  {
    input,
    platform: 'node',
    external: typeExternals,
    plugins: [
      // mutative's `exports` name an ESM declaration file its package does not ship; its `types` file is the one.
      {
        name: 'mutative-types',
        resolveId: {
          order: 'pre',
          handler: (id) =>
            id === 'mutative' ? join(dirname(require.resolve('mutative/package.json')), 'dist', 'index.d.ts') : null,
        },
      },
      dts({ tsconfig: 'src/tsconfig.build.json', emitDtsOnly: true, sourcemap: false }),
      {
        name: 'zod-types',
        generateBundle(_options, bundle) {
          for (const file of Object.values(bundle)) {
            if (!file.fileName.endsWith('.d.ts')) continue
            if (file.type === 'chunk') file.code = zodTypes.point(file.code, file.fileName)
            else file.source = zodTypes.point(String(file.source), file.fileName)
          }
        },
        writeBundle: zodTypes.copy,
      },
    ],
    output: { dir: 'dist/lib', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    checks: quiet,
    logLevel: 'warn',
  },
])
