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
 * Verifies these pact sources against the sandbox in a child process.
 *
 * @example
 * const { result, output } = await verifyApart([`${fixturesDir}wrong-status.json`])
 * expect(output).toContain('FAILED')
 */
export function verifyApart(pactUrls: readonly string[]): Promise<VerifiedApart> {
  const child = spawn(
    process.execPath,
    ['--conditions=plant-store-mock:source', '--input-type=module', '--eval', script, JSON.stringify(pactUrls)],
    { cwd: root, env: { ...process.env, PACT_DO_NOT_TRACK: 'true' }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] },
  )
  let output = ''
  let json = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
  })
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
  })
  // The fourth stdio entry is a pipe the child writes to: the parent reads it.
  const results = child.stdio[3] as Readable | null
  results?.setEncoding('utf8').on('data', (chunk: string) => {
    json += chunk
  })
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      if (code === 0 && json) resolve({ result: JSON.parse(json) as VerificationResult, output })
      else reject(new Error(`the verification apart exited ${code}:\n${output}`))
    })
  })
}
