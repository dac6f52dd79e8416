// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.
import type { PlantStoreClientOptions } from '../client/plant-store-client.ts'
import { type AnswerOf, contractRequest } from '../client/request.ts'
import type { operations, paths } from './openapi.ts'

/** Requests of the Plant Store API's operations, typed by `contracts/openapi.yaml`. */
const send = contractRequest<paths>()

/**
 * A small typed client of the Plant Store API: one method per operation of
 * `contracts/openapi.yaml`, its types generated from it. It is what the
 * example app and the Pact consumer tests drive.
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

  /** `GET /plants`: Returns all plants of the caller's tenant, oldest first. */
  listPlants(query: NonNullable<operations['listPlants']['parameters']['query']> = {}): Promise<AnswerOf<operations['listPlants']>> {
    return send(this.#options, 'get', '/plants', { query, token: this.#token() })
  }

  /** `POST /plants`: Creates a new plant in the store. */
  addPlant(body: NonNullable<operations['addPlant']['requestBody']>['content']['application/json']): Promise<AnswerOf<operations['addPlant']>> {
    return send(this.#options, 'post', '/plants', { body, token: this.#token() })
  }

  /** `DELETE /plants/{id}`: Deletes a single plant based on the ID supplied. */
  async deletePlant(id: operations['deletePlant']['parameters']['path']['id']): Promise<void> {
    await send(this.#options, 'delete', '/plants/{id}', { path: { id }, token: this.#token() })
  }

  #token(): string | undefined {
    const { token } = this.#options
    return typeof token === 'function' ? token() : token
  }
}
