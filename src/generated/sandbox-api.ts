// Generated from contracts/sandbox.openapi.yaml by contracts/codegen.ts. Do not edit.
import { type AnswerOf, type Connection, contractRequest } from '../client/request.ts'
import type { operations, paths } from './sandbox-openapi.ts'

/** Requests of the operations of `contracts/sandbox.openapi.yaml`, typed by it. */
const send = contractRequest<paths>()

/** Where {@link SandboxApi} sends its requests and what it authenticates them with. */
export interface SandboxApiOptions extends Connection {
  /** The bearer token, or a function of the scopes an operation needs that returns it (`undefined`: none is sent). */
  token?: string | ((scopes: readonly string[]) => string | undefined)
  /** Sent in `X-Admin-Key` by the operations that take it (`adminKey`). */
  adminKey?: string
}

/**
 * The sandbox control API's operations, one method each (named by its
 * operationId, typed by `contracts/sandbox.openapi.yaml`): what
 * `SandboxClient` and `SandboxTenant` are made of. A tenant's token goes
 * with the operations that need its scopes, the admin key with provisioning.
 *
 * @example
 * const api = new SandboxApi({ baseUrl: 'http://127.0.0.1:4010', token: 'psm_acme_write' })
 * await api.addFault({ method: 'GET', path: '/plants', status: 503, times: 1 })
 * const { count } = await api.listRequests({ status: '503' })
 */
export class SandboxApi {
  readonly #options: SandboxApiOptions

  constructor(options: SandboxApiOptions) {
    this.#options = options
  }

  /** `POST /__sandbox/tenants`: Provisions a fresh, isolated tenant with its own tokens. */
  provisionTenant(body?: NonNullable<operations['provisionTenant']['requestBody']>['content']['application/json']): Promise<AnswerOf<operations['provisionTenant']>> {
    return send(this.#options, 'post', '/__sandbox/tenants', { body, headers: this.#headers({ 'X-Admin-Key': this.#options.adminKey }) })
  }

  /** `DELETE /__sandbox/tenants/{id}`: Deletes a provisioned tenant; its tokens stop working at once. */
  async deleteTenant(id: operations['deleteTenant']['parameters']['path']['id']): Promise<void> {
    await send(this.#options, 'delete', '/__sandbox/tenants/{id}', { path: { id }, token: this.#token(['plants:write']) })
  }

  /** `POST /__sandbox/reset`: Puts the caller's tenant back to how it started. */
  async resetTenant(): Promise<void> {
    await send(this.#options, 'post', '/__sandbox/reset', { token: this.#token(['plants:write']) })
  }

  /** `GET /__sandbox/requests`: The caller's journaled requests that match, with their count. */
  listRequests(query: NonNullable<operations['listRequests']['parameters']['query']> = {}): Promise<AnswerOf<operations['listRequests']>> {
    return send(this.#options, 'get', '/__sandbox/requests', { query, token: this.#token(['plants:read']) })
  }

  /** `DELETE /__sandbox/requests`: Empties the caller's journal; its data stays. */
  async clearRequests(): Promise<void> {
    await send(this.#options, 'delete', '/__sandbox/requests', { token: this.#token(['plants:write']) })
  }

  /** `GET /__sandbox/faults`: The caller's fault rules, in the order they fire. */
  listFaults(): Promise<AnswerOf<operations['listFaults']>> {
    return send(this.#options, 'get', '/__sandbox/faults', { token: this.#token(['plants:read']) })
  }

  /** `POST /__sandbox/faults`: Adds a fault rule after the caller's others. */
  addFault(body: NonNullable<operations['addFault']['requestBody']>['content']['application/json']): Promise<AnswerOf<operations['addFault']>> {
    return send(this.#options, 'post', '/__sandbox/faults', { body, token: this.#token(['plants:write']) })
  }

  /** `DELETE /__sandbox/faults`: Deletes all the caller's fault rules. */
  async clearFaults(): Promise<void> {
    await send(this.#options, 'delete', '/__sandbox/faults', { token: this.#token(['plants:write']) })
  }

  /** `GET /__sandbox/faults/{id}`: One of the caller's fault rules. */
  getFault(id: operations['getFault']['parameters']['path']['id']): Promise<AnswerOf<operations['getFault']>> {
    return send(this.#options, 'get', '/__sandbox/faults/{id}', { path: { id }, token: this.#token(['plants:read']) })
  }

  /** `DELETE /__sandbox/faults/{id}`: Deletes one of the caller's fault rules. */
  async deleteFault(id: operations['deleteFault']['parameters']['path']['id']): Promise<void> {
    await send(this.#options, 'delete', '/__sandbox/faults/{id}', { path: { id }, token: this.#token(['plants:write']) })
  }

  /** `GET /__sandbox/plants`: The caller's plants with their ids, oldest first (not journaled). */
  listTenantPlants(query: NonNullable<operations['listTenantPlants']['parameters']['query']> = {}): Promise<AnswerOf<operations['listTenantPlants']>> {
    return send(this.#options, 'get', '/__sandbox/plants', { query, token: this.#token(['plants:read']) })
  }

  /** `GET /__sandbox/coverage`: Which of the Plant Store contract's answers the caller's requests provoked. */
  tenantCoverage(): Promise<AnswerOf<operations['tenantCoverage']>> {
    return send(this.#options, 'get', '/__sandbox/coverage', { token: this.#token(['plants:read']) })
  }

  /** `GET /__sandbox/health`: Liveness: the process is up. */
  health(): Promise<AnswerOf<operations['health']>> {
    return send(this.#options, 'get', '/__sandbox/health', {})
  }

  /** `GET /__sandbox/ready`: Readiness, for a load balancer. */
  ready(): Promise<AnswerOf<operations['ready']>> {
    return send(this.#options, 'get', '/__sandbox/ready', {})
  }

  /** `GET /__sandbox/openapi.json`: This document, as JSON. */
  sandboxContract(): Promise<AnswerOf<operations['sandboxContract']>> {
    return send(this.#options, 'get', '/__sandbox/openapi.json', {})
  }

  #token(scopes: readonly string[]): string | undefined {
    const { token } = this.#options
    return typeof token === 'function' ? token(scopes) : token
  }

  #headers(headers: Record<string, string | undefined>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
  }
}
