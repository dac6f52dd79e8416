/** A sandbox for one test file: a store on a clock the tests move, served over HTTP on loopback, and its client. */
import { afterAll, beforeAll } from 'vitest'
import { SandboxClient } from '../../src/client/index.ts'
import { createPlantStore } from '../../src/index.ts'
import { type CreateAppOptions, createApp } from '../../src/server/index.ts'
import { type Listening, listen } from './support.ts'

export interface SandboxFixture {
  readonly store: ReturnType<typeof createPlantStore>
  /** The sandbox's base URL, e.g. `http://127.0.0.1:41234` (once `beforeAll` ran). */
  readonly base: string
  readonly client: SandboxClient
  /** Moves the clock tokens, tenants and fault rules expire against. */
  advance(ms: number): void
}

/**
 * Serves a sandbox for the tests of the calling file (started in `beforeAll`,
 * closed in `afterAll`); its clock starts at 2026-01-01 and only moves when told.
 *
 * @example
 * const sandbox = useSandbox({ journalSize: 20 })
 * test('…', async () => { await fetch(`${sandbox.base}/plants`) })
 */
export function useSandbox(options: CreateAppOptions = {}): SandboxFixture {
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const now = () => clock
  const store = createPlantStore({ now })
  let listening: Listening | undefined
  let client: SandboxClient | undefined
  beforeAll(async () => {
    listening = await listen(createApp({ ...options, store, now }))
    client = new SandboxClient({ baseUrl: listening.base })
  })
  afterAll(() => listening?.close())
  return {
    store,
    get base() {
      if (!listening) throw new Error('The sandbox starts in beforeAll.')
      return listening.base
    },
    get client() {
      if (!client) throw new Error('The sandbox starts in beforeAll.')
      return client
    },
    advance(ms) {
      clock += ms
    },
  }
}
