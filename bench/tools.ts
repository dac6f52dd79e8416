/**
 * The programs a bench script runs besides Node (wrk, nginx, redis-server):
 * checked before anything starts, so that a machine without one gets one
 * line naming it and exit code 2, never a stack trace from `spawn … ENOENT`.
 *
 * Run as `node bench/tools.ts <script> <tool>…` (what `npm run bench` does
 * first), or call {@link requireTools} at the top of a script.
 */
import { accessSync, constants } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where each tool is looked for: `WRK_BIN` for wrk, otherwise its name on the PATH. */
const overrides: Readonly<Record<string, string | undefined>> = { wrk: process.env.WRK_BIN }

/** How to install each tool on Debian, for the message. */
const packages: Readonly<Record<string, string>> = { wrk: 'wrk', nginx: 'nginx', 'redis-server': 'redis-server' }

/** Whether `command` (a path, or a name on the PATH) is an executable file. */
function runnable(command: string): boolean {
  const candidates = isAbsolute(command)
    ? [command]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((folder) => join(folder, command))
  return candidates.some((candidate) => {
    try {
      accessSync(candidate, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/**
 * The tools of `tools` that cannot be run here.
 *
 * @example
 * missingTools(['nginx', 'redis-server']) // [] when both are installed
 */
export function missingTools(tools: readonly string[]): string[] {
  return tools.filter((tool) => !runnable(overrides[tool] ?? tool))
}

/**
 * Exits with code 2 and one line on stderr naming the first missing tool of
 * `tools`, when one is missing; returns otherwise.
 *
 * @example
 * requireTools('npm run bench', ['wrk'])
 */
export function requireTools(script: string, tools: readonly string[]): void {
  const [missing] = missingTools(tools)
  if (missing === undefined) return
  const where = overrides[missing] ? `${overrides[missing]} (from WRK_BIN)` : `${missing} on the PATH`
  process.stderr.write(
    `${script} needs ${missing}, and there is no ${where}: install it (Debian: apt-get install ${packages[missing] ?? missing}).\n`,
  )
  process.exit(2)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [script, ...tools] = process.argv.slice(2)
  if (script === undefined || tools.length === 0) {
    process.stderr.write('usage: node bench/tools.ts <script> <tool>…\n')
    process.exit(2)
  }
  requireTools(script, tools)
}
