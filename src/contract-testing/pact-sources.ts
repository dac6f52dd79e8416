/**
 * The pact sources a verification is given, checked before the Pact
 * Verifier runs: a path that does not exist, a folder without pact files or
 * a file that is not a pact is a set-up problem named in one sentence,
 * instead of a raw FFI error or a run that verifies nothing and passes.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** A source the Verifier fetches itself (a pact URL), not a path to check here. */
const remote = /^https?:\/\//i
/** Not-pact files named in a message; the rest are counted. */
const named = 5

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
export async function pactSourcesProblem(sources: readonly string[]): Promise<string | undefined> {
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
    const why = await notAPact(file)
    if (why) notPacts.push(`${file} (${why})`)
  }
  if (notPacts.length === 0) return undefined
  const more = notPacts.length - named
  const list = notPacts.slice(0, named).join(', ') + (more > 0 ? ` and ${more} more` : '')
  return `${notPacts.length === 1 ? 'this file is not a pact' : 'these files are not pacts'}: ${list}.`
}

/** Why a file is not a pact, or `undefined` when it is one. */
async function notAPact(file: string): Promise<string | undefined> {
  let pact: unknown
  try {
    pact = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ? `cannot be read: ${(error as Error).message}` : 'not JSON'
  }
  if (typeof pact !== 'object' || pact === null || Array.isArray(pact)) return 'not a JSON object'
  const { consumer, provider, interactions, messages } = pact as Record<string, unknown>
  const hasName = (party: unknown) => typeof (party as { name?: unknown } | null)?.name === 'string'
  if (!hasName(consumer) || !hasName(provider)) return 'no consumer and provider names'
  if (!Array.isArray(interactions) && !Array.isArray(messages)) return 'no interactions'
  return undefined
}
