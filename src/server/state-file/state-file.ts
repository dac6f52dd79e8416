/**
 * The sandbox's state file (`--state-file`): an append-only log of the
 * store's changes, each on disk before it is answered, compacted now and
 * then into one record per tenant (and its plants in chunks).
 *
 * One JSON record a line: a header, then records replayed in order.
 *
 * ```
 * {"format":"plant-store-mock/state","version":2,"savedAt":"…"}
 * {"t":"tenant","tenant":{…spec},"provisioned":false,"listed":true}   a tenant put in place (listed: its plants follow)
 * {"t":"plants","tenant":"acme","plants":[{"id":1,"name":"Fern"},…]}  up to 1,000 of its plants
 * {"t":"put","tenant":"acme","plant":{…}}  {"t":"delete","tenant":"acme","id":1}   a plant after a write, or none
 * {"t":"reset","tenant":"acme"}  {"t":"remove","tenant":"t_…"}  {"t":"clear"}
 * ```
 *
 * What a tenant remembers (`tenant-memory.ts`) is part of its state: a
 * `tenant` record carries it (`"memory":{…}`) when it is not its spec's, and a
 * `put` or `delete` record when the write changed it; a `reset` returns it to
 * its spec's. Files written before memory hold none: every tenant's is its spec's.
 *
 * A `put` is whatever operation wrote the plant (the store's changes are
 * generic): one whose id the tenant holds keeps its place, a new one comes
 * last. Files written before `put` hold `create` records, read as `put`.
 */
import { createReadStream } from 'node:fs'
import { type FileHandle, open, readlink, realpath, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import { JsonBoundsError, parseBoundedJson } from '../../core/bounded-json.ts'
import { PlantStoreError } from '../../core/errors.ts'
import { largestMaxTenants, largestQuota } from '../../core/limits.ts'
import { formatBytes, plantCost } from '../../core/plant-budget.ts'
import {
  type CheckedTenantSpec,
  plantSchema,
  type StoredPlant,
  snapshotSchema,
  tenantSpecSchema,
} from '../../core/schemas.ts'
import {
  fromSnapshot,
  type PlantGenerator,
  type RecordChange,
  type RecordedChange,
  type SavedTenant,
  type TenantMemory,
  tenantMemorySchema,
} from '../../core/store.ts'
import { contract } from '../../generated/contract.ts'
import { lockStateFile, type StateFileLock } from './state-file-lock.ts'
import { createTemporaryBeside, putInPlace, writeFully } from './write-file-atomically.ts'

const format = 'plant-store-mock/state'

/** Plants per `plants` record: a line stays a few hundred kilobytes whatever the tenant holds. */
const plantsPerRecord = 1_000

/** Log bytes appended since the last compaction that start the next: at least this, else the base's size. */
const minCompactionBytes = 256 << 10

/** Bytes gathered before each write of a compaction. */
const compactionChunkBytes = 1 << 20

/**
 * The longest line a state file may hold, in bytes: a `plants` record of 1,000
 * plants at their longest (two strings of 256 code points, 6 bytes each as
 * JSON escapes) is about 3 MiB, a provisioned tenant's record at most its
 * 64 KiB recipe. A longer line is refused unread; a record that would be
 * longer is never written.
 */
const maxStateLineBytes = 16 << 20

/** Plants one tenant of a state file may hold or be seeded with: the largest `--quota` (and more than `--plants` allows). */
const maxTenantPlants = largestQuota

/** Tenants a state file may hold: the largest `--max-tenants`. */
const maxTenants = largestMaxTenants

/** What the smallest plant costs in memory (a 1-character name): a seeded count is counted at it. */
const smallestPlantCost = plantCost({ id: 1, name: 'x' })

/** Compactions tried at most this often while the file needs one to be whole again (a failed write). */
const retryMs = 1_000

const headerSchema = z.object({ format: z.literal(format), version: z.literal(2), savedAt: z.string() })

/** The version 1 file: the whole store in one JSON document (read once, then compacted into the log). */
const legacySchema = z.object({
  format: z.literal(format),
  version: z.literal(1),
  savedAt: z.string(),
  provisioned: z.array(z.string()),
  store: snapshotSchema,
})

const recordSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('tenant'),
    tenant: tenantSpecSchema,
    provisioned: z.boolean(),
    /** Whether its plants follow in `plants` records; else it holds its seeded plants. */
    listed: z.boolean(),
    /** What it remembers, when not its spec's `memory`. */
    memory: z.optional(tenantMemorySchema),
  }),
  // Each plant checked by `checkedPlant`: the same schema, with a quick path for the common case.
  z.object({ t: z.literal('plants'), tenant: z.string(), plants: z.array(z.unknown()) }),
  z.object({ t: z.literal('put'), tenant: z.string(), plant: plantSchema, memory: z.optional(tenantMemorySchema) }),
  // Written before `put` (a create, the only write then that stored a plant): read as one.
  z.object({ t: z.literal('create'), tenant: z.string(), plant: plantSchema }),
  z.object({ t: z.literal('delete'), tenant: z.string(), id: z.number(), memory: z.optional(tenantMemorySchema) }),
  z.object({ t: z.literal('reset'), tenant: z.string() }),
  z.object({ t: z.literal('remove'), tenant: z.string() }),
  z.object({ t: z.literal('clear') }),
])
type StateRecord = z.output<typeof recordSchema>

