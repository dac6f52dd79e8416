/** The model the isolation fuzzes check a tenant against (in one process, and through a cluster). */

/** A plant as the fuzzes create it: its id, name and optional tag. */
export type ModelPlant = { id: number; name: string; tag?: string }

/**
 * A provisioned tenant, its tokens and what it must hold.
 *
 * @example
 * const tenant: ModelTenant = { id, read, write, seeded, plants: [...seeded] }
 */
export interface ModelTenant {
  readonly id: string
  readonly read: string
  readonly write: string
  readonly seeded: readonly ModelPlant[]
  /** What the tenant must hold, in list order: every acknowledged write applied. */
  plants: ModelPlant[]
}
