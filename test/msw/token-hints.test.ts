/**
 * Hints for the usual slips of a first test (issue 42, item 4): a misspelt
 * fixture token's 401 says which one was meant, through msw and over HTTP
 * (never a token the caller was not shown: only the public fixture tokens);
 * a token with white space at an end is never accepted as another; and a
 * client request that nothing answers (msw never started) says so.
 */
import { fixtureTokens } from 'plant-store-mock'
import { PlantStoreClient } from 'plant-store-mock/client'
import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { useSandbox } from '../server/sandbox-fixture.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { origin } from '../support/msw.ts'

/** The 401s of a misspelt, a far-off and a provisioned tenant's near-miss token, through `base`. */
function misspeltTokens(base: () => string) {
  const list = async (token: string) =>
    read(await fetch(`${base()}/plants`, { headers: { authorization: `Bearer ${token}` } }))

  test('a misspelt fixture token: 401 invalid_token, "did you mean" the fixture token', async () => {
    const answer = await list('psm_acme_raed')

    expectErrorBody(answer, 401)
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"')
    expect(JSON.parse(answer.text)).toMatchObject({
      message: 'The access token is not recognised (did you mean "psm_acme_read"?).',
    })
  })

  test('a token far from every fixture token: 401 without a guess', async () => {
    const answer = await list('nothing_like_it')

    expectErrorBody(answer, 401)
    expect(JSON.parse(answer.text)).toMatchObject({ message: 'The access token is not recognised.' })
  })

  test('the expired fixture token is never suggested', async () => {
    const answer = await list('psm_acme_expird')

    expectErrorBody(answer, 401)
    expect(answer.text).not.toContain(fixtureTokens.acme.expired)
  })
}

describe('through msw', () => {
  const { server } = setupPlantStoreServer()
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())

  misspeltTokens(() => origin)

  test('the typed client refuses a token with white space at an end instead of sending another one', async () => {
    const client = new PlantStoreClient({ baseUrl: origin, token: `${fixtureTokens.acme.read} ` })

    await expect(client.listPlants()).rejects.toThrow(
      'plant-store-mock client: the token has white space at an end, which HTTP drops',
    )
  })
})

describe('over HTTP, the sandbox', () => {
  const sandbox = useSandbox()

  misspeltTokens(() => sandbox.base)

  test('a provisioned tenant’s token is never suggested, however close', async () => {
    const tenant = await sandbox.client.provision()
    const near = `${tenant.tokens.read.slice(0, -1)}${tenant.tokens.read.endsWith('x') ? 'y' : 'x'}`

    const answer = await read(await fetch(`${sandbox.base}/plants`, { headers: { authorization: `Bearer ${near}` } }))

    expect(JSON.parse(answer.text)).toMatchObject({ message: 'The access token is not recognised.' })
  })
})

describe('a test that never starts msw', () => {
  test('the client’s request that nothing answered says to start the mock first', async () => {
    setupPlantStoreServer() // … and no server.listen()
    const client = new PlantStoreClient({ baseUrl: 'https://plants.invalid', token: fixtureTokens.acme.read })

    const failed = await client.listPlants().then(
      () => new Error('answered'),
      (error: unknown) => error as Error,
    )

    expect(failed).toBeInstanceOf(TypeError)
    expect(failed.message).toMatch(/^Nothing answered GET https:\/\/plants\.invalid\/plants \(.*plants\.invalid.*\)\./)
    expect(failed.message).toContain("start it before the first request (msw's server.listen()")
  })
})
