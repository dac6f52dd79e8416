/**
 * The bin's build (`npm run build:sandbox`): `src/cli.ts` and everything it
 * runs bundled into `dist/sandbox/`, only `@pact-foundation/pact` (an
 * optional peer of `verify`) left out, so `npx plant-store-mock` installs
 * nothing more.
 *
 * Made for the start: an ESM file costs ~0.5 ms to load however small, so
 * what a plain start runs (the CLI's quick path and the server up to its
 * first answer) is one chunk, `start-*.js`, instead of the twenty-odd shared
 * chunks rolldown would cut it into; what only other commands and later
 * requests need (commander, the admin API, Express, faker, the state file,
 * the subcommands) stays in chunks loaded on demand. Those load the start
 * chunk too when they share modules with it (the core, say).
 *
 * `PROFILE_BUILD=1` writes the same bundle unminified to
 * `dist/sandbox-profile/`, so that a CPU profile names our functions and
 * the modules they come from (`bench/profile-layers.ts`).
 */
import { defineConfig } from 'rolldown'

const profile = process.env.PROFILE_BUILD === '1'

export default defineConfig({
  input: 'src/cli.ts',
  platform: 'node',
  external: ['@pact-foundation/pact'],
  logLevel: 'warn',
  treeshake: {
    // Packages without `sideEffects: false` whose code the bin keeps only if used: `@msw/data`'s `Query` (which
    // the store's queries use) shares a module with its collections, which import mutative (19 kB at start).
    moduleSideEffects: [{ test: /node_modules[\\/](mutative|es-toolkit)[\\/]/, sideEffects: false }],
  },
  output: {
    dir: profile ? 'dist/sandbox-profile' : 'dist/sandbox',
    format: 'esm',
    cleanDir: true,
    minify: !profile,
    // Non-ASCII characters escaped: one '…' makes V8 keep a chunk's whole source as two bytes a character.
    charset: 'ascii',
    codeSplitting: {
      // The CLI's entry and the default command with every module they import statically (recursively).
      groups: [{ name: 'start', test: /src[\\/]cli[\\/](main|serve)\.ts$/ }],
    },
  },
})
