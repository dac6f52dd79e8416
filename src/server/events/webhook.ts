import type { Logger } from 'pino'
import { clientOf } from '../../core/client-address.ts'
import type { OutcomeListener } from '../../core/core.ts'
import { type StoredPlant, toPlant } from '../../core/schemas.ts'
import { sleep } from '../../core/time.ts'

export interface WebhookOptions {
  /** Where each created plant is posted. */
  url: string
  /** Time allowed for one delivery attempt (default 5,000 ms). */
  timeoutMs?: number
  /** Attempts after the first one failed (default 2). */
  retries?: number
  /** Wait before the first retry; doubled for each next one (default 250 ms). */
  backoffMs?: number
  /** Deliveries made at once (default 8); the others wait their tenant's turn. */
  concurrency?: number
  /**
   * Deliveries waiting at most (default 1,000); beyond it the oldest of the
   * tenant with the most waiting is dropped (and counted).
   */
  maxPending?: number
  /** Deliveries of one tenant waiting at most (default 100); beyond it that tenant's oldest is dropped. */
  maxPendingPerTenant?: number
  logger?: Logger
}

/** A delivery waiting its turn: the body and the tenant it is for. */
interface Delivery {
  readonly body: string
  readonly tenantId: string
}

/** One client address's tenants with deliveries waiting, each tenant's oldest first, in turn order. */
type ClientQueues = Map<string, Delivery[]>

/**
 * Posts each created plant as a `NewPlant` JSON body to a URL (the published
 * spec's `/plant/webhook`), after the create is answered, never delaying it.
 * Each delivery has a timeout and a bounded number of retries; `5xx`,
 * network errors and timeouts are retried, other answers are final.
 *
 * Delivery is shared, not first come first served (issue 44, 6): each
 * tenant's deliveries wait in a queue of their own, and the next delivery
 * goes in turn to each client address with deliveries waiting, and within
 * it to each of its tenants, so that a tenant (or a client with many
 * tenants) creating as fast as it can slows only its own deliveries.
 *
 * Memory is bounded whatever the receiver does: at most `concurrency`
 * deliveries are made at once and at most `maxPending` wait (each ~1 KB),
 * at most `maxPendingPerTenant` of one tenant; beyond either cap the oldest
 * waiting delivery of that tenant, or of the tenant with the most waiting,
 * is dropped. Drops are counted ({@link dropped}) and logged.
 *
 * @example
 * const webhook = new Webhook({ url: 'http://127.0.0.1:9000/plant/webhook' })
 * createApp({ webhook })
 * await webhook.drain(5000) // on shutdown
 */
export class Webhook {
  readonly url: string
  readonly #timeoutMs: number
  readonly #retries: number
  readonly #backoffMs: number
  readonly #concurrency: number
  readonly #maxPending: number
  readonly #maxPendingPerTenant: number
  readonly #logger: Logger | undefined
  /** Deliveries waiting, per client address then per tenant, each in turn order (the next turn's first). */
  readonly #clients = new Map<string, ClientQueues>()
  /** Each waiting tenant's queue (never empty) and client, wherever it is in turn. */
  readonly #tenants = new Map<string, { readonly client: string; readonly queue: Delivery[] }>()
  #waiting = 0
  readonly #inFlight = new Set<Promise<void>>()
  #dropped = 0

  constructor(options: WebhookOptions) {
    this.url = new URL(options.url).href
    this.#timeoutMs = options.timeoutMs ?? 5000
    this.#retries = options.retries ?? 2
    this.#backoffMs = options.backoffMs ?? 250
    this.#concurrency = Math.max(1, options.concurrency ?? 8)
    this.#maxPending = Math.max(1, options.maxPending ?? 1000)
    this.#maxPendingPerTenant = Math.max(1, options.maxPendingPerTenant ?? 100)
    this.#logger = options.logger
  }

  /** An outcome listener: delivers every plant the core created. */
  readonly observe: OutcomeListener = ({ operation, plant, principal, request }) => {
    if (operation === 'addPlant' && plant && principal) this.send(plant, principal.tenantId, clientOf(request.client))
  }

