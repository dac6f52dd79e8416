/**
 * The browser's stored world (`setupPlantStoreWorker({ persist: true })`):
 * the store kept in `localStorage` across reloads, every write written
 * through before it is answered, and the tabs of one origin told of each
 * other's writes over a `BroadcastChannel`, so each tab's store follows
 * without a reload. Writers take turns: each reads, changes and writes the
 * stored world holding the origin's Web Lock of its key (issue 42: tabs
 * writing at once lost up to three in four of their answered writes).
 * `localStorage` because it reads synchronously: the stored world is in the
 * store's queue before the worker can answer a single request (the store's
 * own `ready`), so there is no hydration race.
 */
import { buildWorld, generatePlants } from '../../fixtures/world.ts'
import { PlantStoreError } from '../core/errors.ts'
import { type StoreSnapshot, snapshotSchema, type TenantSpec } from '../core/schemas.ts'
import { applyPlantChange, fromSnapshot, memoryAfter, PlantStore, type StoreChange } from '../core/store.ts'
import { lazy, z } from '../core/zod.ts'
import { contract } from '../generated/contract.ts'
import type { CreatePlantStoreOptions } from '../seeded-store.ts'
import { type PersistOptions, storageKeyOf, storedWorldFormat } from './stored-world-key.ts'

export { defaultStorageKey, type PersistOptions, storageKeyOf, storedWorldFormat } from './stored-world-key.ts'

const storedWorldSchema = lazy(() =>
  z.object({
    format: z.literal(storedWorldFormat),
    /** A fingerprint of the world the store was set up with: another set-up world discards the stored one. */
    setup: z.string(),
    snapshot: snapshotSchema,
    provisioned: z.array(z.string()),
  }),
)

type StoredWorld = z.output<typeof storedWorldSchema>

/**
 * What one tab tells the others: this tenant changed, or the whole world
 * did, in the stored world's `revision` (a tab whose `localStorage` does not
 * show that revision yet takes it in on the `storage` event that brings it).
 */
type WorldMessage = ({ readonly tenantId: string } | { readonly all: true }) & { readonly revision: number }

/**
 * The messages of the tabs' channel, checked: any page of the origin can
 * post to it, so anything else (`null`, `"x"`, `42`) is ignored.
 */
const worldMessageSchema = lazy(() =>
  z.union([
    z.strictObject({ tenantId: z.string(), revision: z.int() }),
    z.strictObject({ all: z.literal(true), revision: z.int() }),
  ]),
)

/**
 * Refuses a set-up world beyond the quota provisioning has: a tenant holds
 * at most its quota of seeded plants (`plantsPerTenant`, or a world's
 * `plants`), so a page never generates and stores more than that.
 */
function checkSeededPlants(options: CreatePlantStoreOptions, world: readonly TenantSpec[]): void {
  const defaultQuota = options.quota ?? contract.defaultQuota
  for (const tenant of world) {
    const quota = tenant.quota ?? defaultQuota
    const seeded = typeof tenant.plants === 'number' ? tenant.plants : (tenant.plants?.length ?? 0)
    if (seeded > quota) {
      const asked =
        options.plantsPerTenant === undefined ? `its world gives tenant "${tenant.id}"` : 'plantsPerTenant is'
      throw new PlantStoreError(
        'quota_exceeded',
        `setupPlantStoreWorker({ persist }): ${asked} ${seeded} seeded plants; a tenant holds at most ${quota} (its quota, as for provisioning).`,
      )
    }
  }
}

/** A store whose whole-world changes (`reset`, `load`, `restore`) are stored and told to the other tabs. */
class StoredPlantStore extends PlantStore {
  /** Called after each whole-world change this tab made; settles once it is stored. */
  onWholeChange: () => Promise<void> = async () => undefined
  /** Takes in what another tab stored since this one last read or wrote the stored world. */
  followOtherTabs: () => void = () => undefined

  /**
   * The core asks this before it answers each request: a tab first takes in
   * a change another tab stored (a restore the request then waits for), so
   * no answer is older than a write another tab already answered.
   */
  override get settled(): boolean {
    this.followOtherTabs()
    return super.settled
  }

  override async reset(): Promise<void> {
    await super.reset()
    await this.onWholeChange()
  }

  override async load(world: readonly TenantSpec[]): Promise<void> {
    await super.load(world)
    await this.onWholeChange()
  }