/**
 * A state file that cannot be used: damaged, beyond the bounds a sandbox
 * holds, in use by another sandbox, or not writable. The file is left
 * untouched: the sandbox refuses to start rather than overwrite it.
 * `exitCode` is what the CLI exits with: 2 for a file beyond the bounds or in
 * use (set-up, like a bad flag), 1 for damage or a disk that refuses it.
 *
 * @example
 * try { await StateLog.open('state.jsonl', options) } catch (e) { if (e instanceof StateFileError) process.exit(e.exitCode) }
 */
export class StateFileError extends Error {
  readonly path: string
  readonly exitCode: 1 | 2
  constructor(
    path: string,
    reason: string,
    exitCode: 1 | 2 = 1,
    advice = 'fix or remove it, or choose another --state-file',
  ) {
    super(`The state file ${path} cannot be loaded: ${reason}. It was left untouched; ${advice}.`)
    this.name = 'StateFileError'
    this.path = path
    this.exitCode = exitCode
  }
}

/** A file beyond the bounds: exit code 2. */
const beyond = (path: string, reason: string) => new StateFileError(path, reason, 2)

export interface StateLogOptions {
  /** Makes a tenant's seeded plants (a record may say "its seeded plants" instead of listing them). */
  generatePlants: PlantGenerator
  /** Told once when a torn last record (a write a crash cut short, never acknowledged) is ignored. */
  warn: (message: string) => void
  /**
   * Bytes the file's plants may take, each counted at the smallest a plant
   * costs (see `plantCost`): beyond, the file is refused before its plants are
   * made (default: no bound but the per-tenant one).
   */
  maxPlantBytes?: number
}

/** What {@link StateLog.open} found. */
export interface OpenedStateLog {
  readonly log: StateLog
  /** The tenants the file holds; `undefined` when there was no file yet (or an empty one). */
  readonly saved: readonly SavedTenant[] | undefined
}

/** A tenant while the log is replayed: its plants by id once a change needs them (`undefined`: still its seeded ones). */
interface Replayed {
  spec: CheckedTenantSpec
  plants: Map<number, StoredPlant> | undefined
  /** What it remembers; `undefined`: its spec's. */
  memory: TenantMemory | undefined
  provisioned: boolean
}

/**
 * The state file as an append-only log. {@link record} is the store's
 * {@link RecordChange} hook: each change is appended and flushed to disk
 * (`fdatasync`) before it resolves, the changes arriving meanwhile
 * together (one flush for all of them). Once the log has grown past its
 * last compacted size (and 256 KiB) it is compacted: the store's tenants
 * are written record by record to a new file beside it, flushed, renamed
 * over it. One writer does all of it, one step after another.
 *
 * What the disk refuses (`ENOSPC`, `EIO`, a short write, a failed flush) is
 * never acknowledged: the changes of that write are rejected (`storage_unavailable`,
 * 503; the store undoes them) and the file is cut back to its last whole
 * record, so memory and file hold the same again. When it cannot be cut back,
 * or a compaction's rename may not be on disk, the file is *broken*: every
 * write is refused until a compaction (tried at most once a second, with the
 * next write) has written the whole state anew from memory.
 *
 * The path's links are resolved once, at {@link open}: compactions write
 * beside the real file and rename over it, so a link stays a link. A lock
 * (`<real file>.lock`) keeps a second sandbox off the same file.
 *
 * @example
 * const { log, saved } = await StateLog.open('.sandbox-state.jsonl', { generatePlants, warn: console.warn })
 * const store = createPlantStore({ record: log.record })
 * if (saved) await store.restoreTenants(saved)
 * await log.start(() => store.savedTenants())
 */
