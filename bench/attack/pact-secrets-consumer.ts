/**
 * The consumer run of the pact-secrets attack, in a process of its own:
 * an app with a leaky configuration, its msw tests recorded with
 * `recordMswPact` as the contract-testing guide shows it. It sends an
 * unknown bearer token, an expired one, `?api_key=`, and to an OAuth server
 * mocked beside the Plant Store `Authorization: Basic`, a cookie and a
 * password (form and JSON). Writes the guide's pact to argv[2], a pact that
 * opts the OAuth server in (`include`) to argv[3], and the secrets it sent,
 * as JSON, to stdout.
 *
 * @example
 * node bench/attack/pact-secrets-consumer.ts /tmp/guide.json /tmp/opted-in.json
 */
import { writeFile } from 'node:fs/promises'
import { HttpResponse, http } from 'msw'
import { PlantStoreClient } from '../../src/client/index.ts'
import { type MswRecorderOptions, recordMswPact } from '../../src/contract-testing/index.ts'
import { fixtureTokens } from '../../src/index.ts'
import { setupPlantStoreServer } from '../../src/node.ts'

const [guideFile, optedInFile] = process.argv.slice(2)
if (!guideFile || !optedInFile) throw new Error('usage: pact-secrets-consumer.ts <guide pact> <opted-in pact>')

const origin = 'https://plants.test'
const authServer = 'https://auth.example.com'
const secrets = {
  unknownToken: 'psm_attack-unknown-token-71c2',
  expiredToken: fixtureTokens.expired,
  apiKey: 'ak-live-attack-5d0e',
  basic: Buffer.from('web-client:client-secret-attack-2b9f').toString('base64'),
  password: 'attack-password-correct-horse',
  cookie: 'attack-session-cookie-8e1a',
  accessToken: 'attack-oauth-access-token-c3d4',
}

const { server, store } = setupPlantStoreServer()
server.listen({ onUnhandledFrame: 'error' })
server.use(
  http.post(`${authServer}/oauth/token`, () =>
    HttpResponse.json({ access_token: secrets.accessToken, token_type: 'bearer', expires_in: 3600 }),
  ),
)

async function consumerRun(): Promise<void> {
  const form = new URLSearchParams({ grant_type: 'password', username: 'ann', password: secrets.password })
  await fetch(`${authServer}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${secrets.basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `sid=${secrets.cookie}`,
    },
    body: form.toString(),
  })
  await fetch(`${authServer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: 'ann', password: secrets.password }),
  })
  for (const token of [secrets.unknownToken, secrets.expiredToken]) {
    await new PlantStoreClient({ baseUrl: origin, token }).listPlants().catch(() => undefined)
  }
  await fetch(`${origin}/plants?limit=2&api_key=${secrets.apiKey}`, {
    headers: { authorization: `Bearer ${fixtureTokens.acme.read}` },
  })
  await store.reset()
}

async function record(file: string, options: Partial<MswRecorderOptions>): Promise<void> {
  const recorder = recordMswPact(server, { consumer: 'leaky-web', provider: 'plant-store', ...options })
  await consumerRun()
  await writeFile(file, JSON.stringify(await recorder.pact(), null, 2))
  recorder.stop()
}

await record(guideFile, {})
await record(optedInFile, {
  include: [authServer, origin],
  requestHeaders: ['authorization', 'content-type', 'cookie'],
})
server.close()
process.stdout.write(`${JSON.stringify(Object.values(secrets))}\n`)
