/**
 * Issue 35, F8: a recorded pact carries no secret. A consumer run that sends
 * an unknown bearer token, an `?api_key=` query and, to a service mocked
 * beside the Plant Store, an OAuth call with `Authorization: Basic` and a
 * password in its body, recorded with the guide's options: the pact file
 * holds none of those strings, and the sandbox still verifies it (the
 * placeholder token gets the same 401).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HttpResponse, http } from 'msw'
import { fixtureTokens } from 'plant-store-mock'
import { PlantStoreClient } from 'plant-store-mock/client'
import { type MswRecorderOptions, recordMswPact } from 'plant-store-mock/contracts'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { verifyApart } from '../support/verify-apart.ts'

const origin = 'https://plants.test'
const authServer = 'https://auth.example.com'
const { server, store } = setupPlantStoreServer()

/** What the consumer run sends that must never reach a pact. */
const secrets = {
  unknownToken: 'psm_leaked-unknown-token-4f9a',
  apiKey: 'ak-live-3b8c1e',
  basic: Buffer.from('web-client:client-secret-77d2').toString('base64'),
  password: 'hunter2-correct-horse',
  accessToken: 'oauth-access-token-51e0',
  cookie: 'session-cookie-value-9c3d',
}

let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'psm-secrets-'))
  server.listen({ onUnhandledFrame: 'error' })
  server.use(
    // Another service the app calls, mocked beside the Plant Store: an OAuth token endpoint.
    http.post(`${authServer}/oauth/token`, () =>
      HttpResponse.json({ access_token: secrets.accessToken, token_type: 'bearer', expires_in: 3600 }),
    ),
  )
})
afterAll(async () => {
  server.close()
  await rm(folder, { recursive: true, force: true })
})

/** The consumer run: what an app with a leaky configuration sends. */
async function consumerRun(): Promise<void> {
  await fetch(`${authServer}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${secrets.basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `sid=${secrets.cookie}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username: 'ann', password: secrets.password }).toString(),
  })
  await fetch(`${authServer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: 'ann', password: secrets.password }),
  })
  const stranger = new PlantStoreClient({ baseUrl: origin, token: secrets.unknownToken })
  await stranger.listPlants().catch(() => undefined)
  const expired = new PlantStoreClient({ baseUrl: origin, token: fixtureTokens.expired })
  await expired.listPlants().catch(() => undefined)
  await fetch(`${origin}/plants?limit=2&api_key=${secrets.apiKey}`, {
    headers: { authorization: `Bearer ${fixtureTokens.acme.read}` },
  })
  await store.reset()
}

/** Records the consumer run into a pact file; answers its path and its text. */
async function recordRun(options: Partial<MswRecorderOptions> = {}): Promise<{ file: string; text: string }> {
  const recorder = recordMswPact(server, { consumer: 'leaky-web', provider: 'plant-store', ...options })
  try {
    await consumerRun()
    const file = join(folder, `leaky-web-${Object.keys(options).join('-') || 'default'}.json`)
    await writeFile(file, JSON.stringify(await recorder.pact(), null, 2))
    return { file, text: await readFile(file, 'utf8') }
  } finally {
    recorder.stop()
  }
}

function expectNoSecret(text: string): void {
  for (const secret of [...Object.values(secrets), fixtureTokens.expired]) expect(text).not.toContain(secret)
}

describe('a recorded pact carries no secret', () => {
  test('with the guide’s options: only the Plant Store’s requests, no secret, and the sandbox verifies it', async () => {
    const { file, text } = await recordRun()
    expectNoSecret(text)
    const pact = JSON.parse(text) as { interactions: Array<{ request: { path: string; query?: unknown } }> }
    expect(pact.interactions.map(({ request }) => request.path)).toEqual(['/plants', '/plants', '/plants'])
    expect(pact.interactions[2]?.request.query).toEqual({ limit: ['2'], api_key: ['redacted'] })
    expect(text).toContain('Bearer redacted-by-plant-store-mock')
    // Apart: in this process msw would answer the Verifier's requests to the sandbox.
    expect((await verifyApart([file])).result).toEqual({ ok: true, verified: 3, failures: [] })
  })

  test('a service that opts in is recorded with its credentials, cookies and password redacted', async () => {
    const { text } = await recordRun({ include: [authServer, origin] })
    expectNoSecret(text)
    const pact = JSON.parse(text) as {
      interactions: Array<{ request: { path: string; headers?: unknown; body?: { content: unknown } } }>
    }
    const [form, json] = pact.interactions
    expect(form?.request.path).toBe('/oauth/token')
    expect(form?.request.headers).toEqual({
      authorization: ['Basic redacted'],
      'content-type': ['application/x-www-form-urlencoded'],
    })
    expect(form?.request.body?.content).toBe('grant_type=password&username=ann&password=redacted')
    expect(json?.request.body?.content).toEqual({ grant_type: 'password', username: 'ann', password: 'redacted' })
    expect(pact.interactions).toHaveLength(5)
  })

  test('a cookie header kept on request is written with its values redacted', async () => {
    const { text } = await recordRun({ include: [authServer], requestHeaders: ['authorization', 'cookie'] })
    expectNoSecret(text)
    expect(text).toContain('sid=redacted')
  })
})