export class StateLog {
  /** The real file, its links resolved at start. */
  readonly #path: string
  readonly #lock: StateFileLock
  #file: FileHandle | undefined
  /** The file's length up to its last whole record. */
  #length: number
  /** Bytes appended since the last compaction, and the size it left. */
  #appended = 0
  #baseBytes: number
  #source: (() => Iterable<SavedTenant>) | undefined
  /** Whether the writer compacts at its next step (no file yet, a version 1 file, closing, a failed write). */
  #compactRequested: boolean
  /** Lines waiting for the next flush, with who waits for them. */
  #lines: string[] = []
  #waiting: Waiter[] = []
  #writer: Promise<void> | undefined
  /** Why the file may not hold what memory holds: every write is refused until a compaction succeeds. */
  #broken: Error | undefined
  /** When a compaction may next be tried after a failed one (broken, or asked for by a failed write). */
  #retryAt = 0

  private constructor(
    path: string,
    lock: StateFileLock,
    file: FileHandle | undefined,
    length: number,
    compact: boolean,
  ) {
    this.#path = path
    this.#lock = lock
    this.#file = file
    this.#length = length
    this.#baseBytes = length
    this.#compactRequested = compact
  }

  /**
   * Resolves the path's links, takes the file's lock, then reads it record
   * by record (never as one string, no line longer than
   * {@link maxStateLineBytes}): the tenants it holds, or `undefined` when
   * there is none yet. A torn last record (no newline after it) is dropped
   * with one warning; anything else unreadable, or beyond the bounds, is a
   * {@link StateFileError} and the file is left untouched.
   */
  static async open(path: string, options: StateLogOptions): Promise<OpenedStateLog> {
    let real: string
    try {
      real = await resolvedPath(path)
    } catch (error) {
      throw new StateFileError(path, (error as Error).message)
    }
    let lock: StateFileLock | { heldBy: number }
    try {
      lock = await lockStateFile(real)
    } catch (error) {
      throw new StateFileError(path, `its lock file ${real}.lock cannot be made (${(error as Error).message})`)
    }
    if ('heldBy' in lock) {
      throw new StateFileError(
        path,
        `another sandbox (pid ${lock.heldBy}) is using it`,
        2,
        `stop that one, or choose another --state-file (if no sandbox runs, remove ${real}.lock)`,
      )
    }
    try {
      return await StateLog.#opened(path, real, lock, options)
    } catch (error) {
      await lock.release()
      throw error
    }
  }

