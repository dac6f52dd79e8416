// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.
import { type AnswerOf, type Connection, contractRequest } from '../client/request.ts'
import type { operations, paths } from './openapi.ts'

/** Requests of the operations of `contracts/openapi.yaml`, typed by it. */
const send = contractRequest<paths>()

/** Where {@link PlantStoreClient} sends its requests and what it authenticates them with. */
export interface PlantStoreClientOptions extends Connection {
  /** The bearer token, or a function of the scopes an operation needs that returns it (`undefined`: none is sent). */
  token?: string | ((scopes: readonly string[]) => string | undefined)
}

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
    return send(this.#options, 'get', '/plants', { query, token: this.#token(['plants:read']) })
  }

  /** `POST /plants`: Creates a new plant in the store. */
  addPlant(body: NonNullable<operations['addPlant']['requestBody']>['content']['application/json']): Promise<AnswerOf<operations['addPlant']>> {
    return send(this.#options, 'post', '/plants', { body, token: this.#token(['plants:write']) })
  }

  /** `DELETE /plants/{id}`: Deletes a single plant based on the ID supplied. */
  async deletePlant(id: operations['deletePlant']['parameters']['path']['id']): Promise<void> {
    await send(this.#options, 'delete', '/plants/{id}', { path: { id }, token: this.#token(['plants:write']) })
  }

  #token(scopes: readonly string[]): string | undefined {
    const { token } = this.#options
    return typeof token === 'function' ? token(scopes) : token
  }
}
