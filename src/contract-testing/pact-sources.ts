/**
 * The pact sources a verification is given, checked before the Pact
 * Verifier runs: a path that does not exist, a folder without pact files or
 * a file that is not a pact is a set-up problem named in one sentence,
 * instead of a raw FFI error or a run that verifies nothing and passes.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { JsonBoundsError } from '../core/bounded-json.ts'
import { maxJsonFileBytes, readJsonFile } from '../json-file.ts'

/** A source the Verifier fetches itself (a pact URL), not a path to check here. */
const remote = /^https?:\/\//i
/** Not-pact files named in a message; the rest are counted. */
const named = 5
/** The largest pact file read (64 MiB, some hundred thousand interactions): a larger one is refused unread. */
const maxPactBytes = maxJsonFileBytes

/**
 * Why these pact sources cannot be verified, or `undefined` when every local
 * one is a pact file or a folder holding pact files (URLs are left to the
 * Verifier). A folder's pact files are its `*.json` files, as the Verifier
 * reads them; a pact is a JSON object with a consumer, a provider and
 * interactions (or messages).
 *
 * @example
 * await pactSourcesProblem(['pacts/']) // 'no pact files found in pacts/ (it holds no .json file).'
 * await pactSourcesProblem(['pacts/my-app.json']) // undefined
 */
export async function pactSourcesProblem(
  sources: readonly string[],
  stateProblem?: StateProblem,
): Promise<string | undefined> {
  const files: string[] = []
  for (const source of sources) {
    if (remote.test(source)) continue
    const found = await stat(source).catch(() => undefined)
    if (!found) return `${source} does not exist.`
    if (!found.isDirectory()) {
      files.push(source)
      continue
    }
    const entries = await readdir(source, { withFileTypes: true })
    const json = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    if (json.length === 0) return `no pact files found in ${source} (it holds no .json file).`
    files.push(...json.map((entry) => join(source, entry.name)).sort())
  }
  const notPacts: string[] = []
  for (const file of files) {
    const why = await notAPact(file, stateProblem)
    if (typeof why === 'string') notPacts.push(`${file} (${why})`)
    else if (why) return `${file}: interaction "${why.interaction}": ${why.problem}`
  }
  if (notPacts.length === 0) return undefined
  const more = notPacts.length - named
  const list = notPacts.slice(0, named).join(', ') + (more > 0 ? ` and ${more} more` : '')
  return `${notPacts.length === 1 ? 'this file is not a pact' : 'these files are not pacts'}: ${list}.`
}

/**
 * Why a provider state with these parameters cannot be set up, checked
 * before the Verifier runs (see `stateProblem` in `provider-states.ts`).
 */
export type StateProblem = (state: string, params: Readonly<Record<string, unknown>> | undefined) => string | undefined

/** An interaction whose provider state cannot be set up, and why. */
interface StateRefused {
  readonly interaction: string
  readonly problem: string
}

/** Why a file is not a pact, or which of its provider states cannot be set up, or `undefined` when it is one. */
async function notAPact(
  file: string,
  stateProblem: StateProblem | undefined,
): Promise<string | StateRefused | undefined> {
  const { size } = await stat(file)
  if (size > maxPactBytes) return `${size} bytes, more than a pact is read (${maxPactBytes})`
  let pact: unknown
  try {
    pact = await readJsonFile(file, { maxBytes: maxPactBytes })
  } catch (error) {
    if (error instanceof JsonBoundsError) return error.message
    return (error as NodeJS.ErrnoException).code ? `cannot be read: ${(error as Error).message}` : 'not JSON'
  }
  if (typeof pact !== 'object' || pact === null || Array.isArray(pact)) return 'not a JSON object'
  const { consumer, provider, interactions, messages } = pact as Record<string, unknown>
  const hasName = (party: unknown) => typeof (party as { name?: unknown } | null)?.name === 'string'
  if (!hasName(consumer) || !hasName(provider)) return 'no consumer and provider names'
  if (!Array.isArray(interactions) && !Array.isArray(messages)) return 'no interactions'
  if (!stateProblem || !Array.isArray(interactions)) return undefined
  for (const interaction of interactions as unknown[]) {
    for (const { name, params } of statesOf(interaction)) {
      const problem = stateProblem(name, params)
      if (problem !== undefined) {
        const { description } = interaction as { description?: unknown }
        return { interaction: typeof description === 'string' ? description : '(unnamed)', problem }
      }
    }
  }
  return undefined
}

/** The provider states an interaction names: V3/V4 `providerStates`, or V2's one `providerState`. */
function statesOf(interaction: unknown): Array<{ name: string; params?: Readonly<Record<string, unknown>> }> {
  if (typeof interaction !== 'object' || interaction === null) return []
  const { providerStates, providerState } = interaction as { providerStates?: unknown; providerState?: unknown }
  if (typeof providerState === 'string') return [{ name: providerState }]
  if (!Array.isArray(providerStates)) return []
  return providerStates.flatMap((state: unknown) => {
    const { name, params } = (state ?? {}) as { name?: unknown; params?: unknown }
    if (typeof name !== 'string') return []
    const record = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : undefined
    return [{ name, ...(record === undefined ? {} : { params: record }) }]
  })
}