  /** Queues the delivery of one plant of this tenant (created by this client, when known); returns at once. */
  send(plant: StoredPlant, tenantId: string, client = ''): void {
    const full = this.#tenants.get(tenantId)
    if (full && full.queue.length >= this.#maxPendingPerTenant) this.#drop(tenantId)
    else if (this.#waiting >= this.#maxPending) this.#drop(this.#longest())
    let waiting = this.#tenants.get(tenantId)
    if (!waiting) {
      waiting = { client, queue: [] }
      this.#tenants.set(tenantId, waiting)
      let tenants = this.#clients.get(client)
      if (!tenants) {
        tenants = new Map()
        this.#clients.set(client, tenants)
      }
      tenants.set(tenantId, waiting.queue)
    }
    waiting.queue.push({ body: JSON.stringify({ id: plant.id, ...toPlant(plant) }), tenantId })
    this.#waiting++
    this.#next()
  }

  /** Deliveries waiting or in flight. */
  get pending(): number {
    return this.#waiting + this.#inFlight.size
  }

  /** Deliveries dropped to stay within the caps since the start. */
  get dropped(): number {
    return this.#dropped
  }

  /** Waits for deliveries waiting or in flight, at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs)
    })
    let done = false
    void deadline.then(() => {
      done = true
    })
    while (!done && this.pending > 0) await Promise.race([Promise.allSettled([...this.#inFlight]), deadline])
    clearTimeout(timer)
  }

  /** Starts waiting deliveries while fewer than `concurrency` are in flight, each to the next client and tenant in turn. */
  #next(): void {
    while (this.#inFlight.size < this.#concurrency) {
      const turn = this.#take()
      if (!turn) return
      const { body, tenantId } = turn
      const delivery: Promise<void> = this.#deliver(body, tenantId).finally(() => {
        this.#inFlight.delete(delivery)
        this.#next()
      })
      this.#inFlight.add(delivery)
    }
  }

  /** The next delivery in turn: the first client's first tenant's oldest; both then go to the back of the turns. */
  #take(): Delivery | undefined {
    const first = this.#clients.entries().next()
    if (first.done) return undefined
    const [client, tenants] = first.value
    const [tenantId, queue] = tenants.entries().next().value as [string, Delivery[]]
    const delivery = queue.shift() as Delivery
    this.#waiting--
    tenants.delete(tenantId)
    this.#clients.delete(client)
    if (queue.length > 0) tenants.set(tenantId, queue)
    else this.#tenants.delete(tenantId)
    if (tenants.size > 0) this.#clients.set(client, tenants)
    return delivery
  }

  /** The tenant with the most deliveries waiting. */
  #longest(): string {
    let longest = ''
    let most = 0
    for (const [tenantId, { queue }] of this.#tenants) {
      if (queue.length > most) {
        longest = tenantId
        most = queue.length
      }
    }
    return longest
  }

  /** Drops a tenant's oldest waiting delivery, counting it (and saying so, once per 100). */
  #drop(tenantId: string): void {
    const waiting = this.#tenants.get(tenantId)
    if (!waiting?.queue.shift()) return
    this.#waiting--
    if (waiting.queue.length === 0) {
      // Out of the turns: a tenant in turn always has a delivery waiting.
      this.#tenants.delete(tenantId)
      const tenants = this.#clients.get(waiting.client)
      tenants?.delete(tenantId)
      if (tenants?.size === 0) this.#clients.delete(waiting.client)
    }
    if (this.#dropped++ % 100 === 0) {
      this.#logger?.warn(
        { webhook: this.url, tenant: tenantId, dropped: this.#dropped },
        'webhook backlog full: oldest delivery dropped',
      )
    }
  }

  async #deliver(body: string, tenantId: string): Promise<void> {
    for (let attempt = 0; attempt <= this.#retries; attempt++) {
      if (attempt > 0) await sleep(this.#backoffMs * 2 ** (attempt - 1))
      let outcome: string
      try {
        const response = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-plant-store-tenant': tenantId },
          body,
          signal: AbortSignal.timeout(this.#timeoutMs),
        })
        await response.body?.cancel()
        if (response.status < 500) {
          const level = response.ok ? 'debug' : 'warn'
          this.#logger?.[level]({ webhook: this.url, tenant: tenantId, status: response.status }, 'webhook delivered')
          return
        }
        outcome = `status ${response.status}`
      } catch (error) {
        outcome = error instanceof Error ? error.message : String(error)
      }
      this.#logger?.warn(
        { webhook: this.url, tenant: tenantId, attempt: attempt + 1, outcome },
        'webhook attempt failed',
      )
    }
    this.#logger?.error({ webhook: this.url, tenant: tenantId }, 'webhook gave up after retries')
  }
}
