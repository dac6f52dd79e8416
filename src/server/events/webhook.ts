import type { Logger } from 'pino'
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
  /** Deliveries made at once (default 8); the others wait in the queue. */
  concurrency?: number
  /** Deliveries waiting at most (default 1,000); beyond it the oldest waiting one is dropped (and counted). */
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

/**
 * Posts each created plant as a `NewPlant` JSON body to a URL (the published
 * spec's `/plant/webhook`), after the create is answered, never delaying it.
 * Each delivery has a timeout and a bounded number of retries; `5xx`,
 * network errors and timeouts are retried, other answers are final.
 *
 * Memory is bounded whatever the receiver does: at most `concurrency`
 * deliveries are made at once and at most `maxPending` wait (each ~1 KB);
 * beyond either cap the oldest waiting delivery is dropped, a tenant's own
 * oldest first when it holds `maxPendingPerTenant`, so one busy tenant cannot
 * push out the others' deliveries. Drops are counted ({@link dropped}) and logged.
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
  /** Deliveries waiting, oldest first. */
  readonly #queue: Delivery[] = []
  /** Deliveries waiting per tenant. */
  readonly #queuedPerTenant = new Map<string, number>()
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
  readonly observe: OutcomeListener = ({ operation, plant, principal }) => {
    if (operation === 'addPlant' && plant && principal) this.send(plant, principal.tenantId)
  }

  /** Queues the delivery of one plant; returns at once. */
  send(plant: StoredPlant, tenantId: string): void {
    const queued = this.#queuedPerTenant.get(tenantId) ?? 0
    if (queued >= this.#maxPendingPerTenant) this.#drop(this.#queue.findIndex((d) => d.tenantId === tenantId))
    else if (this.#queue.length >= this.#maxPending) this.#drop(0)
    this.#queue.push({ body: JSON.stringify({ id: plant.id, ...toPlant(plant) }), tenantId })
    this.#queuedPerTenant.set(tenantId, (this.#queuedPerTenant.get(tenantId) ?? 0) + 1)
    this.#next()
  }

  /** Deliveries waiting or in flight. */
  get pending(): number {
    return this.#queue.length + this.#inFlight.size
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

  /** Starts waiting deliveries while fewer than `concurrency` are in flight. */
  #next(): void {
    while (this.#inFlight.size < this.#concurrency && this.#queue.length > 0) {
      const { body, tenantId } = this.#queue.shift() as Delivery
      this.#forgetQueued(tenantId)
      const delivery: Promise<void> = this.#deliver(body, tenantId).finally(() => {
        this.#inFlight.delete(delivery)
        this.#next()
      })
      this.#inFlight.add(delivery)
    }
  }

  /** Drops the waiting delivery at `index`, counting it (and saying so, once per 100). */
  #drop(index: number): void {
    const [dropped] = this.#queue.splice(index, 1)
    if (!dropped) return
    this.#forgetQueued(dropped.tenantId)
    if (this.#dropped++ % 100 === 0) {
      this.#logger?.warn(
        { webhook: this.url, tenant: dropped.tenantId, dropped: this.#dropped },
        'webhook backlog full: oldest delivery dropped',
      )
    }
  }

  #forgetQueued(tenantId: string): void {
    const left = (this.#queuedPerTenant.get(tenantId) ?? 1) - 1
    if (left > 0) this.#queuedPerTenant.set(tenantId, left)
    else this.#queuedPerTenant.delete(tenantId)
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
