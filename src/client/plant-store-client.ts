import type { components, operations } from '../generated/openapi.ts'

export type Plant = components['schemas']['Plant']
export type NewPlant = components['schemas']['NewPlant']
export type ApiError = components['schemas']['Error']
export type ListPlantsQuery = NonNullable<operations['listPlants']['parameters']['query']>

/** An Error answer of the Plant Store, thrown by every client method on a non-2xx status. */
export class PlantStoreApiError extends Error {
  readonly status: number
  readonly body: ApiError | undefined

  constructor(status: number, body: ApiError | undefined) {
    super(body?.message ?? `The Plant Store answered ${status}.`)
    this.name = 'PlantStoreApiError'
    this.status = status
    this.body = body
  }
}

export interface PlantStoreClientOptions {
  /** Where the Plant Store is, e.g. `http://127.0.0.1:4010` or `''` for the page's own origin. */
  baseUrl: string
  /** The bearer token, or a function returning it (or `undefined` to send none). */
  token?: string | (() => string | undefined)
  /** The `fetch` to use (default: the global one, which msw intercepts). */
  fetch?: typeof fetch
}

/**
 * A small typed client of the Plant Store API, with its types generated from
 * `contracts/openapi.yaml`. It is what the example app and the Pact consumer
 * tests drive.
 *
 * @example
 * const client = new PlantStoreClient({ baseUrl: 'http://127.0.0.1:4010', token: 'psm_acme_write' })
 * await client.addPlant({ id: 100, name: 'Fern', tag: 'fern' })
 * const plants = await client.listPlants({ limit: 10 })
 */
export class PlantStoreClient {
  readonly #options: PlantStoreClientOptions

  constructor(options: PlantStoreClientOptions) {
    this.#options = options
  }

  /** `GET /plants`: the tenant's plants, oldest first. */
  async listPlants(query: ListPlantsQuery = {}): Promise<Plant[]> {
    const search = query.limit === undefined ? '' : `?limit=${encodeURIComponent(String(query.limit))}`
    return (await this.#request('GET', `/plants${search}`)) as Plant[]
  }

  /** `POST /plants`: stores a plant and answers it back. */
  async addPlant(plant: NewPlant): Promise<Plant> {
    return (await this.#request('POST', '/plants', plant)) as Plant
  }

  /** `DELETE /plants/{id}`. */
  async deletePlant(id: number): Promise<void> {
    await this.#request('DELETE', `/plants/${encodeURIComponent(String(id))}`)
  }

  async #request(method: string, path: string, body?: unknown): Promise<unknown> {
    const { baseUrl, token } = this.#options
    const bearer = typeof token === 'function' ? token() : token
    const headers: Record<string, string> = { accept: 'application/json' }
    if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const doFetch = this.#options.fetch ?? fetch
    const response = await doFetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    const json: unknown = text === '' ? undefined : JSON.parse(text)
    if (!response.ok) throw new PlantStoreApiError(response.status, json as ApiError | undefined)
    return json
  }
}