  static async #opened(
    path: string,
    real: string,
    lock: StateFileLock,
    options: StateLogOptions,
  ): Promise<OpenedStateLog> {
    let file: FileHandle
    try {
      file = await open(real, 'r+')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new StateFileError(path, (error as Error).message)
      return { log: new StateLog(real, lock, undefined, 0, true), saved: undefined }
    }
    try {
      // An empty file (made with `touch`, say) holds nothing to lose: a new one is written in its place.
      if ((await file.stat()).size === 0) {
        await file.close()
        return { log: new StateLog(real, lock, undefined, 0, true), saved: undefined }
      }
      const { saved, length, torn, legacy } = await replay(path, real, options)
      if (torn !== undefined) {
        options.warn(
          `The state file ${path} ends with a torn record at line ${torn} (a write cut short by a crash, never acknowledged): it was ignored.`,
        )
        await file.truncate(length)
        await file.datasync()
      }
      return { log: new StateLog(real, lock, file, length, legacy), saved }
    } catch (error) {
      await file.close()
      throw error
    }
  }

  /**
   * The store's write-through hook: resolves once the change is on disk;
   * rejects with `storage_unavailable` (503) when it could not be written,
   * `sandbox_full` (507) when its record would be longer than a line may be.
   */
  readonly record: RecordChange = (change) => {
    if (this.#broken && (Date.now() < this.#retryAt || !this.#source)) return Promise.reject(unavailable(this.#broken))
    const lines = recordsOf(change)
    const tooLong = lines.find(isTooLong)
    if (tooLong !== undefined) return Promise.reject(tooLongError(tooLong))
    for (const line of lines) this.#lines.push(line)
    const written = new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }))
    this.#run()
    return written
  }

  /**
   * Starts writing: `source` gives the store's tenants when it compacts.
   * Without a file yet (or with a version 1 file) it compacts at once, so
   * that the file holds the whole state before anything is appended.
   */
  async start(source: () => Iterable<SavedTenant>): Promise<void> {
    if (this.#compactRequested) {
      this.#compactRequested = false
      try {
        await this.#compact(source)
      } catch (error) {
        await this.#lock.release()
        throw new StateFileError(this.#path, `it cannot be written (${(error as Error).message})`)
      }
    }
    this.#source = source
  }

  /**
   * Waits for the writes under way, compacts if anything was appended (a
   * quick next start) or the file is broken, closes the file and releases
   * its lock.
   */
  async close(): Promise<void> {
    if (this.#appended > 0 || this.#broken) this.#compactRequested = true
    this.#retryAt = 0
    await this.#run()
    await this.#file?.close()
    this.#file = undefined
    await this.#lock.release()
  }

  /** Closes the file and releases its lock, writing nothing: for a start that failed after {@link open}. */
  async abandon(): Promise<void> {
    await this.#file?.close()
    this.#file = undefined
    await this.#lock.release()
  }

  /** Runs the writer unless it runs already; settles when it has nothing left to do. */
  #run(): Promise<void> {
    this.#writer ??= this.#write().finally(() => {
      this.#writer = undefined
      if (this.#lines.length > 0) void this.#run()
    })
    return this.#writer
  }

  /** The lines waiting and who waits for them, taken out to be written. */
  #take(): { lines: string[]; waiting: Waiter[] } {
    const taken = { lines: this.#lines, waiting: this.#waiting }
    this.#lines = []
    this.#waiting = []
    return taken
  }

  /** Writes the waiting lines (and whatever arrives meanwhile) in as few flushes as it can, compacting when due. */
  async #write(): Promise<void> {
    // Let the changes of this turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve))
    for (;;) {
      const due = this.#appended > Math.max(minCompactionBytes, this.#baseBytes)
      const wanted = (this.#compactRequested || due || this.#broken !== undefined) && this.#source !== undefined
      if (wanted && Date.now() >= this.#retryAt) {
        // The waiting lines go into the compaction: its success is theirs.
        await this.#tryCompacting(this.#source as () => Iterable<SavedTenant>)
        continue
      }
      if (this.#lines.length === 0) return
      const { lines, waiting } = this.#take()
      if (this.#broken) {
        for (const { reject } of waiting) reject(unavailable(this.#broken))
        continue
      }
      try {
        await this.#append(lines)
        for (const { resolve } of waiting) resolve()
      } catch (error) {
        for (const { reject } of waiting) reject(unavailable(error as Error))
      }
    }
  }

  /** Compacts; a failure is logged and tried again later (at once for a due compaction that grows again, else in a second). */
  async #tryCompacting(source: () => Iterable<SavedTenant>): Promise<void> {
    this.#compactRequested = false
    try {
      await this.#compact(source)
      this.#broken = undefined
    } catch (error) {
      // Unless broken, the log as it was stays whole and in use; compaction is tried again once as much is
      // appended, or in a second when a failed write asked for it.
      this.#appended = 0
      this.#retryAt = Date.now() + retryMs
      process.emitWarning(`plant-store-mock: compacting ${this.#path} failed: ${(error as Error).message}`)
    }
  }

  /**
   * Appends lines and flushes them to disk. On failure the file is cut back
   * to its last whole record (and flushed), or else it is broken; either
   * way a compaction is asked for (the changes that no waiter undoes, an
   * eviction say, are then written from memory).
   */
  async #append(lines: readonly string[]): Promise<void> {
    const file = this.#file
    if (!file) throw new Error('the state file is not open')
    const bytes = Buffer.from(`${lines.join('\n')}\n`)
    try {
      await writeFully(file, bytes, this.#length)
      await file.datasync()
    } catch (error) {
      this.#compactRequested = true
      this.#retryAt = Date.now() + retryMs
      try {
        await file.truncate(this.#length)
        await file.datasync()
      } catch {
        this.#broken = error as Error
        this.#retryAt = 0
      }
      throw error
    }
    this.#length += bytes.length
    this.#appended += bytes.length
  }

  /**
   * Writes the store's tenants to a new file beside the log (exclusive,
   * unpredictable name, mode 0600), a record at a time in chunks of about
   * 1 MiB, every write checked; then the lines waiting meanwhile; flushes
   * it, checks its size, renames it over the log and flushes the folder,
   * then appends there. A failure before the rename leaves the log as it
   * was (the waiting lines go back to be appended to it). Memory goes on
   * changing meanwhile (the answers wait): each change made during it is
   * also in the lines written after the tenants, and every record replays as
   * a blind write (a plant set or removed, a tenant put in place or removed,
   * a reset), so replaying them over tenants that already hold some of them
   * gives the same state.
   */
  async #compact(source: () => Iterable<SavedTenant>): Promise<void> {
    const temporary = await createTemporaryBeside(this.#path, 0o600)
    const { file } = temporary
    let length = 0
    let taken: { lines: string[]; waiting: Waiter[] } | undefined
    let renamed = false
    try {
      let chunk: string[] = [JSON.stringify({ format, version: 2, savedAt: new Date().toISOString() })]
      let chunkLength = 0
      const write = async () => {
        const bytes = Buffer.from(`${chunk.join('\n')}\n`)
        chunk = []
        chunkLength = 0
        await writeFully(file, bytes, length)
        length += bytes.length
      }
      for (const tenant of source()) {
        for (const line of tenantRecords(tenant.spec, tenant.provisioned, tenant.plants ?? [], tenant.memory)) {
          if (isTooLong(line)) throw tooLongError(line)
          chunk.push(line)
          chunkLength += line.length
          if (chunkLength >= compactionChunkBytes) await write()
        }
      }
      taken = this.#take()
      chunk.push(...taken.lines)
      if (chunk.length > 0) await write()
      await putInPlace(temporary, this.#path, length, () => {
        renamed = true
      })
    } catch (error) {
      if (!renamed) {
        await file.close()
        await rm(temporary.path, { force: true })
        if (taken) {
          this.#lines.unshift(...taken.lines)
          this.#waiting.unshift(...taken.waiting)
        }
        throw error
      }
      // In place, but its folder not flushed: a crash could bring back the old file. Nothing more is
      // acknowledged until a compaction has made it whole again.
      this.#switchTo(file, length)
      this.#broken = error as Error
      this.#retryAt = Date.now() + retryMs
      for (const { reject } of taken?.waiting ?? []) reject(unavailable(error as Error))
      throw error
    }
    this.#switchTo(file, length)
    for (const { resolve } of taken?.waiting ?? []) resolve()
  }

  /** Appends go to this file now (the compacted one, at `path`). */
  #switchTo(file: FileHandle, length: number): void {
    const previous = this.#file
    this.#file = file
    this.#length = length
    this.#baseBytes = length
    this.#appended = 0
    previous?.close().catch(() => undefined)
  }
}

