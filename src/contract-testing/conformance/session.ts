/**
 * The state of one conformance run: every exchange, the ids it used, and the
 * plants it created (tracked from the answers themselves, so a plant that a
 * divergent provider stored when it should have refused is deleted too).
 * Gives each rule its {@link RuleContext}.
 */
import { operations } from '../../core/operations/index.ts'
import { contract } from '../../generated/contract.ts'
import { contractProblems, operationOf } from './contract-check.ts'
import { type Answer, type Exchange, idsIn, type Probe, sendProbe, type Transport } from './exchange.ts'
import { type Expectation, isErrorBody, json, status, succeeded } from './expectations.ts'
import { type Finding, findingOf, type LeftoverPlant } from './report.ts'
import { type CreatePlantOptions, type OwnPlant, type RuleContext, RuleStop, RunInterrupted } from './rule.ts'

export interface SessionSettings {
  readonly transport: Transport
  /** A number in [0, 1), like `Math.random`: ids and the run id come from it. */
  readonly random: () => number
  readonly quota?: number
  /** Once aborted, no new request is sent (the one in flight finishes); cleanup still runs. */
  readonly signal?: AbortSignal
  readonly onExchange?: (exchange: Exchange) => void
}

type Tenant = 'readWrite' | 'foreign'

interface Created {
  /** The rule whose request created it. */
  readonly rule: string
  readonly id: number
  readonly tenant: Tenant
  /** False when the request failed without an answer: the plant may or may not exist. */
  readonly certain: boolean
}

/** Ids the run picks from: above what hand-made data uses, within int32 for providers that store ids so. */
const idRange = { min: 1_000_000_000, max: 2 ** 31 - 1 }
const plantPath = /^\/plants\/(-?\d+)$/
/** Cleanup deletes this many plants at a time. */
const cleanupConcurrency = 4

/**
 * The most a plant of the contract takes in a JSON list, in bytes: its
 * longest id, its longest name and tag with every character escaped
 * (`\u0001`: 6 bytes), and the punctuation around them.
 */
const maxPlantBytes =
  `{"id":${contract.id.minimum},"name":"","tag":""},`.length + 6 * (contract.name.maxLength + contract.tag.maxLength)

/** What an answer may take beyond what the contract allows it (and what any answer but a list may take). */
const answerMarginBytes = contract.maxBodyBytes

/**
 * The body characters the run keeps of an answer once its rule has judged it:
 * a longer one keeps a preview and what the run-wide rules judge of it.
 */
const keptBodyLength = 16 * 1024
/** The characters such an answer keeps of its body: more than a report shows. */
const keptPreviewLength = 1024

/**
 * The most the run reads of an answer to this probe: what the contract lets
 * the answer hold plus {@link answerMarginBytes}. A list holds at most a
 * tenant's quota of plants (the run's `quota`, else the contract's default);
 * every other answer is one plant or an Error.
 */
function answerLimit(probe: Probe, quota: number | undefined): number {
  const list = operationOf(probe.method, probe.path)?.operationId === 'listPlants'
  return (list ? (quota ?? contract.defaultQuota) * maxPlantBytes : 0) + answerMarginBytes
}

/**
 * An exchange as the run keeps it: whole when its body is short; else with
 * a preview of the body and the run-wide rules' verdicts, judged now, so
 * that a run's memory does not grow with the size of the answers.
 */
function kept(exchange: Exchange): Exchange {
  const { answer } = exchange
  if (!answer || answer.text.length <= keptBodyLength) return exchange
  const judged = {
    textLength: answer.text.length,
    contractProblems: contractProblems(exchange.request.method, exchange.request.path, answer),
    errorBody: isErrorBody(answer),
  }
  const { json: _dropped, ...rest } = answer
  const light: Answer = { ...rest, text: answer.text.slice(0, keptPreviewLength), judged }
  return { ...exchange, answer: light }
}

/**
 * One run's state and the contexts its rules work through.
 *
 * @example
 * const session = new ConformanceSession({ transport, random: Math.random })
 * await rule.check(session.context(rule.id, findings))
 * await session.cleanup()
 */
export class ConformanceSession {
  readonly exchanges: Exchange[] = []
  readonly runId: string
  requests = 0
  readonly #settings: SessionSettings
  readonly #created = new Map<string, Created>()
  readonly #usedIds = new Set<number>()
  #names = 0

  constructor(settings: SessionSettings) {
    this.#settings = settings
    this.runId = Math.floor(settings.random() * 36 ** 6)
      .toString(36)
      .padStart(6, '0')
  }

