/** Helpers for the conformance tests: the sandbox's tokens, a seeded random source, the CLI spawned. */
import { type ChildProcess, execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { base, Faker } from '@faker-js/faker'
import { fixtureTokens, type PlantStore } from 'plant-store-mock'
import type { ConformanceTokens } from 'plant-store-mock/contracts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The sandbox's fixture tokens in the roles a conformance run takes: Acme's users, Globex as the other tenant. */
export const sandboxTokens = {
  readWrite: fixtureTokens.acme.write,
  readOnly: fixtureTokens.acme.read,
  foreign: fixtureTokens.globex.write,
  expired: fixtureTokens.expired,
} as const satisfies ConformanceTokens

/**
 * The CLI flags for these tokens.
 *
 * @example
 * tokenFlags(sandboxTokens) // ['--token', 'psm_acme_write', '--read-token', …]
 */
export function tokenFlags(tokens: ConformanceTokens): string[] {
  return [
    ['--token', tokens.readWrite],
    ['--read-token', tokens.readOnly],
    ['--foreign-token', tokens.foreign],
    ['--expired-token', tokens.expired],
  ].flatMap(([flag, token]) => (token === undefined ? [] : [flag as string, token]))
}

/**
 * A seeded source of numbers in [0, 1), like `Math.random`: two runs with the
 * same seed send the same ids and names.
 *
 * @example
 * runConformance({ baseUrl, tokens, random: seededRandom(7) })
 */
export function seededRandom(seed: number): () => number {
  const faker = new Faker({ locale: [base] })
  faker.seed(seed)
  return () => faker.number.float({ min: 0, max: 0.999_999 })
}

export interface SpawnedCli {
  readonly child: ChildProcess
  /** Resolves when the CLI exits, with its code and everything it wrote. */
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>
}

/**
 * Spawns `plant-store-mock <args>` (the sources, `src/cli.ts`, or a given
 * entry such as the bundle) with only the environment variables given
 * (plus PATH), and kills it after 60 s.
 *
 * @example
 * const { code, stdout } = await spawnCli(['conformance', url, '--token', token]).done
 */
export function spawnCli(
  args: readonly string[],
  options: { env?: Record<string, string>; entry?: string } = {},
): SpawnedCli {
  type Result = { code: number | null; stdout: string; stderr: string }
  let finish: (result: Result) => void = () => undefined
  const done = new Promise<Result>((resolve) => {
    finish = resolve
  })
  const child = execFile(
    process.execPath,
    [options.entry ?? 'src/cli.ts', ...args],
    { cwd: root, env: { PATH: process.env.PATH ?? '', ...options.env }, timeout: 60_000, encoding: 'utf8' },
    (_error, stdout, stderr) => finish({ code: child.exitCode, stdout, stderr }),
  )
  return { child, done }
}

/**
 * Waits until the condition holds, checking every 10 ms, for at most `ms`.
 *
 * @example
 * await until(() => provider.state().includes('conformance'))
 */
export async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition never held')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * What a conformance run must leave as it found it, as JSON: every tenant, token and plant. Not what the
 * tenants remember besides their plants (a rule with memory: the deletes of the plants the run created),
 * which only a reset forgets.
 *
 * @example
 * const before = await leftAsFound(store) // … run … expect(await leftAsFound(store)).toBe(before)
 */
export async function leftAsFound(store: PlantStore): Promise<string> {
  await store.ready
  return JSON.stringify(store.snapshot().tenants.map(({ memory: _remembered, ...tenant }) => tenant))
}
