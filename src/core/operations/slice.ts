import { PlantStoreError } from '../errors.ts'
import { type InputOperationId, type Inputs, parseParameters } from '../inputs.ts'
import { type NotSure, notSure } from './operation.ts'

/**
 * The part of the tenant's list a list answers: its plants from position
 * `skip` (0: the first), at most `limit` of them (`undefined`: all the rest).
 */
export interface Slice {
  readonly skip: number
  readonly limit: number | undefined
}

/** A list operation's query parameters, checked and typed by their schemas. */
type Query<Id extends InputOperationId> = Inputs<Id>['query']

/**
 * How a list operation's query parameters cut the tenant's list: the one
 * place that says it, read by the operation's handler (which answers that
 * slice: `store.encodedList(tenantId).chunks(limit, skip)`) and by its
 * `readBack` (which reads a recorded list as that slice: {@link Evidence}'s
 * `listed`, whose `skip` replay, `worldFromHar`, the pact recorder and
 * provider states apply).
 */
export interface Slicing<Id extends InputOperationId, Names extends keyof Query<Id>> {
  /** Every query parameter the slice reads: a recorded list sent any other (a filter) says nothing sure. */
  readonly parameters: readonly Names[]
  /**
   * The query parameters that filter the list (keep some plants, not a
   * slice): a recorded list sent one says nothing sure, by design, and
   * `test/replay/world-from-har.property.test.ts` knows not to ask for more.
   */
  readonly filters: readonly (keyof Query<Id> & string)[]
  /** The slice a checked query asks for: what the handler answers. */
  of(query: Pick<Query<Id>, Names>): Slice
  /**
   * The slice a recorded request asked for, its query checked by the
   * contract's schemas as the core checks it; or why it says nothing sure
   * (a parameter the slice does not read, a value the contract refuses).
   */
  recorded(query: URLSearchParams): Slice | NotSure
}

/**
 * A list operation's {@link Slicing}: the query parameters that cut its list,
 * and how they give the slice. `of` sees only the parameters named, so a
 * parameter it reads and does not name fails `tsc`; a new slice-like
 * parameter (an offset, a page) is one more name and one more term here; a
 * filter (`tag`) is named in `filters`.
 *
 * @example
 * const slicing = defineSlicing('listPlants', ['limit', 'offset'], ({ limit, offset }) => ({ skip: offset ?? 0, limit }))
 * slicing.of({ limit: 2, offset: 4 }) // { skip: 4, limit: 2 }
 * slicing.recorded(new URLSearchParams('offset=4&tag=x')) // { notSure: 'a query parameter the slice does not read (tag)' }
 */
export function defineSlicing<Id extends InputOperationId, const Names extends keyof Query<Id> & string>(
  operation: Id,
  parameters: readonly Names[],
  of: (query: Pick<Query<Id>, Names>) => Slice,
  { filters = [] }: { readonly filters?: readonly (keyof Query<Id> & string)[] } = {},
): Slicing<Id, Names> {
  const read = new Set<string>(parameters)
  return {
    parameters,
    filters,
    of,
    recorded(query) {
      // A parameter the slice does not read (a filter, one the contract lacks) may leave out any plant.
      const other = [...query.keys()].find((name) => !read.has(name))
      if (other !== undefined) return notSure(`a query parameter the slice does not read (${other})`)
      try {
        return of(parseParameters(operation, { query: query.toString(), header: () => null }, {}).query)
      } catch (error) {
        if (error instanceof PlantStoreError) return notSure(`a query the contract refuses (${error.message})`)
        throw error
      }
    },
  }
}