  override async restore(snapshot: StoreSnapshot, provisioned: readonly string[] = []): Promise<void> {
    await super.restore(snapshot, provisioned)
    await this.onWholeChange()
  }

  /** Takes in a world another tab stored, without storing or telling it again. */
  restoreFromStorage(snapshot: StoreSnapshot, provisioned: readonly string[]): Promise<void> {
    return super.restore(snapshot, provisioned)
  }
}

/**
 * A store set up as `createPlantStore(options)` would be, that starts from
 * the stored world when there is a valid one (before it answers anything:
 * `store.ready` includes it), writes each change through to storage, and
 * follows the other tabs' changes. A stored world that is corrupt, from an
 * older format or from another set-up world is discarded with one warning.
 *
 * @example
 * const store = storedPlantStore({ seed: 7 }, { key: 'my-app:plants' })
 * await store.ready // the stored world, or the seeded one
 */
export function storedPlantStore(
  options: CreatePlantStoreOptions & { readonly baseUrl?: string | undefined },
  persist: PersistOptions = {},
): PlantStore {
  const key = storageKeyOf(options, persist)
  const world = options.world ?? buildWorld(options)
  checkSeededPlants(options, world)
  const setup = fingerprint(JSON.stringify([world, options.quota ?? null]))
  // No stored tenant may hold more than a tenant of the set-up world could: what provisioning allows too.
  const maxQuota = Math.max(options.quota ?? contract.defaultQuota, ...world.map(({ quota = 0 }) => quota))
  const storage = new WorldStorage(key, setup, maxQuota)
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(key) : undefined

  const tell = (message: WorldMessage) => channel?.postMessage(message)
  const exclusively = takingTurns(key, () => storage.storedRevision())

  const store: StoredPlantStore = new StoredPlantStore({
    generatePlants,
    world,
    quota: options.quota,
    now: options.now,
    // One tab at a time reads, changes and writes the stored world, and tells the others before the next may.
    persist: async (change) => {
      const swapped = swaps
      await exclusively(() => {
        storage.change(change, () => ({ snapshot: store.snapshot(), provisioned: store.provisionedTenants() }))
        tell({ tenantId: change.tenantId, revision: storage.revision })
      })
      // Another tab's tenant put in place while this write waited its turn: the write lands in the one it
      // replaced, so the stored tenant (which has it) is taken in once it has.
      const written = storage.revision
      if (swaps !== swapped) setTimeout(() => follow(change.tenantId, written))
    },
  })
  store.onWholeChange = () =>
    exclusively(() => {
      storage.save(store.snapshot(), store.provisionedTenants())
      tell({ all: true, revision: storage.revision })
    })

  const saved = storage.read()
  if (saved) {
    store.restoreFromStorage(saved.snapshot, saved.provisioned).catch((error: unknown) => {
      storage.discard(`it could not be loaded (${error instanceof Error ? error.message : String(error)})`)
      return store.reset()
    })
  }

  /** Tenants (or `true`: the world) put in place from storage so far. */
  let swaps = 0
  /**
   * Puts a tenant (or the world) in place as `stored` has it, at revision `at`; once in place, again if a
   * write was stored since (this tab's own too: it may have landed in the tenant this one replaced).
   */
  const takeIn = (what: string | true, stored: StoredWorld, at: number) => {
    let put: Promise<void>
    if (what === true) put = store.restoreFromStorage(stored.snapshot, stored.provisioned)
    else {
      const tenant = stored.snapshot.tenants.find(({ id }) => id === what)
      if (!tenant) return void store.removeTenant(what)
      const { spec, plants, memory } = fromSnapshot(tenant)
      put = store.putTenant(spec, { plants, memory, provisioned: stored.provisioned.includes(what) })
    }
    put.then(
      () => {
        swaps++
        if (storage.storedRevision() > at) follow(what, at + 1)
      },
      () => undefined,
    )
  }

  store.followOtherTabs = () => {
    if (!storage.changedElsewhere()) return
    const stored = storage.read()
    if (stored) takeIn(true, stored, storage.revision)
  }

  /**
   * What the other tabs said changed (a tenant, or `true`: the whole world), with the revision that has it.
   * The message may come before this tab's `localStorage` shows that revision: it waits for the `storage`
   * event that brings it, so a tab never takes in an older tenant and stays there (issue 42).
   */
  const told = new Map<string | true, number>()
  /** Takes in what the tabs told of and `localStorage` shows. */
  const takeInTold = () => {
    if (told.size === 0) return
    const stored = storage.read()
    if (!stored) return
    for (const [what, revision] of told) {
      if (revision > storage.revision) continue
      told.delete(what)
      takeIn(what, stored, storage.revision)
    }
  }
  const follow = (what: string | true, revision: number) => {
    told.set(what, Math.max(told.get(what) ?? 0, revision))
    takeInTold()
  }
  // Told at once, a tab takes in the tenant that changed (or the whole world); a request that comes first takes
  // the change in anyway (followOtherTabs above).
  if (channel) {
    channel.onmessage = ({ data: posted }: MessageEvent<unknown>) => {
      const checked = worldMessageSchema.safeParse(posted)
      if (!checked.success) return
      const data: WorldMessage = checked.data
      follow('all' in data ? true : data.tenantId, data.revision)
    }
    globalThis.addEventListener?.('storage', ({ key: changed }) => {
      if (changed === storage.revisionKey) takeInTold()
    })
  }
  return store
}

