/**
 * A sandbox for `bench/state-file.ts`, run as its own process:
 * `node bench/state-file-sandbox.ts <off|log|sqlite> <state file> <ready file> [fixtures.json]`.
 *
 * - `off`: no state file.
 * - `log`: `--state-file` as shipped (the append-only log of src/server/state-file/state-file.ts).
 * - `sqlite`: the alternative measured against it: the same `record` hook of the store, kept in
 *   `node:sqlite` in WAL mode (`synchronous=FULL`: a commit is on disk before it answers), the
 *   changes of one turn of the event loop in one transaction. Not shipped; see the design notes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
// The bench loads faker at once: the synchronous generator behind fixtures/world.ts's generatePlants.
import { drawPlants as generatePlants } from '../fixtures/plant-generator.ts'
import type { CheckedTenantSpec, StoredPlant, TenantSpec } from '../src/core/schemas.ts'
import { type RecordedChange, type SavedTenant, unreachable } from '../src/core/store.ts'
import { createPlantStore } from '../src/seeded-store.ts'
import { startSandbox } from '../src/server/start-sandbox.ts'

const [mode = 'off', stateFile = '', readyFile = '', fixturesFile] = process.argv.slice(2)
const world = fixturesFile ? (JSON.parse(readFileSync(fixturesFile, 'utf8')) as TenantSpec[]) : undefined

/** The store's `record` hook kept in SQLite, and the tenants it holds. */
async function sqliteState(file: string) {
  const { DatabaseSync } = await import('node:sqlite')
  const db = new DatabaseSync(file)
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
    CREATE TABLE IF NOT EXISTS tenants (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, spec TEXT NOT NULL, provisioned INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS plants (seq INTEGER PRIMARY KEY, tenant TEXT NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, tag TEXT, UNIQUE (tenant, id));`)
  const insertTenant = db.prepare('INSERT OR REPLACE INTO tenants (id, spec, provisioned) VALUES (?, ?, ?)')
  const insertPlant = db.prepare('INSERT INTO plants (tenant, id, name, tag) VALUES (?, ?, ?, ?)')
  const deletePlant = db.prepare('DELETE FROM plants WHERE tenant = ? AND id = ?')
  const deletePlants = db.prepare('DELETE FROM plants WHERE tenant = ?')
  const deleteTenant = db.prepare('DELETE FROM tenants WHERE id = ?')
  const seeded = (spec: CheckedTenantSpec) =>
    typeof spec.plants === 'number' ? generatePlants(spec.seed, spec.plants) : spec.plants
  const putTenant = (spec: CheckedTenantSpec, provisioned: boolean, plants: Iterable<StoredPlant>) => {
    deletePlants.run(spec.id)
    insertTenant.run(spec.id, JSON.stringify(spec), provisioned ? 1 : 0)
    for (const plant of plants) insertPlant.run(spec.id, plant.id, plant.name, plant.tag ?? null)
  }
  const apply = (change: RecordedChange) => {
    switch (change.kind) {
      case 'plant':
        // The plant after the write, or none (an upsert here: the bench's plants carry no order of their own).
        deletePlant.run(change.tenantId, change.id)
        if (change.plant) insertPlant.run(change.tenantId, change.id, change.plant.name, change.plant.tag ?? null)
        return
      case 'reset':
        deletePlants.run(change.tenantId)
        for (const plant of change.plants) insertPlant.run(change.tenantId, plant.id, plant.name, plant.tag ?? null)
        return
      case 'remove':
        deletePlants.run(change.tenantId)
        deleteTenant.run(change.tenantId)
        return
      case 'tenant':
        putTenant(change.spec, change.provisioned, change.plants ?? seeded(change.spec))
        return
      case 'world':
        db.exec('DELETE FROM plants; DELETE FROM tenants')
        for (const spec of change.tenants) putTenant(spec, false, seeded(spec))
        return
      default:
        unreachable(change)
    }
  }
  let queue: Array<{ change: RecordedChange; resolve: () => void; reject: (error: unknown) => void }> = []
  const commit = () => {
    const batch = queue
    queue = []
    try {
      db.exec('BEGIN')
      for (const { change } of batch) apply(change)
      db.exec('COMMIT')
      for (const { resolve } of batch) resolve()
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK')
      for (const { reject } of batch) reject(error)
    }
  }
  const record = (change: RecordedChange) =>
    new Promise<void>((resolve, reject) => {
      if (queue.length === 0) setImmediate(commit)
      queue.push({ change, resolve, reject })
    })
  const saved = (): SavedTenant[] | undefined => {
    const tenants = db.prepare('SELECT id, spec, provisioned FROM tenants ORDER BY seq').all()
    if (tenants.length === 0) return undefined
    const plantsOf = db.prepare('SELECT id, name, tag FROM plants WHERE tenant = ? ORDER BY seq')
    return tenants.map((row) => ({
      spec: JSON.parse(String(row.spec)) as CheckedTenantSpec,
      plants: plantsOf
        .all(row.id as string)
        .map(({ id, name, tag }) =>
          tag === null
            ? { id: Number(id), name: String(name) }
            : { id: Number(id), name: String(name), tag: String(tag) },
        ),
      provisioned: row.provisioned === 1,
    }))
  }
  const saveAll = (tenants: Iterable<SavedTenant>) => {
    db.exec('BEGIN')
    for (const { spec, provisioned, plants } of tenants) putTenant(spec, provisioned, plants ?? seeded(spec))
    db.exec('COMMIT')
  }
  return { record, saved, saveAll }
}

let sandbox: Awaited<ReturnType<typeof startSandbox>>
if (mode === 'sqlite') {
  const state = await sqliteState(stateFile)
  const saved = state.saved()
  const store = createPlantStore({ world, record: state.record })
  if (saved) await store.restoreTenants(saved)
  await store.ready
  if (!saved) state.saveAll(store.savedTenants())
  sandbox = await startSandbox({ store, port: 0 })
} else {
  sandbox = await startSandbox({ world, port: 0, ...(mode === 'log' ? { stateFile } : {}) })
}
writeFileSync(readyFile, JSON.stringify({ url: sandbox.url, port: Number(new URL(sandbox.url).port) }))
process.on('SIGTERM', () => {
  sandbox.close().then(() => process.exit(0))
})
