#!/usr/bin/env node
/**
 * `plant-store-mock`: serves the Plant Store sandbox. Every flag has an
 * environment variable; `--help` lists them. Bad flags exit with code 2.
 *
 * This entry stays plain enough for any Node to load (no named import that an
 * older Node lacks): on a Node older than the package's `engines` it says so
 * in one line and exits with code 2, instead of the CLI dying on a syntax or
 * link error. Then it turns on Node's on-disk compile cache (faster starts
 * after the first: ~6 ms of CPU, a tenth of a start) and runs the CLI.
 */
// The bundle inlines it (read at load from `src/`): no module resolution at start.
import packageJson from '../package.json' with { type: 'json' }

const { engines } = packageJson

if (!satisfiesMinimum(process.versions.node, engines.node)) {
  console.error(`plant-store-mock needs Node ${engines.node} (this is ${process.versions.node})`)
  process.exit(2)
}
// Through getBuiltinModule (a Node that gets here has it): the ESM faces of node:module and node:url load more.
// Beside this file: whoever can write there can change the bin anyway, so the cache trusts no one new (a shared
// folder in /tmp would run what another user left there); a rebuild empties it; where it is read-only (a global
// install) Node skips the cache. NODE_COMPILE_CACHE chooses another folder, NODE_DISABLE_COMPILE_CACHE=1 none.
const { fileURLToPath } = process.getBuiltinModule('node:url')
process.getBuiltinModule('node:module').enableCompileCache?.(fileURLToPath(new URL('.compile-cache', import.meta.url)))
const { main } = await import('./cli/main.ts')
process.exit(await main(process.argv))

/** Whether `version` (e.g. `20.20.2`) is at least the lower bound of an engines range such as `>=22.12.0`. */
function satisfiesMinimum(version: string, range: string): boolean {
  const numbers = (text: string) => (/(\d+)\.(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number)
  const [major = 0, minor = 0, patch = 0] = numbers(version)
  const [minMajor = 0, minMinor = 0, minPatch = 0] = numbers(range)
  return major !== minMajor ? major > minMajor : minor !== minMinor ? minor > minMinor : patch >= minPatch
}