/** Who waits for a write. */
interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * The file a path names, its links resolved (all of them, once): the real
 * file, or where it would be made when there is none yet (a link to a file
 * not made yet is followed too).
 */
async function resolvedPath(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  let target = resolve(path)
  for (let hops = 0; hops < 40; hops++) {
    let link: string
    try {
      link = await readlink(target)
    } catch {
      break // not a link (or not there): the file to make
    }
    target = resolve(dirname(target), link)
  }
  return join(await realpath(dirname(target)), basename(target))
}

/** Whether a line is longer than a line of the state file may be (its UTF-8 bytes, counted only when it could be). */
function isTooLong(line: string): boolean {
  return line.length * 3 > maxStateLineBytes && Buffer.byteLength(line) > maxStateLineBytes
}

/** The `sandbox_full` (507) answer to a change whose record would be longer than a line may be. */
function tooLongError(line: string): PlantStoreError {
  return new PlantStoreError(
    'sandbox_full',
    `The state file cannot hold a record of ${formatBytes(Buffer.byteLength(line))} (at most ${formatBytes(maxStateLineBytes)} a line); nothing changed.`,
  )
}

/** The `storage_unavailable` (503) answer to a write the state file could not take. */
function unavailable(cause: Error): PlantStoreError {
  return new PlantStoreError(
    'storage_unavailable',
    `The state file could not be written (${cause.message}); nothing changed.`,
    { 'retry-after': '1' },
  )
}

