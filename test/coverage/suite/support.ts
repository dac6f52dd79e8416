/** What the suite's three files share: a mock at https://plants.test and a request helper. */

import { setupPlantStoreServer } from 'plant-store-mock/node'
import { afterAll, beforeAll } from 'vitest'

export const origin = 'https://plants.test'

/** The Plant Store of one test file: listening for its tests, its coverage reported to the run. */
export function usePlantStore(): void {
  const { server } = setupPlantStoreServer({ baseUrl: origin })
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
  afterAll(() => server.close())
}

export function send(method: string, token: string | undefined, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return fetch(`${origin}/plants`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}
