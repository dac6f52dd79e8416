import { PlantStoreError } from '../core/errors.ts'
import { keyedQueue } from '../core/keyed-queue.ts'
import { randomId } from '../core/random.ts'
import { pathMatches } from '../core/request-pattern.ts'
import { type FaultRule, type FaultRuleInput, type FaultRuleSpec, parseFaultRule } from './rule.ts'

export interface FaultRulesOptions {
  /** Rules a tenant may hold, spent and expired ones included (default 50). */
  maxRulesPerTenant?: number
  /** The clock windows are measured against (default `Date.now`). */
  now?: () => number
  /**
   * Writes a tenant's rules through to durable storage (a cluster's Redis):
   * {@link FaultRules.durably} awaits it before a change counts, and undoes
   * the change when it rejects. Without it rules live in memory only.
   */
  persist?: (tenantId: string, rules: readonly SavedFaultRule[]) => Promise<void>
}

/** A rule with its counters as JSON-ready data: what {@link FaultRules.saved} gives and `restore` takes. */
export interface SavedFaultRule {
  readonly spec: FaultRuleSpec
  readonly id: string
  readonly createdAt: number
  /** Epoch ms; `null`: no window. */
  readonly expiresAt: number | null
  readonly fired: number
  /** `null`: no `times` limit. */
  readonly remaining: number | null
}

/** Whether a rule's method matches a request's: itself, and a GET also matches HEAD (HTTP's GET without the body). */
function methodMatches(ruleMethod: string, method: string): boolean {
  return ruleMethod === method || (ruleMethod === 'GET' && method === 'HEAD')
}

/** A rule as it is kept: what was written, and its counters. */
interface KeptRule {
  readonly spec: FaultRuleSpec
  readonly id: string
  readonly createdAt: number
  readonly expiresAt: number
  fired: number
  remaining: number
}

/** The rule that fired for a request: what it answers. */
export type FiredRule = FaultRuleSpec & { readonly id: string }

/** Called when a tenant's rules change: one was added, deleted, or fired. */
export type FaultRulesListener = (tenantId: string) => void

/**
 * The fault rules of every tenant, in creation order, shared by the sandbox
 * (`/__sandbox/faults`) and msw (`faults` of `setupPlantStoreServer` and
 * `setupPlantStoreWorker`). Each tenant sees and changes only its own rules,
 * and a rule matches only its tenant's requests. Bounded: a tenant holds at
 * most `maxRulesPerTenant` rules; adding one more first drops its spent and
 * expired rules, oldest first, and is a 409 when none is.
 *
 * @example
 * const faults = new FaultRules()
 * faults.add('acme', { method: 'POST', path: '/plants', status: 503, times: 1 })
 * faults.list('acme') // [{ id: 'f_…', method: 'POST', path: '/plants', status: 503, times: 1, fired: 0, remaining: 1, active: true, … }]
 */
export class FaultRules {
  /** Rules a tenant may hold. */
  readonly maxRulesPerTenant: number
  readonly #now: () => number
  readonly #persist: FaultRulesOptions['persist']
  readonly #writes = keyedQueue()
  /** Only tenants with at least one rule: the hot path asks whether there are any at all. */
  readonly #byTenant = new Map<string, KeptRule[]>()
  readonly #listeners = new Set<FaultRulesListener>()

  constructor(options: FaultRulesOptions = {}) {
    this.maxRulesPerTenant = options.maxRulesPerTenant ?? 50
    this.#now = options.now ?? Date.now
    this.#persist = options.persist
  }

  /** Whether changes are written through (a `persist` hook was given): then make them {@link durably}. */
  get persisted(): boolean {
    return this.#persist !== undefined
  }