/** A store's change as the log's lines. */
function recordsOf(change: RecordedChange): string[] {
  switch (change.kind) {
    case 'plant': {
      const memory = change.memory === undefined ? {} : { memory: change.memory }
      return [
        change.plant
          ? JSON.stringify({ t: 'put', tenant: change.tenantId, plant: change.plant, ...memory })
          : JSON.stringify({ t: 'delete', tenant: change.tenantId, id: change.id, ...memory }),
      ]
    }
    case 'reset':
      // Back to its seeded plants and memory, which its tenant record says how to make.
      return [JSON.stringify({ t: 'reset', tenant: change.tenantId })]
    case 'remove':
      return [JSON.stringify({ t: 'remove', tenant: change.tenantId })]
    case 'tenant':
      return [...tenantRecords(change.spec, change.provisioned, change.plants, change.memory)]
    case 'world':
      return [JSON.stringify({ t: 'clear' }), ...change.tenants.flatMap((spec) => [...tenantRecords(spec, false)])]
  }
}

/**
 * A tenant's record (with what it remembers, when that is not its spec's
 * memory), then its plants in records of {@link plantsPerRecord} when they are listed.
 */
function* tenantRecords(
  spec: CheckedTenantSpec,
  provisioned: boolean,
  plants?: Iterable<StoredPlant>,
  memory?: TenantMemory,
): Generator<string> {
  const remembered =
    memory === undefined || JSON.stringify(memory) === JSON.stringify(spec.memory ?? {}) ? {} : { memory }
  yield JSON.stringify({ t: 'tenant', tenant: spec, provisioned, listed: plants !== undefined, ...remembered })
  if (plants === undefined) return
  let batch: StoredPlant[] = []
  for (const plant of plants) {
    batch.push(plant)
    if (batch.length === plantsPerRecord) {
      yield JSON.stringify({ t: 'plants', tenant: spec.id, plants: batch })
      batch = []
    }
  }
  if (batch.length > 0) yield JSON.stringify({ t: 'plants', tenant: spec.id, plants: batch })
}

/**
 * Reads the file line by line and replays it: the tenants it holds, the
 * length up to its last whole record, and the line of a torn last record
 * (the only line that may lack its newline: every write ends with one, so a
 * crash can cut short only the last). Bounded as provisioning is: no line
 * longer than {@link maxStateLineBytes}, no tenant of more than
 * {@link maxTenantPlants} plants (seeded or held), no more than
 * {@link maxTenants} tenants, and all their plants, counted at the smallest a
 * plant costs, within `maxPlantBytes`; each checked before any plant is made.
 */
