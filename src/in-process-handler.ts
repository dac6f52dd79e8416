/**
 * What every in-process adapter of the Plant Store plugs in (msw's handlers,
 * Playwright's routes): a store, fault rules in front of it and contract
 * coverage of its answers, behind one transport-neutral handler. Nothing
 * here knows msw or Playwright.
 */
import { type CoreOptions, createCore, type OutcomeListener, type PlantStoreHandler } from './core/core.ts'
import type { PlantStore } from './core/store.ts'
import { PlantStoreCoverage } from './coverage-report.ts'
import { FaultRules } from './faults/fault-rules.ts'
import { withFaults } from './faults/with-faults.ts'
import { type PlantStoreJournalOptions, PlantStoreRequests } from './plant-store-requests.ts'
import { type CreatePlantStoreOptions, createPlantStore } from './seeded-store.ts'

export interface PlantStoreMockOptions extends CreatePlantStoreOptions, CoreOptions {
  /** The store to serve; by default a new one seeded with the fixture world. */
  store?: PlantStore
  /** Per-tenant fault rules answered instead of the real answers (see `FaultRules`); by default none. */
  faults?: FaultRules
  /** The bounds of the request journal (`requests`): by default the last 1,000 requests, at most 8 MiB. */
  journal?: PlantStoreJournalOptions
}

/** The store, fault rules and coverage behind a mock's handlers. */
export interface PlantStoreParts {
  /** The stateful store behind the handlers: `reset()` (to the set-up world), `load()`, `plants(tenant)` (`@msw/data` queries), `snapshot()`. */
  readonly store: PlantStore
  /**
   * Per-tenant fault rules the handlers answer before the store, the same
   * rules as the sandbox's `/__sandbox/faults`: `add(tenant, rule)`,
   * `list(tenant)`, `remove(tenant, id)`, `clear()`.
   */
  readonly faults: FaultRules
  /**
   * The contract coverage of the answers the handlers gave: `report()`,
   * `table()`, `reset()`, and `check({ min, require, json })` for the end of a run.
   */
  readonly coverage: PlantStoreCoverage
  /**
   * The requests the handlers answered and their answers (the sandbox's
   * journal, per store): `list(filter)`, `count(filter)`, `verify(n, filter)`,
   * `clear()`, with the filter and matching of the sandbox client's
   * `tenant.requests`, plus `tenant`.
   */
  readonly requests: PlantStoreRequests
}

/**
 * The Plant Store as one handler: the core for `store`, behind `faults`
 * when there are any.
 *
 * @example
 * const handle = plantStoreHandler({ store: createPlantStore(), faults: new FaultRules() })
 */
export function plantStoreHandler(options: PlantStoreMockOptions): PlantStoreHandler {
  const store = options.store ?? createPlantStore(options)
  const { onOutcome, faults } = options
  const core = createCore(store, { onOutcome })
  return faults ? withFaults(core, { store, faults, onOutcome }) : core
}

/**
 * A store and fault rules (new ones unless given), a new coverage and a new
 * request journal, with the one handler that answers through them and
 * reports to the coverage and the journal (and to `onOutcome`, when given),
 * and `observe`, which reports an answer given without them (a page's first
 * answers, before they loaded) to the coverage and the journal.
 *
 * @example
 * const { store, faults, coverage, requests, handle } = plantStoreParts({ seed: 7 })
 */
export function plantStoreParts(
  options: PlantStoreMockOptions = {},
): PlantStoreParts & { handle: PlantStoreHandler; observe: OutcomeListener } {
  const store = options.store ?? createPlantStore(options)
  const faults = options.faults ?? new FaultRules({ now: options.now })
  const coverage = new PlantStoreCoverage()
  const requests = new PlantStoreRequests(options.journal)
  const { onOutcome: listener } = options
  const observe: OutcomeListener = (outcome) => {
    coverage.observe(outcome)
    requests.observe(outcome)
  }
  const onOutcome: OutcomeListener = (outcome) => {
    observe(outcome)
    listener?.(outcome)
  }
  return { store, faults, coverage, requests, observe, handle: plantStoreHandler({ store, faults, onOutcome }) }
}
