/**
 * `plant-store-mock coverage <pact files or folders> [--json] [--min <percent>]`:
 * which of the contract's declared answers the interactions of pacts cover,
 * so that a Pact pipeline can require that a consumer's contract covers the
 * error answers it handles. Exit codes: 0 covered at least `--min`, 1 below
 * it, 2 for a usage problem (no pact files, a missing path, a file that is
 * not a pact).
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Command, InvalidArgumentError } from 'commander'
import { matchRoute } from '../core/core.ts'
import { type CoverageReport, CoverageTally } from '../core/coverage.ts'
import type { CoreResponse } from '../core/http.ts'
import { coverageShortfalls, coverageTable } from '../coverage-report.ts'

const name = 'plant-store-mock coverage'

interface CoverageFlags {
  json?: boolean
  min?: number
}

/** A usage problem: said in one line, exit 2. */
class UsageError extends Error {}

function percent(value: string): number {
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 100) {
    throw new InvalidArgumentError('must be a percentage from 0 to 100.')
  }
  return number
}

/** The pact files a path names: the file itself, or the `.json` files of a folder (sorted, not recursive). */
async function pactFiles(path: string): Promise<string[]> {
  const found = await stat(path).catch(() => undefined)
  if (!found) throw new UsageError(`no such file or folder: ${path}`)
  if (!found.isDirectory()) return [path]
  const files = (await readdir(path)).filter((file) => file.endsWith('.json')).sort()
  if (files.length === 0) throw new UsageError(`no pact files (*.json) in the folder ${path}`)
  return files.map((file) => join(path, file))
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A pact's headers as the core writes them: lower-case names, one string each (V4 lists values). */
function headersOf(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {}
  if (!isObject(value)) return headers
  for (const [header, text] of Object.entries(value)) {
    headers[header.toLowerCase()] = Array.isArray(text) ? text.join(', ') : String(text)
  }
  return headers
}

/** A pact's response body as text: V4 wraps it as `{ content, contentType, encoded }`, V2 and V3 give it as it is. */
function bodyOf(value: unknown): string | null {
  const content =
    isObject(value) && 'content' in value && ('contentType' in value || 'encoded' in value) ? value.content : value
  if (content === undefined || content === null) return null
  return typeof content === 'string' ? content : JSON.stringify(content)
}

/**
 * Counts the HTTP interactions of one pact file into the tally; answers how
 * many it counted. A file that is not JSON, or not a pact, is a usage problem.
 */
async function countPact(file: string, tally: CoverageTally): Promise<number> {
  let pact: unknown
  try {
    pact = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new UsageError(`${file} is not a JSON file (${(error as Error).message})`)
  }
  if (!isObject(pact) || !Array.isArray(pact.interactions)) {
    throw new UsageError(`${file} is not a pact file: it has no "interactions" list`)
  }
  let counted = 0
  for (const [index, interaction] of pact.interactions.entries()) {
    // V4 pacts may hold message interactions too: only HTTP ones answer the contract's requests.
    if (isObject(interaction) && typeof interaction.type === 'string' && interaction.type !== 'Synchronous/HTTP')
      continue
    const request = isObject(interaction) ? interaction.request : undefined
    const response = isObject(interaction) ? interaction.response : undefined
    if (
      !isObject(request) ||
      typeof request.method !== 'string' ||
      typeof request.path !== 'string' ||
      !isObject(response) ||
      typeof response.status !== 'number'
    ) {
      throw new UsageError(
        `${file} is not a pact file: interaction ${index + 1} lacks a request method and path or a response status`,
      )
    }
    const method = request.method.toUpperCase()
    const operation = matchRoute(request.path.split('?')[0] ?? '')?.route.methods.get(method)
    const answer: CoreResponse = {
      status: response.status,
      headers: headersOf(response.headers),
      body: bodyOf(response.body),
    }
    const sent = headersOf(request.headers)
    tally.record(operation, { method, header: (header) => sent[header] ?? null }, answer)
    counted++
  }
  return counted
}

/**
 * The contract coverage of the HTTP interactions in these pact files and
 * folders: each interaction's request is routed as the core routes it, its
 * response status counted against the statuses the operation declares (and
 * a 400's, 401's or 403's cause read from its headers and Error message, as
 * for live answers). Rejects with a usage problem for a missing path, a
 * folder without pact files, or a file that is not a pact.
 *
 * @example
 * const { report, interactions } = await pactCoverage(['contracts/pacts'])
 */
export async function pactCoverage(
  paths: readonly string[],
): Promise<{ report: CoverageReport; files: number; interactions: number }> {
  const files = (await Promise.all(paths.map(pactFiles))).flat()
  const tally = new CoverageTally()
  let interactions = 0
  for (const file of files) interactions += await countPact(file, tally)
  return { report: tally.report(), files: files.length, interactions }
}

/**
 * The `coverage` command (commander). Prints the report as a table (or JSON
 * with `--json`) and ends with exit code 1 when it is below `--min`, 2 for
 * usage problems, through commander's `error()`.
 *
 * @example
 * program.addCommand(coverageCommand())
 * // plant-store-mock coverage contracts/pacts --min 60
 */
export function coverageCommand(): Command {
  const command = new Command('coverage')
    .description(
      "Report which of the contract's declared answers (operation × status) the interactions of pacts cover.",
    )
    .argument('[pacts...]', 'pact files, or folders of pact files (*.json)')
    .option('--json', 'print the report as JSON (the shape of GET /__sandbox/coverage)')
    .option('--min <percent>', 'exit 1 when less than this percentage of the declared answers is covered', percent)
    .addHelpText('after', '\nExit codes: 0 covered at least --min, 1 below --min, 2 usage error.')
    .action(async (pacts: string[], flags: CoverageFlags) => {
      if (pacts.length === 0)
        return command.error(`${name}: give pact files or folders of pact files.`, { exitCode: 2 })
      let result: Awaited<ReturnType<typeof pactCoverage>>
      try {
        result = await pactCoverage(pacts)
      } catch (error) {
        if (!(error instanceof UsageError)) throw error
        return command.error(`${name}: ${error.message}.`, { exitCode: 2, code: 'plant-store-mock.usage' })
      }
      const { report, files, interactions } = result
      const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
      process.stdout.write(
        flags.json
          ? `${JSON.stringify(report, null, 2)}\n`
          : `${plural(interactions, 'HTTP interaction')} in ${plural(files, 'pact file')}.\n${coverageTable(report)}\n`,
      )
      const [shortfall] = coverageShortfalls(report, { min: flags.min })
      if (shortfall) command.error(`${name}: ${shortfall}`, { exitCode: 1, code: 'plant-store-mock.belowMinimum' })
    })
  return command
}
