import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { type StoreSnapshot, snapshotSchema } from '../core/schemas.ts'
import type { PlantStore } from '../core/store.ts'
import { writeFileAtomically } from './write-file-atomically.ts'

const format = 'plant-store-mock/state'

const stateSchema = z.object({
  format: z.literal(format),
  version: z.literal(1),
  savedAt: z.string(),
  provisioned: z.array(z.string()),
  store: snapshotSchema,
})

/** What a state file holds: the whole store, and which of its tenants were provisioned. */
export interface SavedState {
  readonly snapshot: StoreSnapshot
  readonly provisioned: readonly string[]
}

/**
 * A state file that exists but cannot be used. The file is left untouched:
 * the sandbox refuses to start rather than overwrite it.
 *
 * @example
 * try { await readStateFile('state.json') } catch (e) { if (e instanceof StateFileError) process.exit(1) }
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

/**
 * Reads a state file: `undefined` when there is none yet; a
 * {@link StateFileError} when it is not valid JSON or not a state file.
 *
 * @example
 * const saved = await readStateFile('.sandbox-state.json')
 * if (saved) await store.restore(saved.snapshot, saved.provisioned)
 */
export async function readStateFile(path: string): Promise<SavedState | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new StateFileError(path, (error as Error).message)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new StateFileError(path, 'it is not valid JSON')
  }
  const result = stateSchema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new StateFileError(path, `it is not a ${format} file (${issue?.path.join('.') || 'root'}: ${issue?.message})`)
  }
  return { snapshot: result.data.store, provisioned: result.data.provisioned }
}

/**
 * Writes the whole store to `path` atomically: to a temporary file beside it,
 * flushed to disk, then renamed over the old one, so a crash never leaves a
 * half-written state file.
 *
 * @example
 * await writeStateFile('.sandbox-state.json', store)
 */
export async function writeStateFile(path: string, store: PlantStore): Promise<void> {
  await store.ready
  const state = {
    format,
    version: 1,
    savedAt: new Date().toISOString(),
    provisioned: store.provisionedTenants(),
    store: store.snapshot(),
  }
  await writeFileAtomically(path, `${JSON.stringify(state)}\n`, 0o600)
}
