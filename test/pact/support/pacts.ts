/** Where the contract suite keeps its pacts, and the names in them. */
import { fileURLToPath } from 'node:url'
import { PlantStoreApiError } from 'plant-store-mock/client'
import { expect } from 'vitest'

/** The committed pacts: written by the consumer tests, replayed by the provider verification, checked by the gate. */
export const pactsDir = fileURLToPath(new URL('../../../contracts/pacts/', import.meta.url))

/** The deliberately broken pacts of the negative tests. */
export const fixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url))

/** The OpenAPI description every pact must agree with. */
export const openapiPath = fileURLToPath(new URL('../../../contracts/openapi.yaml', import.meta.url))

/** The provider every pact is with. */
export const provider = 'plant-store'

/** The consumer of the hand-written pact tests: the example web app's client. */
export const webConsumer = 'plant-store-web'

/** The consumer of the pact recorded from MSW-backed tests. */
export const mswConsumer = 'plant-store-web-msw'

/** The file a consumer's pact with {@link provider} is written to. */
export function pactFile(consumer: string): string {
  return `${pactsDir}${consumer}-${provider}.json`
}

/** Runs `call` and returns the `PlantStoreApiError` it must throw. */
export async function failure(call: () => Promise<unknown>): Promise<PlantStoreApiError> {
  const error = await call().then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(PlantStoreApiError)
  return error as PlantStoreApiError
}
