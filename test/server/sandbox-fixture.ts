/** A sandbox for one test file: a store on a clock the tests move, served over HTTP on loopback, and its client. */
import { afterAll, beforeAll } from 'vitest'
import { SandboxClient } from '../../src/client/index.ts'
import { createPlantStore } from '../../src/index.ts'
import { type CreateAppOptions, createApp, startSandbox } from '../../src/server/index.ts'
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
 * closed in `afterAll`); its clock starts at 2026-01-01 and only moves when
 * told. `express` serves `createApp` (what an embedding app mounts);
 * `standalone` serves `startSandbox` (the CLI's server, with its fast path).
 *
 * @example
 * const sandbox = useSandbox({ journalSize: 20 })
 * test('…', async () => { await fetch(`${sandbox.base}/plants`) })
 */
export function useSandbox(
  options: CreateAppOptions = {},
  server: 'express' | 'standalone' = 'express',
): SandboxFixture {
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const now = () => clock
  const store = createPlantStore({ now })
  let listening: Pick<Listening, 'base' | 'close'> | undefined
  let client: SandboxClient | undefined
  beforeAll(async () => {
    if (server === 'express') listening = await listen(createApp({ ...options, store, now }))
    else {
      const running = await startSandbox({ ...options, store, now, port: 0 })
      listening = { base: running.url, close: running.close }
    }
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