/**
 * The tabs' turns at the stored world under `name`: each call runs `task`
 * holding the origin's Web Lock `name` (`navigator.locks`), so their
 * read-change-writes never interleave. A lock alone is not enough:
 * Chromium hands another tab's `localStorage` writes to a tab a moment
 * after they are made, possibly after the lock. So each writer then holds
 * a second lock, `"<name> revision <n>"`, naming the revision it stored,
 * until it stores the next; the next writer asks the lock manager (which
 * every tab sees alike) for the latest, and reads only once its own
 * `localStorage` shows it (waiting at most a second). Where Web Locks are
 * missing (a browser before 2022, an insecure origin, where no service
 * worker runs either) a task runs at once, as for one tab alone.
 *
 * @example
 * const turn = takingTurns('plant-store-mock:world', () => storage.storedRevision())
 * await turn(() => storage.save(snapshot, []))
 */
function takingTurns(name: string, storedRevision: () => number): (task: () => void) => Promise<void> {
  const locks = globalThis.navigator?.locks
  if (!locks) return (task) => Promise.resolve().then(task)
  const mark = `${name} revision `
  let releaseMark: (() => void) | undefined
  return async (task) => {
    await locks.request(name, async () => {
      const { held = [] } = await locks.query()
      const latest = Math.max(
        0,
        ...held.map(({ name: held = '' }) => (held.startsWith(mark) ? revisionNumber(held.slice(mark.length)) : 0)),
      )
      const deadline = Date.now() + 1000
      while (storedRevision() < latest && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 1))
      task()
      const previous = releaseMark
      await new Promise<void>((marked) => {
        void locks.request(`${mark}${storedRevision()}`, { mode: 'shared' }, () => {
          marked()
          return new Promise<void>((release) => {
            releaseMark = release
          })
        })
      })
      previous?.()
    })
  }
}

/** The stored world under one key of `localStorage`: read, checked, written, discarded with one warning. */
class WorldStorage {
  readonly #key: string
  /** Where each save counts one more revision, so a tab knows whether another one saved since. */
  readonly revisionKey: string
  readonly #setup: string
  /** The mark of the stored world this tab last read or wrote. */
  #seen: string | null = null
  #warned = false

  /** The most plants a stored tenant may hold, its quota included. */
  readonly #maxQuota: number

  constructor(key: string, setup: string, maxQuota: number) {
    this.#maxQuota = maxQuota
    this.#key = key
    this.revisionKey = `${key}:revision`
    this.#setup = setup
  }

