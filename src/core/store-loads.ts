import { LoadQueue } from './load-queue.ts'
import { recorded } from './plant-writes.ts'
import type { CheckedTenantSpec, StoredPlant } from './schemas.ts'
import type { StoreState } from './store-state.ts'
import type { TenantMemory } from './tenant-memory.ts'
import type { Tenant, Tenants } from './tenants.ts'

/**
 * A tenant as durable storage holds it: its checked spec, exactly its plants
 * (absent: its seeded ones), what it remembers (absent: its spec's memory)
 * and whether it was provisioned.
 */
export interface SavedTenant {
  readonly spec: CheckedTenantSpec
  readonly plants?: Iterable<StoredPlant> | undefined
  readonly memory?: TenantMemory | undefined
  readonly provisioned: boolean
}

/**
 * `PlantStore`'s readiness and whole-store replacements: loads, resets and
 * restores run one after another (`load-queue.ts`), each building the new
 * tenants aside and swapping them in whole, so requests never see a
 * half-loaded store and a failed load changes nothing. Keeps the world a
 * reset returns to, and why the initial world failed to load.
 *
 * @example
 * const loads = new StoreLoads(state, checkWorld(world))
 * await loads.ready
 */
export class StoreLoads {
  readonly #state: StoreState
  /** What {@link reset} returns to: the world the store was set up with. */
  #world: readonly CheckedTenantSpec[] = []
  readonly #queue = new LoadQueue()
  /** Why the initial world could not be loaded, until a later load succeeds. */
  #failure: { readonly error: unknown } | undefined

  /** Starts loading `world` (checked) when given; {@link ready} rejects if it cannot be loaded. */
  constructor(state: StoreState, world?: readonly CheckedTenantSpec[]) {
    this.#state = state
    if (world) {
      this.#world = world
      // Reported through `ready` (and to every request); never an unhandled rejection. Not written through: the
      // world a store is set up with is not a change.
      this.#loadChecked(world, false).catch((error: unknown) => {
        this.#failure = { error }
      })
    }
  }

  get ready(): Promise<void> {
    return this.#queue.ready
  }

  get failure(): { readonly error: unknown } | undefined {
    return this.#failure
  }

  get settled(): boolean {
    return this.#queue.settled
  }

  /** Waits for the loads under way, without failing when the last one failed. */
  settle(): Promise<void> {
    return this.#queue.settle()
  }

  /** Replaces everything with a checked world, recorded; {@link reset} still returns to the set-up world. */
  load(world: readonly CheckedTenantSpec[]): Promise<void> {
    return this.#loadChecked(world, true)
  }

  reset(): Promise<void> {
    // Checked when the store was set up (or restored): not parsed again.
    return this.#loadChecked(this.#world, true)
  }

  restoreTenants(tenants: readonly SavedTenant[]): Promise<void> {
    return this.#queue.enqueue(async () => {
      this.#swap(await this.#built(tenants))
      this.#world = tenants.filter((tenant) => !tenant.provisioned).map(({ spec }) => spec)
    })
  }

  /** Replaces everything with a world already checked by `worldSchema`, recorded when asked. */
  #loadChecked(world: readonly CheckedTenantSpec[], record: boolean): Promise<void> {
    return this.#queue.enqueue(async () => {
      const state = this.#state
      const previous = state.tenants
      const tenants = await this.#built(world.map((spec) => ({ spec })))
      this.#swap(tenants)
      if (!record) return
      await recorded(state.record, { kind: 'world', tenants: world }, () => {
        if (state.tenants === tenants) state.tenants = previous
      })
    })
  }

  /** Builds a whole new state aside, waiting for any plants still being generated (a failure changes nothing), to {@link #swap} in. */
  async #built(
    tenants: ReadonlyArray<{
      spec: CheckedTenantSpec
      plants?: Iterable<StoredPlant> | undefined
      memory?: TenantMemory | undefined
      provisioned?: boolean
    }>,
  ): Promise<Tenants> {
    const state = this.#state
    const made = tenants.map(({ spec, plants, memory }) => state.build(spec, plants, memory))
    const ready = made.some((tenant) => tenant instanceof Promise) ? await Promise.all(made) : (made as Tenant[])
    const built = state.newTenants()
    const now = state.now()
    for (const [index, { provisioned = false }] of tenants.entries()) built.insert(ready[index]!, { provisioned, now })
    return built
  }

  /** Puts a state built by {@link #built} in place. */
  #swap(tenants: Tenants): void {
    this.#state.tenants = tenants
    this.#failure = undefined
  }
}
