import type { Logger } from 'pino'
import type { OutcomeListener } from '../core/app.ts'
import { type StoredPlant, toPlant } from '../core/schemas.ts'
import { sleep } from '../faults/answers.ts'

export interface WebhookOptions {
  /** Where each created plant is posted. */
  url: string
  /** Time allowed for one delivery attempt (default 5,000 ms). */
  timeoutMs?: number
  /** Attempts after the first one failed (default 2). */
  retries?: number
  /** Wait before the first retry; doubled for each next one (default 250 ms). */
  backoffMs?: number
  /** Deliveries in flight at most; more are dropped with a warning (default 1,000). */
  maxPending?: number
  logger?: Logger
}

/**
 * Posts each created plant as a `NewPlant` JSON body to a URL (the published
 * spec's `/plant/webhook`), after the create is answered, never delaying it.
 * Each delivery has a timeout and a bounded number of retries; `5xx`,
 * network errors and timeouts are retried, other answers are final.
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
  readonly #maxPending: number
  readonly #logger: Logger | undefined
  readonly #pending = new Set<Promise<void>>()

  constructor(options: WebhookOptions) {
    this.url = new URL(options.url).href
    this.#timeoutMs = options.timeoutMs ?? 5000
    this.#retries = options.retries ?? 2
    this.#backoffMs = options.backoffMs ?? 250
    this.#maxPending = options.maxPending ?? 1000
    this.#logger = options.logger
  }

  /** An outcome listener: delivers every plant the core created. */
  readonly observe: OutcomeListener = ({ operation, plant, principal }) => {
    if (operation === 'addPlant' && plant && principal) this.send(plant, principal.tenantId)
  }

  /** Queues the delivery of one plant; returns at once. */
  send(plant: StoredPlant, tenantId: string): void {
    if (this.#pending.size >= this.#maxPending) {
      this.#logger?.warn({ webhook: this.url, tenant: tenantId }, 'webhook backlog full: delivery dropped')
      return
    }
    const delivery = this.#deliver(JSON.stringify({ id: plant.id, ...toPlant(plant) }), tenantId).finally(() =>
      this.#pending.delete(delivery),
    )
    this.#pending.add(delivery)
  }

  /** Deliveries still in flight. */
  get pending(): number {
    return this.#pending.size
  }

  /** Waits for deliveries in flight, at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.allSettled([...this.#pending]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs)
      }),
    ])
    clearTimeout(timer)
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
