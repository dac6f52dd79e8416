/**
 * `verifySandbox` in a child process, for the negative cases: the Pact
 * Verifier writes its report (the "FAILED" lines, "Verification
 * unsuccessful") straight to the process's standard output from native
 * code, where a test cannot catch it. Run apart, that output is captured
 * and asserted on, and a passing suite prints no failure that is expected.
 */
import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { VerificationResult } from 'plant-store-mock/contracts'

const root = fileURLToPath(new URL('../../..', import.meta.url))

/** Imports the package as its sources, verifies, and writes the result as JSON to file descriptor 3. */
const script = `
import { writeSync } from 'node:fs'
import { verifySandbox } from 'plant-store-mock/contracts'
const result = await verifySandbox({ pactUrls: JSON.parse(process.argv[1]) })
writeSync(3, JSON.stringify(result))
`

/** What a verification run apart returned and wrote. */
export interface VerifiedApart {
  readonly result: VerificationResult
  /** Everything the Verifier wrote to standard output and standard error. */
  readonly output: string
}

/**
 * The independent Plant Store with the provider team's state handlers, in
 * a child process: writes the Verifier's JSON report to file descriptor 3.
 */
const independentScript = `
import { writeSync } from 'node:fs'
import { Verifier } from '@pact-foundation/pact'
const { startIndependentProvider } = await import(process.argv[2])
const { plantStoreStates } = await import(process.argv[3])
const provider = await startIndependentProvider()
const report = await new Verifier({
  provider: 'plant-store',
  providerBaseUrl: provider.url,
  pactUrls: JSON.parse(process.argv[1]),
  logLevel: 'error',
  stateHandlers: plantStoreStates(provider.data),
}).verifyProvider().then(String, (error) => error.message)
await provider.close()
writeSync(3, report)
`

/** The outcome of each interaction, as the Verifier reports it, when verified apart against the independent provider. */
export interface IndependentOutcome {
  /** `OK` or `Error` per interaction, in the pact's order. */
  readonly results: readonly string[]
  readonly output: string
}

/**
 * Verifies these pact sources against the independent Plant Store
 * (`test/support/independent-provider.ts`) with the provider team's state handlers, in a
 * child process, so that the failures a test expects are not printed.
 *
 * @example
 * const { results } = await verifyIndependentApart([file]) // ['Error', 'Error', …]
 */
export async function verifyIndependentApart(pactUrls: readonly string[]): Promise<IndependentOutcome> {
  const here = (name: string) => new URL(name, import.meta.url).href
  const { text, output } = await runApart(independentScript, [
    JSON.stringify(pactUrls),
    here('../../support/independent-provider.ts'),
    here('./provider-team-states.ts'),
  ])
  const report = JSON.parse(text) as { interactionResults: Array<{ result: string }> }
  return { results: report.interactionResults.map(({ result }) => result), output }
}

/**
 * Verifies these pact sources against the sandbox in a child process.
 *
 * @example
 * const { result, output } = await verifyApart([`${fixturesDir}wrong-status.json`])
 * expect(output).toContain('FAILED')
 */
export async function verifyApart(pactUrls: readonly string[]): Promise<VerifiedApart> {
  const { text, output } = await runApart(script, [JSON.stringify(pactUrls)])
  return { result: JSON.parse(text) as VerificationResult, output }
}

/** Runs a module script in a child process; answers what it wrote to file descriptor 3, and its output. */
function runApart(source: string, args: readonly string[]): Promise<{ text: string; output: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=plant-store-mock:source', '--no-deprecation', '--input-type=module', '--eval', source, ...args],
    { cwd: root, env: { ...process.env, PACT_DO_NOT_TRACK: 'true' }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] },
  )
  let output = ''
  let text = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
  })
  // The fourth stdio entry is a pipe the child writes to: the parent reads it.
  const results = child.stdio[3] as Readable | null
  results?.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk
  })
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      if (code === 0 && text) resolve({ text, output })
      else reject(new Error(`the verification apart exited ${code}:\n${output}`))
    })
  })
}