  /** The revision of the stored world this tab last read or wrote: 0 before the first save. */
  get revision(): number {
    return revisionNumber(this.#seen)
  }

  /** The revision `localStorage` shows now (0 when there is none, or it is denied). */
  storedRevision(): number {
    try {
      return revisionNumber(localStorage.getItem(this.revisionKey))
    } catch {
      return 0
    }
  }

  /** Whether another tab saved since this one last read or wrote (one small read of `localStorage`). */
  changedElsewhere(): boolean {
    try {
      return localStorage.getItem(this.revisionKey) !== this.#seen
    } catch {
      return false
    }
  }

  /** The stored world when there is a valid one for this set-up; a corrupt or foreign one is discarded. */
  read(): StoredWorld | undefined {
    let text: string | null
    try {
      this.#seen = localStorage.getItem(this.revisionKey)
      text = localStorage.getItem(this.#key)
    } catch {
      return undefined // storage denied (e.g. an opaque origin): the mock runs in memory
    }
    if (text === null) return undefined
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      this.discard('it is not valid JSON')
      return undefined
    }
    const format = (value as { format?: unknown } | null)?.format
    if (format !== storedWorldFormat) {
      this.discard(
        `it was stored by another version of plant-store-mock (format ${String(format)}, this one reads ${storedWorldFormat})`,
      )
      return undefined
    }
    const parsed = storedWorldSchema.safeParse(value)
    if (!parsed.success) {
      this.discard(`it does not have the shape of a stored world (${parsed.error.issues[0]?.path.join('.') || 'root'})`)
      return undefined
    }
    if (parsed.data.setup !== this.#setup) {
      this.discard('the mock is now set up with another world (seed, plantsPerTenant, world or quota)')
      return undefined
    }
    const oversized = parsed.data.snapshot.tenants.find(({ quota, seedPlants, plants }) => {
      const seeded = typeof seedPlants === 'number' ? seedPlants : seedPlants.length
      return quota > this.#maxQuota || seeded > quota || plants.length > quota
    })
    if (oversized) {
      // Written by another page of the origin: generating its seeded plants would block this one (a reset does).
      this.discard(`tenant "${oversized.id}" holds more plants than a tenant may (at most ${this.#maxQuota})`)
      return undefined
    }
    return parsed.data
  }

  /** Writes the whole world. */
  save(snapshot: StoreSnapshot, provisioned: readonly string[]): void {
    const stored: StoredWorld = {
      format: storedWorldFormat,
      setup: this.#setup,
      snapshot,
      provisioned: [...provisioned],
    }
    try {
      // One more than the stored world's: what the other tabs' messages are checked against.
      const revision = String(revisionNumber(localStorage.getItem(this.revisionKey)) + 1)
      localStorage.setItem(this.#key, JSON.stringify(stored))
      localStorage.setItem(this.revisionKey, revision)
      this.#seen = revision
    } catch (error) {
      this.#warn(
        `The world could not be stored (${error instanceof Error ? error.name : String(error)}); ` +
          'this tab keeps its changes in memory only.',
      )
    }
  }

  /**
   * Applies one write to the stored world before the store applies it to
   * memory: the tenant as stored (or, if storage lacks it, as this tab holds
   * it) with the change made. Another tab may have stored a plant of that id
   * since this one last heard: the create is refused (`conflict`), never
   * written over the other tab's answered write.
   */
  change(change: StoreChange, inMemory: () => { snapshot: StoreSnapshot; provisioned: readonly string[] }): void {
    const stored = this.read()
    const tenant = stored?.snapshot.tenants.find(({ id }) => id === change.tenantId)
    // A write that found no plant with this id in its tab finds one another tab stored: that tab's write stands.
    if (
      change.kind === 'plant' &&
      change.plant &&
      !change.before &&
      tenant?.plants.some(({ id }) => id === change.id)
    ) {
      throw new PlantStoreError('conflict', `A plant with id ${change.id} already exists.`)
    }
    const { snapshot, provisioned } = (tenant && stored) || inMemory()
    const tenants = snapshot.tenants.map((tenant) =>
      tenant.id === change.tenantId
        ? { ...tenant, plants: applyPlantChange(tenant.plants, change), memory: memoryAfter(tenant.memory, change) }
        : tenant,
    )
    this.save({ tenants }, provisioned)
  }

  /** Removes the stored world, saying why once. */
  discard(why: string): void {
    try {
      localStorage.removeItem(this.#key)
      localStorage.removeItem(this.revisionKey)
      this.#seen = null
    } catch {
      // nothing stored can be removed either
    }
    this.#warn(`Discarded the stored world under "${this.#key}": ${why}. Starting from the set-up world.`)
  }

  /** One console warning per tab at most. */
  #warn(message: string): void {
    if (this.#warned) return
    this.#warned = true
    console.warn(`[plant-store-mock] ${message}`)
  }
}

/** A stored revision as a number: 0 when there is none, or it is not one (another page may write any text). */
function revisionNumber(text: string | null): number {
  return text !== null && /^\d{1,15}$/.test(text) ? Number(text) : 0
}

/** A short stable fingerprint of a text (FNV-1a, 32 bits, hex). */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}
