/**
 * The library build (`npm run build`): the seven package entries bundled into
 * `dist/lib/` — one file per entry, shared chunks under `dist/lib/chunks/`,
 * source maps beside them — and a declaration bundle per entry.
 *
 * What a frontend installs is `msw` (a peer) and this package, nothing more:
 * every other runtime dependency (`@msw/data` and its `es-toolkit`, `zod`,
 * `@faker-js/faker`, `yaml`, `ajv`, `commander`, `cors`, `pino`) is bundled
 * and tree-shaken here, and their types are inlined into the declarations.
 * External stay the peers: `msw`, `express` (only `plant-store-mock/server`
 * imports it; an optional peer for embedding) and `@pact-foundation/pact`
 * (only `verify`; an optional peer), `@playwright/test` (only `plant-store-mock/playwright`; an optional
 * peer), plus Node's built-ins.
 *
 * Swagger UI's files are copied into `dist/swagger-ui/` (what the `/docs`
 * page serves), so `swagger-ui-dist` is a build-time dependency only.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { defineConfig } from 'rolldown'
import { dts } from 'rolldown-plugin-dts'

const require = createRequire(import.meta.url)

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

const input = {
  index: 'src/index.ts',
  node: 'src/node.ts',
  browser: 'src/browser.ts',
  client: 'src/client/index.ts',
  server: 'src/server/index.ts',
  contracts: 'src/contract-testing/index.ts',
  playwright: 'src/playwright.ts',
  'playwright-reporter': 'src/playwright-reporter.ts',
  vitest: 'src/vitest.ts',
  'vitest-setup': 'src/vitest-setup.ts',
}

/**
 * Packages whose types the declarations import rather than inline: the peers, `zod` (a dependency for its
 * types alone: `plantSchema` and the other exported schemas are zod schemas) and the packages whose
 * declarations are CommonJS (`export =`), which a declaration bundle cannot inline.
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

export default defineConfig([
  {
    input,
    platform: 'node',
    external: peers,
    plugins: [
      { name: 'swagger-ui-assets', writeBundle: copySwaggerUi },
      {
        // Source maps map every line, but carry the text of our own sources only: a dependency's is in its package.
        name: 'own-sources-in-maps',
        generateBundle(_options, bundle) {
          for (const file of Object.values(bundle)) {
            if (file.type !== 'asset' || !file.fileName.endsWith('.map')) continue
            const map = JSON.parse(String(file.source)) as { sources: string[]; sourcesContent?: (string | null)[] }
            map.sourcesContent = map.sources.map((source, index) =>
              source.includes('node_modules/') ? null : (map.sourcesContent?.[index] ?? null),
            )
            file.source = JSON.stringify(map)
          }
        },
      },
    ],
    output: {
      dir: 'dist/lib',
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      sourcemap: true,
      cleanDir: true,
    },
    treeshake,
    checks: quiet,
    logLevel: 'warn',
  },
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
    ],
    output: { dir: 'dist/lib', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    checks: quiet,
    logLevel: 'warn',
  },
])
