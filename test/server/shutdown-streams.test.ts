/** Stopping the sandbox ends its live inspector streams at once (issue 44, 5): none holds the stop until it is cut. */
import { expect, test } from 'vitest'
import { createPlantStore, fixtureTokens } from '../../src/index.ts'
import { startSandbox } from '../../src/server/index.ts'
import { openEventStream } from './event-stream.ts'

test('on close every open stream ends with a released event, and close resolves without waiting for the shutdown timeout', async () => {
  // A shutdown timeout far past the test's own: a stream left open would hold close() until the test fails.
  const sandbox = await startSandbox({ store: createPlantStore(), port: 0, shutdownTimeoutMs: 600_000 })
  const streams = await Promise.all(
    [fixtureTokens.acme.read, fixtureTokens.acme.write, fixtureTokens.globex.read].map((token) =>
      openEventStream(sandbox.url, token),
    ),
  )
  for (const stream of streams) await stream.until((event) => event.name === 'hello')

  await sandbox.close()

  for (const stream of streams) {
    const released = await stream.until((event) => event.name === 'released')
    expect(released.data).toEqual({ tenant: expect.stringMatching(/^(acme|globex)$/) })
    await stream.close()
    expect(stream.ended).toBe(true)
  }
}, 30_000)