async function replay(
  path: string,
  real: string,
  { generatePlants, maxPlantBytes = Number.POSITIVE_INFINITY }: StateLogOptions,
): Promise<{ saved: SavedTenant[]; length: number; torn: number | undefined; legacy: boolean }> {
  const tenants = new Map<string, Replayed>()
  let line = 0
  /** Plants of every tenant, seeded ones counted before they are made. */
  let total = 0
  const countOf = (tenant: Replayed) => tenant.plants?.size ?? seededCount(tenant.spec)
  const checkTenant = (spec: CheckedTenantSpec) => {
    const plants = seededCount(spec)
    if (plants > maxTenantPlants || (spec.quota ?? 0) > maxTenantPlants) {
      const what =
        plants > maxTenantPlants
          ? `starts with ${plants.toLocaleString('en')} plants`
          : `has a quota of ${(spec.quota ?? 0).toLocaleString('en')}`
      throw beyond(
        path,
        `line ${line}: tenant ${JSON.stringify(spec.id.slice(0, 40))} ${what}, beyond the ${maxTenantPlants.toLocaleString('en')} plants a tenant may hold`,
      )
    }
  }
  const checkTotals = (tenant?: Replayed) => {
    if (tenant && countOf(tenant) > maxTenantPlants) {
      throw beyond(
        path,
        `line ${line}: tenant ${JSON.stringify(tenant.spec.id.slice(0, 40))} holds more than the ${maxTenantPlants.toLocaleString('en')} plants a tenant may hold`,
      )
    }
    if (tenants.size > maxTenants) {
      throw beyond(path, `line ${line}: it holds more than ${maxTenants.toLocaleString('en')} tenants`)
    }
    if (total * smallestPlantCost > maxPlantBytes) {
      throw beyond(
        path,
        `line ${line}: its ${total.toLocaleString('en')} plants would take at least ${formatBytes(total * smallestPlantCost)}, beyond the ${formatBytes(maxPlantBytes)} the sandbox's plants may take (--plant-bytes-total)`,
      )
    }
  }
  const plantsOf = async (tenant: Replayed) => {
    if (tenant.plants) return tenant.plants
    const { seed, plants } = tenant.spec
    // Seeded plants come from the generator, which may first have to load (faker loads on demand).
    const initial = typeof plants === 'number' ? await generatePlants(seed, plants) : plants
    tenant.plants = new Map(initial.map((plant) => [plant.id, plant]))
    return tenant.plants
  }
  const apply = async (record: StateRecord) => {
    if (record.t === 'clear') {
      tenants.clear()
      total = 0
      return
    }
    if (record.t === 'tenant') {
      checkTenant(record.tenant)
      const previous = tenants.get(record.tenant.id)
      if (previous) total -= countOf(previous)
      tenants.delete(record.tenant.id) // put in place: last in creation order, as the store does
      const tenant: Replayed = {
        spec: record.tenant,
        plants: record.listed ? new Map() : undefined,
        memory: record.memory,
        provisioned: record.provisioned,
      }
      tenants.set(record.tenant.id, tenant)
      total += countOf(tenant)
      return checkTotals(tenant)
    }
    const tenant = tenants.get(record.tenant)
    // A write racing its tenant's removal may follow it: it changes nothing, as it did in memory.
    if (!tenant) return
    const before = countOf(tenant)
    switch (record.t) {
      case 'plants': {
        const plants = await plantsOf(tenant)
        for (const value of record.plants) {
          const plant = checkedPlant(value)
          plants.set(plant.id, plant)
        }
        break
      }
      case 'put':
      case 'create':
        // A Map keeps the place of a key it holds: an updated plant stays where it was, a new one comes last.
        ;(await plantsOf(tenant)).set(record.plant.id, record.plant)
        if (record.t === 'put' && record.memory) tenant.memory = record.memory
        break
      case 'delete':
        ;(await plantsOf(tenant)).delete(record.id)
        if (record.memory) tenant.memory = record.memory
        break
      case 'reset':
        tenant.plants = undefined
        tenant.memory = undefined
        break
      case 'remove':
        tenants.delete(record.tenant)
        total -= before
        return
    }
    total += countOf(tenant) - before
    checkTotals(tenant)
  }

  let length = 0
  let torn: number | undefined
  let legacy: SavedTenant[] | undefined
  try {
    for await (const { text, end, terminated } of lines(real)) {
      line++
      // A record is written with its newline: only the last line can lack it, cut short by a crash (never the
      // header: a file is only made whole, renamed into place).
      if (!terminated && line > 1) {
        torn = line
        break
      }
      let value: unknown
      try {
        value = parseBoundedJson(text)
      } catch (error) {
        const where = line === 1 ? 'it' : `line ${line}`
        if (error instanceof JsonBoundsError) throw beyond(path, `${where} ${error.message.replace(/^it /, '')}`)
        throw new StateFileError(path, `${where} is not valid JSON`)
      }
      if (line === 1) {
        const legacyFile = legacySchema.safeParse(value)
        if (legacyFile.success) {
          legacy = legacyTenants(legacyFile.data)
          // Bounded as a log is: each tenant as it is put in place, then all of them together.
          for (const { spec, plants } of legacy) {
            checkTenant(spec)
            const replayed: Replayed = { spec, plants: undefined, memory: undefined, provisioned: false }
            if (plants) replayed.plants = new Map([...plants].map((plant: StoredPlant) => [plant.id, plant]))
            tenants.set(spec.id, replayed)
            total += countOf(replayed)
            checkTotals(replayed)
          }
          tenants.clear()
          length = end
          continue
        }
        const header = headerSchema.safeParse(value)
        if (!header.success) throw new StateFileError(path, `it is not a ${format} file (${describe(header.error)})`)
      } else {
        if (legacy) throw new StateFileError(path, `line ${line} follows a version 1 state`)
        const record = recordSchema.safeParse(value)
        if (!record.success)
          throw new StateFileError(path, `line ${line} is not a state record (${describe(record.error)})`)
        try {
          await apply(record.data)
        } catch (error) {
          if (!(error instanceof InvalidRecord)) throw error
          throw new StateFileError(path, `line ${line} is not a state record (plants: ${error.message})`)
        }
      }
      length = end
    }
  } catch (error) {
    if (!(error instanceof LineTooLong)) throw error
    throw beyond(path, `line ${line + 1} is longer than ${formatBytes(error.limit)}, the longest a line may be`)
  }
  if (legacy) return { saved: legacy, length, torn: undefined, legacy: true }
  const saved = [...tenants.values()].map(({ spec, plants, memory, provisioned }) => ({
    spec,
    plants: plants?.values(),
    memory,
    provisioned,
  }))
  return { saved, length, torn, legacy: false }
}

