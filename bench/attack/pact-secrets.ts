/**
 * Issue 35, F8: secrets in a recorded pact. A consumer run that sends an
 * unknown and an expired bearer token, `?api_key=`, and to an OAuth server
 * mocked beside the Plant Store `Authorization: Basic`, a cookie and a
 * password, recorded with `recordMswPact` (the guide's options, and the
 * OAuth server opted in): how many of those secrets the pact files hold
 * (budget 0), and whether the guide's pact still verifies against the sandbox.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastLines, runTool, type ToolAttack } from './tool-attack.ts'

const consumer = new URL('./pact-secrets-consumer.ts', import.meta.url).pathname
const cli = new URL('../../dist/sandbox/cli.js', import.meta.url).pathname

/** The pact-secrets attack. */
export function pactSecretsAttack(): ToolAttack {
  return {
    kind: 'tool',
    id: 'pact-secrets',
    name: 'secrets in a recorded pact',
    summary:
      'an unknown and an expired token, ?api_key=, Basic auth, a cookie and a password recorded by recordMswPact',
    rssBudgetMb: 350,
    budget: '0 secrets in the pact files; the pact verifies',
    timeLimitMs: 120_000,
    async run({ ceilingMb }) {
      const folder = await mkdtemp(join(tmpdir(), 'psm-pact-secrets-'))
      try {
        const guide = join(folder, 'leaky-web-plant-store.json')
        const optedIn = join(folder, 'opted-in.json')
        const recorded = await runTool([consumer, guide, optedIn], { timeLimitMs: 60_000, ceilingMb })
        if (recorded.code !== 0) throw new Error(`the consumer run failed: ${lastLines(recorded.stderr)}`)
        const secrets = JSON.parse(recorded.stdout.trim().split('\n').at(-1) ?? '[]') as string[]
        const texts = [await readFile(guide, 'utf8'), await readFile(optedIn, 'utf8')]
        const found = secrets.filter((secret) => texts.some((text) => text.includes(secret)))
        const interactions = texts.map((text) => (JSON.parse(text) as { interactions: unknown[] }).interactions.length)
        const verified = await runTool([cli, 'verify', guide], { timeLimitMs: 60_000, ceilingMb })
        return {
          peakRssMb: Math.max(recorded.peakRssMb, verified.peakRssMb),
          checks: [
            {
              ok: found.length === 0,
              text: `secrets in the pact files: ${found.length} of ${secrets.length} sent (budget 0)`,
            },
            {
              ok: verified.code === 0,
              text: `the guide's pact verifies against the sandbox (verify exit ${verified.code ?? verified.signal})`,
            },
          ],
          facts: [
            `interactions: ${interactions[0]} with the guide's options (Plant Store only), ${interactions[1]} with the OAuth server opted in`,
            ...(found.length > 0 ? [`found: ${found.join(', ')}`] : []),
          ],
        }
      } finally {
        await rm(folder, { recursive: true, force: true })
      }
    },
  }
}
