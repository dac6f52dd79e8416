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
 * {"t":"create","tenant":"acme","plant":{…}}  {"t":"delete","tenant":"acme","id":1}
 * {"t":"reset","tenant":"acme"}  {"t":"remove","tenant":"t_…"}  {"t":"clear"}
 * ```
 */
import { createReadStream } from 'node:fs'
import { type FileHandle, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import { PlantStoreError } from '../core/errors.ts'
import {
  type CheckedTenantSpec,
  plantSchema,
  type StoredPlant,
  snapshotSchema,
  tenantSpecSchema,
} from '../core/schemas.ts'
import type { PlantGenerator, RecordChange, RecordedChange, SavedTenant } from '../core/store.ts'
import { contract } from '../generated/contract.ts'

const format = 'plant-store-mock/state'

/** Plants per `plants` record: a line stays a few hundred kilobytes whatever the tenant holds. */
const plantsPerRecord = 1_000

/** Log bytes appended since the last compaction that start the next: at least this, else the base's size. */
const minCompactionBytes = 256 << 10

/** Bytes gathered before each write of a compaction. */
const compactionChunkBytes = 1 << 20

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
  }),
  // Each plant checked by `checkedPlant`: the same schema, with a quick path for the common case.
  z.object({ t: z.literal('plants'), tenant: z.string(), plants: z.array(z.unknown()) }),
  z.object({ t: z.literal('create'), tenant: z.string(), plant: plantSchema }),
  z.object({ t: z.literal('delete'), tenant: z.string(), id: z.number() }),
  z.object({ t: z.literal('reset'), tenant: z.string() }),
  z.object({ t: z.literal('remove'), tenant: z.string() }),
  z.object({ t: z.literal('clear') }),
])
type StateRecord = z.output<typeof recordSchema>

/**
 * A state file that exists but cannot be used. The file is left untouched:
 * the sandbox refuses to start rather than overwrite it.
 *
 * @example
 * try { await StateLog.open('state.jsonl', options) } catch (e) { if (e instanceof StateFileError) process.exit(1) }
 */
export class StateFileError extends Error {
  readonly path: string
  constructor(path: string, reason: string) {
    super(
      `The state file ${path} cannot be loaded: ${reason}. It was left untouched; fix or remove it, or choose another --state-file.`,
    )
    this.name = 'StateFileError'
    this.path = path
  }
}

export interface StateLogOptions {
  /** Makes a tenant's seeded plants (a record may say "its seeded plants" instead of listing them). */
  generatePlants: PlantGenerator
  /** Told once when a torn last record (a write a crash cut short, never acknowledged) is ignored. */
  warn: (message: string) => void
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
  provisioned: boolean
}

/**
 * The state file as an append-only log. {@link record} is the store's
 * {@link RecordChange} hook: each change is appended and flushed to disk
 * (`fdatasync`) before it resolves, the changes arriving meanwhile
 * together (one flush for all of them). Once the log has grown past its
 * last compacted size (and 256 KiB) it is compacted: the store's tenants
 * are written record by record to a temporary file, flushed, renamed over
 * it. One writer does all of it, one step after another.
 *
 * @example
 * const { log, saved } = await StateLog.open('.sandbox-state.jsonl', { generatePlants, warn: console.warn })
 * const store = createPlantStore({ record: log.record })
 * if (saved) await store.restoreTenants(saved)
 * await log.start(() => store.savedTenants())
 */
export class StateLog {
  readonly #path: string
  #file: FileHandle | undefined
  /** The file's length up to its last whole record. */
  #length: number
  /** Bytes appended since the last compaction, and the size it left. */
  #appended = 0
  #baseBytes: number
  #source: (() => Iterable<SavedTenant>) | undefined
  /** Whether the writer compacts at its next step (no file yet, a version 1 file, closing). */
  #compactRequested: boolean
  /** Lines waiting for the next flush, with who waits for them. */
  #lines: string[] = []
  #waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = []
  #writer: Promise<void> | undefined
  /** Why the file can no longer be written (a failed write that could not be undone): every write is refused. */
  #broken: Error | undefined

  private constructor(path: string, file: FileHandle | undefined, length: number, compact: boolean) {
    this.#path = path
    this.#file = file
    this.#length = length
    this.#baseBytes = length
    this.#compactRequested = compact
  }

  /**
   * Reads the state file, record by record (never as one string): the
   * tenants it holds, or `undefined` when there is none yet. A torn last
   * record is dropped with one warning; anything else unreadable is a
   * {@link StateFileError} and the file is left untouched.
   */
  static async open(path: string, options: StateLogOptions): Promise<OpenedStateLog> {
    let file: FileHandle
    try {
      file = await open(path, 'r+')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new StateFileError(path, (error as Error).message)
      return { log: new StateLog(path, undefined, 0, true), saved: undefined }
    }
    try {
      // An empty file (made with `touch`, say) holds nothing to lose: a new one is written in its place.
      if ((await file.stat()).size === 0) {
        await file.close()
        return { log: new StateLog(path, undefined, 0, true), saved: undefined }
      }
      const { saved, length, torn, legacy } = await replay(path, options.generatePlants)
      if (torn !== undefined) {
        options.warn(
          `The state file ${path} ends with a torn record at line ${torn} (a write cut short by a crash, never acknowledged): it was ignored.`,
        )
        await file.truncate(length)
        await file.datasync()
      }
      return { log: new StateLog(path, file, length, legacy), saved }
    } catch (error) {
      await file.close()
      throw error
    }
  }

  /**
   * The store's write-through hook: resolves once the change is on disk;
   * rejects with `storage_unavailable` (503) when it could not be written.
   */
  readonly record: RecordChange = (change) => {
    if (this.#broken) return Promise.reject(unavailable(this.#broken))
    for (const line of recordsOf(change)) this.#lines.push(line)
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
        throw new StateFileError(this.#path, `it cannot be written (${(error as Error).message})`)
      }
    }
    this.#source = source
  }

  /** Waits for the writes under way, compacts if anything was appended (a quick next start), and closes the file. */
  async close(): Promise<void> {
    if (this.#appended > 0) this.#compactRequested = true
    await this.#run()
    await this.#file?.close()
    this.#file = undefined
  }

  /** Runs the writer unless it runs already; settles when it has nothing left to do. */
  #run(): Promise<void> {
    this.#writer ??= this.#write().finally(() => {
      this.#writer = undefined
      if (this.#lines.length > 0) void this.#run()
    })
    return this.#writer
  }

  /** Writes the waiting lines (and whatever arrives meanwhile) in as few flushes as it can, compacting when due. */
  async #write(): Promise<void> {
    // Let the changes of this turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve))
    while (this.#lines.length > 0 || (this.#compactRequested && this.#source && !this.#broken)) {
      if (this.#lines.length > 0) {
        const lines = this.#lines
        const waiting = this.#waiting
        this.#lines = []
        this.#waiting = []
        try {
          await this.#append(lines)
          for (const { resolve } of waiting) resolve()
        } catch (error) {
          for (const { reject } of waiting) reject(unavailable(error as Error))
        }
      }
      const due = this.#appended > Math.max(minCompactionBytes, this.#baseBytes)
      if ((this.#compactRequested || due) && !this.#broken && this.#source) {
        this.#compactRequested = false
        try {
          await this.#compact(this.#source)
        } catch (error) {
          // The log as it was stays whole and in use; compaction is tried again once as much is appended.
          this.#appended = 0
          process.emitWarning(`plant-store-mock: compacting ${this.#path} failed: ${(error as Error).message}`)
        }
      }
    }
  }

  /** Appends lines and flushes them to disk; a failed write is cut off again, or else the log stops taking writes. */
  async #append(lines: readonly string[]): Promise<void> {
    const file = this.#file
    if (this.#broken) throw this.#broken
    if (!file) throw new Error('the state file is not open')
    const bytes = Buffer.from(`${lines.join('\n')}\n`)
    try {
      await file.write(bytes, 0, bytes.length, this.#length)
      await file.datasync()
    } catch (error) {
      try {
        await file.truncate(this.#length)
      } catch {
        this.#broken = error as Error
      }
      throw error
    }
    this.#length += bytes.length
    this.#appended += bytes.length
  }

  /**
   * Writes the store's tenants to a temporary file beside the log, a record
   * at a time in chunks of about 1 MiB, flushes it, renames it over the log
   * (and flushes the folder), then appends there. Memory goes on changing
   * meanwhile (the answers wait): each change made during it is also in the
   * records appended after it, and every record replays as a blind write (a
   * plant set or removed, a tenant put in place or removed, a reset), so
   * replaying them over tenants that already hold some of them gives the
   * same state.
   */
  async #compact(source: () => Iterable<SavedTenant>): Promise<void> {
    const temporary = join(dirname(this.#path), `.${basename(this.#path)}.${process.pid}.tmp`)
    const file = await open(temporary, 'w', 0o600)
    let length = 0
    try {
      let chunk: string[] = [JSON.stringify({ format, version: 2, savedAt: new Date().toISOString() })]
      let chunkLength = 0
      const write = async () => {
        const bytes = Buffer.from(`${chunk.join('\n')}\n`)
        await file.write(bytes, 0, bytes.length, length)
        length += bytes.length
        chunk = []
        chunkLength = 0
      }
      for (const tenant of source()) {
        for (const line of tenantRecords(tenant.spec, tenant.provisioned, tenant.plants ?? [])) {
          chunk.push(line)
          chunkLength += line.length
          if (chunkLength >= compactionChunkBytes) await write()
        }
      }
      if (chunk.length > 0) await write()
      await file.sync()
    } catch (error) {
      await file.close()
      await rm(temporary, { force: true })
      throw error
    }
    await file.close()
    await rename(temporary, this.#path)
    await syncFolder(dirname(this.#path))
    const previous = this.#file
    this.#file = await open(this.#path, 'r+')
    await previous?.close()
    this.#length = length
    this.#baseBytes = length
    this.#appended = 0
  }
}

/**
 * Flushes a folder, so that a rename in it survives a crash of the machine.
 * Where folders cannot be opened or flushed (Windows, some network file
 * systems) the rename is left to the file system.
 */
async function syncFolder(path: string): Promise<void> {
  if (process.platform === 'win32') return
  let folder: FileHandle
  try {
    folder = await open(path, 'r')
  } catch {
    return
  }
  try {
    await folder.sync()
  } catch (error) {
    if (!['EINVAL', 'EISDIR', 'EPERM', 'EBADF', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? ''))
      throw error
  } finally {
    await folder.close()
  }
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
    case 'create':
      return [JSON.stringify({ t: 'create', tenant: change.tenantId, plant: change.plant })]
    case 'delete':
      return [JSON.stringify({ t: 'delete', tenant: change.tenantId, id: change.id })]
    case 'reset':
      // Back to its seeded plants, which its tenant record says how to make.
      return [JSON.stringify({ t: 'reset', tenant: change.tenantId })]
    case 'remove':
      return [JSON.stringify({ t: 'remove', tenant: change.tenantId })]
    case 'tenant':
      return [...tenantRecords(change.spec, change.provisioned, change.plants)]
    case 'world':
      return [JSON.stringify({ t: 'clear' }), ...change.tenants.flatMap((spec) => [...tenantRecords(spec, false)])]
  }
}

/** A tenant's record, then its plants in records of {@link plantsPerRecord} when they are listed. */
function* tenantRecords(
  spec: CheckedTenantSpec,
  provisioned: boolean,
  plants?: Iterable<StoredPlant>,
): Generator<string> {
  yield JSON.stringify({ t: 'tenant', tenant: spec, provisioned, listed: plants !== undefined })
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
 * length up to its last whole record, and the line of a torn last record.
 */
async function replay(
  path: string,
  generatePlants: PlantGenerator,
): Promise<{ saved: SavedTenant[]; length: number; torn: number | undefined; legacy: boolean }> {
  const tenants = new Map<string, Replayed>()
  const plantsOf = async (tenant: Replayed) => {
    if (tenant.plants) return tenant.plants
    const { seed, plants } = tenant.spec
    // Seeded plants come from the generator, which may first have to load (faker loads on demand).
    const initial = typeof plants === 'number' ? await generatePlants(seed, plants) : plants
    tenant.plants = new Map(initial.map((plant) => [plant.id, plant]))
    return tenant.plants
  }
  const apply = async (record: StateRecord) => {
    if (record.t === 'clear') return tenants.clear()
    if (record.t === 'tenant') {
      tenants.delete(record.tenant.id) // put in place: last in creation order, as the store does
      tenants.set(record.tenant.id, {
        spec: record.tenant,
        plants: record.listed ? new Map() : undefined,
        provisioned: record.provisioned,
      })
      return
    }
    const tenant = tenants.get(record.tenant)
    // A write racing its tenant's removal may follow it: it changes nothing, as it did in memory.
    if (!tenant) return
    switch (record.t) {
      case 'plants': {
        const plants = await plantsOf(tenant)
        for (const value of record.plants) {
          const plant = checkedPlant(value)
          plants.set(plant.id, plant)
        }
        return
      }
      case 'create':
        ;(await plantsOf(tenant)).set(record.plant.id, record.plant)
        return
      case 'delete':
        ;(await plantsOf(tenant)).delete(record.id)
        return
      case 'reset':
        tenant.plants = undefined
        return
      case 'remove':
        tenants.delete(record.tenant)
        return
    }
  }

  let line = 0
  let length = 0
  /** The first line that did not parse since the last one that did: torn if nothing whole follows. */
  let unreadable: { line: number; reason: string } | undefined
  let legacy: SavedTenant[] | undefined
  for await (const { text, end, terminated } of lines(path)) {
    line++
    let value: unknown
    try {
      // A record is written with its newline: one without it was cut short (unless it is the header, never torn).
      if (!terminated && line > 1) throw new SyntaxError('no newline')
      value = JSON.parse(text)
    } catch {
      unreadable ??= { line, reason: line === 1 ? 'it is not valid JSON' : `line ${line} is not valid JSON` }
      continue
    }
    // A file is only created whole (renamed into place): a first line that does not parse is damage, not a torn write.
    if (unreadable) throw new StateFileError(path, unreadable.reason)
    if (line === 1) {
      const legacyFile = legacySchema.safeParse(value)
      if (legacyFile.success) {
        legacy = legacyTenants(legacyFile.data)
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
  if (unreadable?.line === 1) throw new StateFileError(path, unreadable.reason)
  if (legacy) return { saved: legacy, length, torn: undefined, legacy: true }
  const saved = [...tenants.values()].map(({ spec, plants, provisioned }) => ({
    spec,
    plants: plants?.values(),
    provisioned,
  }))
  return { saved, length, torn: unreadable?.line, legacy: false }
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
  return store.tenants.map(({ seedPlants, plants, ...tenant }) => ({
    spec: tenantSpecSchema.parse({ ...tenant, plants: seedPlants }),
    plants,
    provisioned: isProvisioned.has(tenant.id),
  }))
}

/** The first issue of a failed parse, as `path: message`. */
function describe(error: { readonly issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]
  return `${issue?.path.join('.') || 'root'}: ${issue?.message}`
}

/**
 * A file's lines, read in chunks: each line's text, the byte offset where
 * it ends (after its newline) and whether it had one (the last may not).
 */
async function* lines(path: string): AsyncGenerator<{ text: string; end: number; terminated: boolean }> {
  let rest: Buffer | undefined
  let offset = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buffer: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk
    let start = 0
    for (let newline = buffer.indexOf(10, start); newline !== -1; newline = buffer.indexOf(10, start)) {
      offset += newline + 1 - start
      yield { text: buffer.toString('utf8', start, newline), end: offset, terminated: true }
      start = newline + 1
    }
    rest = start < buffer.length ? buffer.subarray(start) : undefined
  }
  if (rest) yield { text: rest.toString('utf8'), end: offset + rest.length, terminated: false }
}