  /**
   * Makes a change to a tenant's rules (an `add`, `remove`, `clear` or
   * `fire`) and, with a `persist` hook, writes the tenant's rules through
   * before it resolves; when that fails the change is undone and the failure
   * is the answer. A tenant's durable changes run one after another.
   *
   * @example
   * const rule = await faults.durably('acme', () => faults.add('acme', { status: 503, times: 1 }))
   */
  durably<T>(tenantId: string, change: () => T): Promise<T> {
    const persist = this.#persist
    if (!persist) return Promise.resolve().then(change)
    return this.#writes(tenantId, async () => {
      const before = this.saved(tenantId)
      const result = change()
      const after = this.saved(tenantId)
      if (JSON.stringify(after) === JSON.stringify(before)) return result
      try {
        await persist(tenantId, after)
      } catch (error) {
        this.restore(tenantId, before)
        throw error
      }
      return result
    })
  }

  /** The tenant's rules with their counters, as {@link restore} takes them back (e.g. from Redis). */
  saved(tenantId: string): SavedFaultRule[] {
    return (this.#byTenant.get(tenantId) ?? []).map(({ spec, id, createdAt, expiresAt, fired, remaining }) => ({
      spec,
      id,
      createdAt,
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : null,
      fired,
      remaining: Number.isFinite(remaining) ? remaining : null,
    }))
  }

  /** Puts back a tenant's rules exactly as {@link saved} gave them, in place of the ones it has. */
  restore(tenantId: string, rules: readonly SavedFaultRule[]): void {
    this.#set(
      tenantId,
      rules.map((rule) => ({
        ...rule,
        expiresAt: rule.expiresAt ?? Number.POSITIVE_INFINITY,
        remaining: rule.remaining ?? Number.POSITIVE_INFINITY,
      })),
    )
  }

  /** Whether no tenant has any rule: then nothing needs checking. */
  get empty(): boolean {
    return this.#byTenant.size === 0
  }

  /**
   * Adds a rule for the tenant, after the ones it has; answers it as listed.
   * Throws `invalid_request` (400) naming the field of an invalid rule, and
   * `conflict` (409) when the tenant holds its maximum of rules still in force.
   */
  add(tenantId: string, rule: FaultRuleInput): FaultRule {
    const spec = parseFaultRule(rule)
    let rules = this.#byTenant.get(tenantId) ?? []
    const now = this.#now()
    if (rules.length >= this.maxRulesPerTenant) rules = this.#dropSpent(rules, now)
    if (rules.length >= this.maxRulesPerTenant) {
      throw new PlantStoreError(
        'conflict',
        `The tenant already has ${this.maxRulesPerTenant} fault rules in force; delete some before adding more.`,
      )
    }
    const kept: KeptRule = {
      spec,
      id: `f_${randomId(9)}`,
      createdAt: now,
      expiresAt: spec.windowMs === undefined ? Number.POSITIVE_INFINITY : now + spec.windowMs,
      fired: 0,
      remaining: spec.times ?? Number.POSITIVE_INFINITY,
    }
    this.#byTenant.set(tenantId, [...rules, kept])
    this.#changed(tenantId)
    return this.#listed(kept, now)
  }

  /** The tenant's rules in creation order (the order they fire in), with how often each fired. */
  list(tenantId: string): FaultRule[] {
    const now = this.#now()
    return (this.#byTenant.get(tenantId) ?? []).map((rule) => this.#listed(rule, now))
  }

  /** Deletes one rule of the tenant; `false` when it has none with this id. */
  remove(tenantId: string, ruleId: string): boolean {
    const rules = this.#byTenant.get(tenantId) ?? []
    const kept = rules.filter((rule) => rule.id !== ruleId)
    if (kept.length === rules.length) return false
    this.#set(tenantId, kept)
    return true
  }

  /** Deletes every rule of the tenant, or of every tenant when none is named. Answers how many were deleted. */
  clear(tenantId?: string): number {
    if (tenantId === undefined) {
      const tenants = [...this.#byTenant.keys()]
      let count = 0
      for (const id of tenants) count += this.clear(id)
      return count
    }
    const count = this.#byTenant.get(tenantId)?.length ?? 0
    if (count > 0) this.#set(tenantId, [])
    return count
  }

  /**
   * The first rule of the tenant in force that matches the request, counted
   * as fired (its `times` used up by one); `undefined` when none matches.
   */
  fire(tenantId: string, method: string, path: string): FiredRule | undefined {
    const rules = this.#byTenant.get(tenantId)
    if (!rules) return undefined
    const now = this.#now()
    for (const rule of rules) {
      const { spec } = rule
      if (rule.remaining <= 0 || rule.expiresAt <= now) continue
      if (spec.method !== undefined && !methodMatches(spec.method, method)) continue
      if (spec.path !== undefined && !pathMatches(spec.path, path)) continue
      rule.fired++
      rule.remaining--
      this.#changed(tenantId)
      return { ...spec, id: rule.id }
    }
    return undefined
  }

  /** Calls `listener` with the tenant's id whenever its rules change; answers a function that stops it. */
  subscribe(listener: FaultRulesListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #set(tenantId: string, rules: KeptRule[]): void {
    if (rules.length === 0) this.#byTenant.delete(tenantId)
    else this.#byTenant.set(tenantId, rules)
    this.#changed(tenantId)
  }

  #dropSpent(rules: KeptRule[], now: number): KeptRule[] {
    return rules.filter((rule) => rule.remaining > 0 && rule.expiresAt > now)
  }

  #changed(tenantId: string): void {
    for (const listener of this.#listeners) listener(tenantId)
  }

  #listed(rule: KeptRule, now: number): FaultRule {
    const { spec, id, createdAt, expiresAt, fired, remaining } = rule
    return {
      id,
      ...spec,
      createdAt: new Date(createdAt).toISOString(),
      fired,
      ...(spec.times === undefined ? {} : { remaining }),
      ...(spec.windowMs === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
      active: remaining > 0 && expiresAt > now,
    }
  }
}