/** How many plants a tenant's recipe starts it with. */
function seededCount(spec: CheckedTenantSpec): number {
  return typeof spec.plants === 'number' ? spec.plants : spec.plants.length
}

/**
 * A plant of a `plants` record, checked by {@link plantSchema}; one with no
 * other fields, an integer id in range and a name and tag whose UTF-16
 * lengths are within the code point limits (so their code point counts are
 * too) passes without it: the schema costs more than reading the file.
 */
function checkedPlant(value: unknown): StoredPlant {
  if (typeof value === 'object' && value !== null) {
    const { id, name, tag, ...rest } = value as Record<string, unknown>
    if (
      Number.isInteger(id) &&
      (id as number) >= contract.id.minimum &&
      (id as number) <= contract.id.maximum &&
      typeof name === 'string' &&
      name.length >= contract.name.minLength &&
      name.length <= contract.name.maxLength &&
      (tag === undefined || (typeof tag === 'string' && tag.length <= contract.tag.maxLength)) &&
      Object.keys(rest).length === 0
    ) {
      return value as StoredPlant
    }
  }
  const result = plantSchema.safeParse(value)
  if (!result.success) throw new InvalidRecord(describe(result.error))
  return result.data
}

/** A record whose JSON parsed but whose content is not what the log writes. */
class InvalidRecord extends Error {}

/** The tenants of a version 1 state file. */
function legacyTenants({ store, provisioned }: z.output<typeof legacySchema>): SavedTenant[] {
  const isProvisioned = new Set(provisioned)
  return store.tenants.map((tenant) => {
    const { spec, plants, memory } = fromSnapshot(tenant)
    return { spec: tenantSpecSchema.parse(spec), plants, memory, provisioned: isProvisioned.has(tenant.id) }
  })
}

/** The first issue of a failed parse, as `path: message`. */
function describe(error: { readonly issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]
  return `${issue?.path.join('.') || 'root'}: ${issue?.message}`
}

/** The longest a version 1 file (one JSON document, on its first line) can be: V8's longest string. */
const maxLegacyBytes = (1 << 29) - 24

/** How a version 1 file begins (it was written by `JSON.stringify`, keys in this order). */
const legacyStart = Buffer.from(`{"format":"${format}","version":1,`)

/** A line longer than a line may be: refused before it is read whole. */
class LineTooLong extends Error {
  readonly limit: number
  constructor(limit: number) {
    super(`a line is longer than ${limit} bytes`)
    this.limit = limit
  }
}

/**
 * A file's lines, read in chunks: each line's text, the byte offset where
 * it ends (after its newline) and whether it had one (the last may not). A
 * line's pieces are kept until its newline and joined once; a line longer
 * than {@link maxStateLineBytes} (a version 1 file's first line: V8's longest
 * string) throws {@link LineTooLong} as soon as it is, unread beyond.
 */
async function* lines(path: string): AsyncGenerator<{ text: string; end: number; terminated: boolean }> {
  let pieces: Buffer[] = []
  let pending = 0
  let offset = 0
  let first = true
  let limit = maxStateLineBytes
  const text = (last: Buffer) =>
    pieces.length === 0 ? last.toString('utf8') : Buffer.concat([...pieces, last]).toString('utf8')
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    if (first) limit = chunk.subarray(0, legacyStart.length).equals(legacyStart) ? maxLegacyBytes : maxStateLineBytes
    first = false
    let start = 0
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const size = pending + newline - start
      if (size > limit) throw new LineTooLong(limit)
      offset += size + 1
      yield { text: text(chunk.subarray(start, newline)), end: offset, terminated: true }
      pieces = []
      pending = 0
      limit = maxStateLineBytes
      start = newline + 1
    }
    if (start < chunk.length) {
      pending += chunk.length - start
      if (pending > limit) throw new LineTooLong(limit)
      pieces.push(chunk.subarray(start))
    }
  }
  if (pending > 0) yield { text: text(Buffer.alloc(0)), end: offset + pending, terminated: false }
}
