/**
 * The one model of the Plant Store's operations that the property tests and
 * the isolation fuzzes check it against (in one process, over HTTP, through
 * a cluster): what each operation answers for a tenant's plants, and how it
 * changes them. Its plants are the store's type, its answers the one
 * projection (`toPlant`). The model has an answer for every operation the
 * core answers: `tsc` fails here, naming it, for one it lacks.
 */
import type { ErrorFields } from '../../src/core/errors.ts'
import type { CoreOperationId } from '../../src/core/operations/index.ts'
import { type StoredPlant, toPlant } from '../../src/core/schemas.ts'

/** A plant as the model holds it: the store's own type. */
export type ModelPlant = StoredPlant

/** What a tenant holds: the plants it was seeded with (what a reset returns to), and its plants in list order. */
export interface ModelState {
  readonly seeded: readonly ModelPlant[]
  /** What the tenant must hold, in list order: every acknowledged write applied. */
  plants: ModelPlant[]
}

/**
 * A provisioned tenant, its tokens and what it must hold.
 *
 * @example
 * const tenant: ModelTenant = { id, read, write, seeded, plants: [...seeded] }
 */
export interface ModelTenant extends ModelState {
  readonly id: string
  readonly read: string
  readonly write: string
}

/**
 * What the model says an operation answers: its status, the body of a 2xx
 * (or a 404's message), and an Error answer's fields beyond `error` and
 * `message` as the contract declares them (e.g. a `code`; none when absent).
 */
export interface ModelAnswer {
  readonly status: number
  readonly body?: unknown
  readonly message?: string
  readonly fields?: ErrorFields
}

/**
 * An Error body's fields beyond `error` and `message`: what a {@link ModelAnswer}'s `fields` is compared with.
 *
 * @example
 * errorFieldsOf({ error: 409, message: 'Taken.', code: 'deleted_before' }) // { code: 'deleted_before' }
 */
export function errorFieldsOf(body: unknown): Record<string, unknown> {
  const { error: _status, message: _message, ...fields } = (body ?? {}) as Record<string, unknown>
  return fields
}

/**
 * Each operation's answer for a tenant, applied to it as the store would:
 * the one place the property tests say what an operation does.
 *
 * @example
 * const expected = plantModel.addPlant(tenant, { id: 7, name: 'Fern' }) // { status: 200, body: { name: 'Fern' } }
 */
export const plantModel = {
  listPlants: (state: ModelState, { limit }: { limit?: number | undefined } = {}): ModelAnswer => ({
    status: 200,
    body: state.plants.slice(0, limit ?? state.plants.length).map(toPlant),
  }),
  addPlant: (state: ModelState, plant: ModelPlant): ModelAnswer => {
    if (state.plants.some(({ id }) => id === plant.id)) return { status: 409 }
    state.plants.push(plant)
    return { status: 200, body: toPlant(plant) }
  },
  deletePlant: (state: ModelState, id: number): ModelAnswer => {
    const index = state.plants.findIndex((plant) => plant.id === id)
    // Whether the id exists elsewhere never shows: the same message as for an id that exists nowhere.
    if (index === -1) return { status: 404, message: `No plant with id ${id} exists.` }
    state.plants.splice(index, 1)
    return { status: 204 }
  },
} satisfies Record<CoreOperationId, (state: ModelState, ...args: never[]) => ModelAnswer>

/** The sandbox's reset of a tenant: back to its seeded plants. */
export function resetModel(state: ModelState): void {
  state.plants = [...state.seeded]
}
