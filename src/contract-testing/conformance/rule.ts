/**
 * What a conformance rule is: a stable id, a one-line title, the contract
 * clause it checks, what it needs beyond a read-write token, and a check that
 * talks to the provider through a {@link RuleContext}.
 */
import type { Exchange, Probe } from './exchange.ts'
import type { Expectation, Plant } from './expectations.ts'

/** What a rule needs beyond the read-write token; without it the rule is skipped. */
export type Need = 'readOnly' | 'foreign' | 'expired' | 'quota'

/** A plant this run created (and will delete): the Plant it answers as, and its id. */
export interface OwnPlant extends Plant {
  readonly id: number
  /** The tenant it lives in: the read-write token's or the foreign token's. */
  readonly role: 'readWrite' | 'foreign'
}

/** A list as the provider answered it. */
export interface Listing {
  /** The entries as answered (their shape is what `list.shape` judges). */
  readonly plants: readonly unknown[]
  readonly exchange: Exchange
}

export interface CreatePlantOptions {
  /** The tenant (default: the read-write token's). */
  role?: 'readWrite' | 'foreign'
  /** Part of the name, to tell the run's plants apart in reports. */
  label?: string
  tag?: string
  /** The id to try first; another free one is taken when it is taken. */
  id?: number
}

/**
 * What a rule's check gets: a way to send requests (recorded, with the
 * plants it creates tracked for cleanup), soft and hard expectations, and
 * helpers to set up plants of its own.
 */
export interface RuleContext {
  /** Sends a request; network failures come back as an exchange without an answer. */
  send(probe: Probe): Promise<Exchange>
  /** Records a finding for every expectation the answer breaks; true when all hold. */
  expect(exchange: Exchange, ...expectations: Expectation[]): boolean
  /** Like {@link expect}, but stops the rule when an expectation breaks. */
  require(exchange: Exchange, ...expectations: Expectation[]): void
  /** Records a finding that no expectation helper expresses. */
  fail(expected: string, exchange?: Exchange): void
  /** `GET /plants` as this role; stops the rule unless it is a 200 with an array. */
  list(role?: 'readWrite' | 'readOnly' | 'foreign'): Promise<Listing>
  /** Creates a plant of this run with a free id (any 2xx counts); stops the rule otherwise. */
  createPlant(options?: CreatePlantOptions): Promise<OwnPlant>
  /** Deletes a plant of this run (any 2xx counts); stops the rule otherwise. */
  deletePlant(plant: OwnPlant): Promise<void>
  /** An id in [10^9, 2^31) this run has not used yet, unlikely to be anybody else's. */
  freshId(): number
  /** A name unique to this run: `plant-store-mock conformance <run> <label>`. */
  name(label: string): string
  /** Every exchange of the run so far, of every rule. */
  readonly exchanges: readonly Exchange[]
  /** The quota to check (only for rules that need `quota`). */
  readonly quota: number | undefined
  /** An unknown token made for this run. */
  readonly unknownToken: string
}

/**
 * One rule of the contract, as data plus its check.
 *
 * @example
 * const rule: ConformanceRule = {
 *   id: 'limit.zero',
 *   title: '?limit=0 answers an empty array',
 *   clause: 'listPlants, limit: "0 returns an empty array"',
 *   async check(context) {
 *     context.expect(await context.send({ method: 'GET', path: '/plants?limit=0' }), status(200))
 *   },
 * }
 */
export interface ConformanceRule {
  /** Stable id, `area.behaviour`, e.g. `create.duplicate-id`. */
  readonly id: string
  /** One line: what the provider must do. */
  readonly title: string
  /** The contract clause it checks (openapi.yaml or the contract decisions). */
  readonly clause: string
  readonly needs?: readonly Need[]
  check(context: RuleContext): Promise<void>
}

/**
 * Thrown by {@link RuleContext.require} and the setup helpers: the rule
 * cannot go on (its finding is recorded); the runner marks it failed.
 *
 * @example
 * if (!context.expect(exchange, status(200))) throw new RuleStop()
 */
export class RuleStop extends Error {
  constructor() {
    super('The rule stopped at a broken expectation.')
    this.name = 'RuleStop'
  }
}

/**
 * Thrown by {@link RuleContext.send} once the run is interrupted: no new
 * request is sent; the runner marks the rule skipped (unless it already
 * found something) and goes on to the cleanup.
 *
 * @example
 * if (signal.aborted) throw new RunInterrupted()
 */
export class RunInterrupted extends Error {
  constructor() {
    super('The run was interrupted.')
    this.name = 'RunInterrupted'
  }
}
