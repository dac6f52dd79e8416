import type { components, operations, paths } from '../generated/openapi.ts'
import { type Connection, contractRequest } from './request.ts'

export type Plant = components['schemas']['Plant']
export type NewPlant = components['schemas']['NewPlant']
export type ListPlantsQuery = NonNullable<operations['listPlants']['parameters']['query']>

/** Requests of the Plant Store API's operations, typed by `contracts/openapi.yaml`. */
const send = contractRequest<paths>()

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
  listPlants(query: ListPlantsQuery = {}): Promise<Plant[]> {
    return send(this.#options, 'get', '/plants', { query, token: this.#token() })
  }

  /** `POST /plants`: stores a plant and answers it back. */
  addPlant(plant: NewPlant): Promise<Plant> {
    return send(this.#options, 'post', '/plants', { body: plant, token: this.#token() })
  }

  /** `DELETE /plants/{id}`. */
  async deletePlant(id: number): Promise<void> {
    await send(this.#options, 'delete', '/plants/{id}', { path: { id }, token: this.#token() })
  }

  #token(): string | undefined {
    const { token } = this.#options
    return typeof token === 'function' ? token() : token
  }
}