  /** Sends a probe for a rule, records it and tracks what it created or deleted. */
  async send(rule: string, probe: Probe): Promise<Exchange> {
    // The run's own requests (preflight, cleanup) go on after an interruption; the rules' do not.
    if (rule !== 'cleanup' && rule !== 'preflight' && this.#settings.signal?.aborted) throw new RunInterrupted()
    const tenant: Tenant = probe.as === 'foreign' ? 'foreign' : 'readWrite'
    const path = probe.path.split('?')[0]
    const creates = probe.method === 'POST' && path === '/plants' ? idsIn(probe) : []
    const exchange = await sendProbe(this.#settings.transport, rule, probe, answerLimit(probe, this.#settings.quota))
    this.requests++
    if (rule !== 'cleanup') this.exchanges.push(kept(exchange))
    this.#settings.onExchange?.(exchange)
    const answered = exchange.answer?.status
    const succeeded = answered !== undefined && answered >= 200 && answered < 300
    for (const id of creates) {
      // Without an answer the plant may exist; only an id of this run's own range is deleted on a maybe.
      if (succeeded || (answered === undefined && this.#usedIds.has(Math.abs(id)))) {
        this.#created.set(`${tenant}:${id}`, { rule, id, tenant, certain: succeeded })
      }
    }
    const deleted = probe.method === 'DELETE' ? plantPath.exec(path ?? '') : null
    if (deleted && succeeded) this.#created.delete(`${tenant}:${Number(deleted[1])}`)
    return exchange
  }

  /** A free id of the range, never used before in this run. */
  freshId(): number {
    for (;;) {
      const id = idRange.min + Math.floor(this.#settings.random() * (idRange.max - idRange.min))
      if (!this.#usedIds.has(id)) {
        this.#usedIds.add(id)
        return id
      }
    }
  }

  /**
   * Deletes every plant the run (or this rule of it) created and has not
   * deleted yet; a plant already gone counts as deleted, one that cannot be
   * deleted is a leftover.
   */
  async cleanup(rule?: string): Promise<{ deleted: number; leftovers: LeftoverPlant[] }> {
    const pending = [...this.#created.values()].filter((plant) => rule === undefined || plant.rule === rule)
    const leftovers: LeftoverPlant[] = []
    let deleted = 0
    const work = async (): Promise<void> => {
      for (let plant = pending.shift(); plant; plant = pending.shift()) {
        let reason = ''
        for (let attempt = 0; attempt < 2; attempt++) {
          const { answer, error } = await this.send('cleanup', {
            method: 'DELETE',
            path: `/plants/${plant.id}`,
            as: plant.tenant,
          })
          // What the answer means is the delete's own (its descriptor's read-back): it deleted the plant, or there
          // was none. A provider that departs with another 2xx (a 200) is taken at its word.
          const evidence = answer
            ? operations.deletePlant.readBack({
                status: answer.status,
                request: { path: { id: String(plant.id) }, query: new URLSearchParams(), body: undefined },
                body: answer.json?.value,
              })
            : []
          const missing = evidence.some(({ kind }) => kind === 'missing')
          const gone = answer !== undefined && (evidence.length > 0 || (answer.status >= 200 && answer.status < 300))
          if (gone) {
            if (plant.certain || !missing) deleted++
            this.#created.delete(`${plant.tenant}:${plant.id}`)
            reason = ''
            break
          }
          reason = error ?? `DELETE /plants/${plant.id} answered ${answer?.status}`
        }
        if (reason) leftovers.push({ id: plant.id, tenant: plant.tenant, reason })
      }
    }
    await Promise.all(Array.from({ length: cleanupConcurrency }, work))
    return { deleted, leftovers }
  }

  /** The context a rule's check works through; its broken expectations go to `findings`. */
  context(rule: string, findings: Finding[]): RuleContext {
    const session = this
    const expect = (exchange: Exchange, ...expectations: Expectation[]): boolean => {
      const { answer } = exchange
      const broken = answer ? expectations.filter((expectation) => !expectation.holds(answer)) : expectations
      if (broken.length > 0)
        findings.push(
          findingOf(
            broken.map((expectation) => expectation.expected),
            exchange,
          ),
        )
      return broken.length === 0
    }
    const require = (exchange: Exchange, ...expectations: Expectation[]): void => {
      if (!expect(exchange, ...expectations)) throw new RuleStop()
    }
    const send = async (probe: Probe) => {
      const exchange = await session.send(rule, probe)
      const cutAt = exchange.answer?.cutAt
      if (cutAt !== undefined) {
        findings.push(
          findingOf(
            [`an answer of at most ${cutAt} bytes (what the contract allows it, plus a margin): it was cut there`],
            exchange,
          ),
        )
      }
      return exchange
    }
    const name = (label: string) => `plant-store-mock conformance ${session.runId}.${++session.#names} ${label}`
    return {
      send,
      expect,
      require,
      fail: (expected, exchange) => {
        findings.push(findingOf([expected], exchange))
      },
      async list(role: 'readWrite' | 'readOnly' | 'foreign' = 'readWrite') {
        const exchange = await send({ method: 'GET', path: '/plants', as: role })
        require(exchange, status(200), json('a JSON array of plants', Array.isArray))
        return { plants: exchange.answer?.json?.value as unknown[], exchange }
      },
      async createPlant(options: CreatePlantOptions = {}): Promise<OwnPlant> {
        const role = options.role ?? 'readWrite'
        for (let attempt = 0; attempt < 5; attempt++) {
          const id = attempt === 0 && options.id !== undefined ? options.id : session.freshId()
          const plant = {
            id,
            name: name(options.label ?? 'plant'),
            ...(options.tag === undefined ? {} : { tag: options.tag }),
          }
          const exchange = await send({ method: 'POST', path: '/plants', as: role, json: plant })
          // Taken, as the create's own file reads its answer back (its 409): another id, then.
          const { answer } = exchange
          const request = { path: {}, query: new URLSearchParams(), body: plant }
          const evidence = answer
            ? operations.addPlant.readBack({ status: answer.status, request, body: answer.json?.value })
            : []
          if (evidence.some(({ kind }) => kind === 'exists')) continue
          require(exchange, succeeded('a plant of this run, to check the rule with'))
          return { ...plant, role }
        }
        findings.push(findingOf(['a free id within 5 tries (each one answered 409)']))
        throw new RuleStop()
      },
      async deletePlant(plant: OwnPlant) {
        const exchange = await send({ method: 'DELETE', path: `/plants/${plant.id}`, as: plant.role })
        require(exchange, succeeded('a plant of this run deleted, to check the rule with'))
      },
      freshId: () => session.freshId(),
      name,
      exchanges: session.exchanges,
      quota: session.#settings.quota,
      unknownToken: `conformance-unknown-token-${session.runId}`,
    }
  }
}
