import type { components, operations } from '../generated/openapi.ts'
import { type Connection, requestJson } from './request.ts'

export type Plant = components['schemas']['Plant']
export type NewPlant = components['schemas']['NewPlant']
export type ListPlantsQuery = NonNullable<operations['listPlants']['parameters']['query']>

export interface PlantStoreClientOptions extends Connection {
  /** The bearer token, or a function returning it (or `undefined` to send none). */
  token?: string | (() => string | undefined)
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

  #request(method: string, path: string, body?: unknown): Promise<unknown> {
    const { token } = this.#options
    return requestJson(this.#options, method, path, { token: typeof token === 'function' ? token() : token, body })
  }
}
