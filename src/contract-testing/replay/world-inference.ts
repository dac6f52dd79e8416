/**
 * The plants a tenant held before a recording's first exchange, inferred
 * from everything the recording's answers say of them at once (what each
 * operation's descriptor reads back: `src/core/operations/`), not one answer
 * at a time: which listed plant an id an answer showed may be, where plants
 * no list showed whole take their places, and which plants a delete took
 * stay open until the whole recording settles them.
 *
 * The model is the store's: a tenant holds an ordered list of plants, those
 * it started with first, in their order, then those the recording created,
 * in creation order. A 204 delete or a 409 create shows a plant with that id
 * was there, a 404 delete or a 200 create that none was; a write of an id
 * none held (a 200 create) adds the plant it answers at the end, a write of
 * an id held (an update) changes that plant in its place, a 204 delete takes
 * the plant away; a list shows the names and tags of the plants in order,
 * from position `skip` of the tenant's list (an offset: 0, the first), at
 * most `limit` of them (cut: the first ones from there).
 *
 * Every id an answer names has one fate the recording fixes (held from the
 * start and deleted at a known exchange, held throughout, never held), so
 * what is open is the starting list itself: a sequence of plants, each
 * either one the recording changes (deletes or updates, at known points: its
 * timeline), or one held throughout (an id a 409 showed, or a stand-in id
 * for a plant only lists showed). Each list sees the plants of that sequence still there, then the
 * recording's own. The search goes through the starting list plant by plant,
 * each step advancing every list that sees that plant; the smallest world
 * that gives every list is answered (the first found, trying choices in a
 * fixed order: deterministic), or the first answer no world can give.
 */
import { codePointLength } from '../../core/inputs.ts'
import type { Evidence } from '../../core/operations/index.ts'
import type { StoredPlant } from '../../core/schemas.ts'
import { contract } from '../../generated/contract.ts'

/** A plant as a list shows it: name and tag, no id. */
export type ListedPlant = Omit<StoredPlant, 'id'>

/**
 * A listed plant as a stored one needs it (`null` tag: none); `undefined`
 * when it is not a valid plant.
 *
 * @example
 * listedPlant({ name: 'Fern', tag: null }) // { name: 'Fern' }
 */
export function listedPlant(value: unknown): ListedPlant | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { name, tag } = value as { name?: unknown; tag?: unknown }
  const length = typeof name === 'string' ? codePointLength(name) : 0
  if (typeof name !== 'string' || length < contract.name.minLength || length > contract.name.maxLength) return undefined
  if (tag === undefined || tag === null) return { name }
  return typeof tag === 'string' && codePointLength(tag) <= contract.tag.maxLength ? { name, tag } : undefined
}

/** Whether two plants look the same in a list (name and tag). */
export const sameListed = (a: ListedPlant, b: ListedPlant): boolean => a.name === b.name && a.tag === b.tag

/** A key telling listed plants apart by name and tag. */
export const keyOf = ({ name, tag }: ListedPlant): string => `${name}\u0000${tag ?? '\u0000'}`

/** What one exchange's answer said of a tenant's plants, in recording order. */
export interface PlantFact {
  /** The exchange's index in `log.entries`. */
  readonly index: number
  readonly evidences: readonly Evidence[]
}

/** The inferred starting plants, or the first answer no world gives (with why). */
export type PlantInference =
  | { readonly ok: true; readonly plants: StoredPlant[] }
  | { readonly ok: false; readonly index: number; readonly reason: string }

/** Partial starting worlds the search may try for one tenant before it gives up (and says so). */
export const maxInferenceStates = 200_000

/**
 * A list as the search reads it, over the starting plants it sees (those
 * not deleted before it, in order): it skips the first `skip` of the
 * tenant's list, then shows `plants`; where they stop being starting plants
 * the recording's own follow.
 */
interface ListConstraint {
  /**
   * How many changes of starting plants came before it: it sees those deleted later, and those updated
   * before it as their timelines made them then.
   */
  readonly epoch: number
  /** Positions of the tenant's list it skips (any plants), before those it shows. */
  readonly skip: number
  /** The plants it shows, in order, from position `skip`. */
  readonly plants: readonly ListedPlant[]
  /**
   * Whether the starting plants it sees may be exactly `s` (`0 ≤ s ≤ skip + plants.length`): how
   * many there are and the recording's own plants after them give the list (the rest of its plants).
   */
  readonly endsAt: readonly boolean[]
  /** Cut at its limit: more starting plants than `skip + plants.length` give it too. */
  readonly open: boolean
}

/** What becomes of a starting plant the recording changes: from each epoch on, the plant it is then (`undefined`: gone). */
type Timeline = Array<{ readonly epoch: number; readonly plant: ListedPlant | undefined }>

/** What the answers fix of the ids they name, and the lists, read in order. */
interface Reading {
  /** Each change (a delete or an update) of a starting plant, in the order of the recording: the `j`-th ends epoch `j`. */
  readonly deaths: number[]
  /** The timeline of each starting plant the recording updates (its first change's epoch starts it). */
  readonly timelines: Map<number, Timeline>
  /** What answers showed a starting plant was before the recording changed it, field by field (`exists`'s `was`). */
  readonly was: Map<number, { name?: string; tag?: string | null }>
  /** Ids of starting plants no recorded request deleted, in the order answers showed them. */
  readonly held: number[]
  readonly lists: ListConstraint[]
  /** Every id an answer named. */
  readonly named: Set<number>
}

type Failure = { readonly index: number; readonly reason: string }

const describe = (plants: readonly ListedPlant[]) => plants.map(({ name }) => JSON.stringify(name)).join(', ')

/** Reads the facts in order: each id's fate, and each list against the recording's own plants then. */
function read(facts: readonly PlantFact[]): Reading | Failure {
  const reading: Reading = { deaths: [], timelines: new Map(), was: new Map(), held: [], lists: [], named: new Set() }
  /** What is known of each id now, and the exchange that showed it. */
  const status = new Map<number, { kind: 'start' | 'created' | 'gone'; index: number; plant?: StoredPlant }>()
  /** The recording's own plants now, in creation order. */
  const created: StoredPlant[] = []
  const heldSet = new Set<number>()
  for (const { index, evidences } of facts) {
    for (const evidence of evidences) {
      switch (evidence.kind) {
        case 'exists': {
          reading.named.add(evidence.id)
          const now = status.get(evidence.id)
          if (now?.kind === 'gone') {
            return {
              index,
              reason: `plant ${evidence.id} exists here, but entry ${now.index} showed it absent or deleted it, and no recorded create made it since`,
            }
          }
          if (!now) {
            status.set(evidence.id, { kind: 'start', index })
            heldSet.add(evidence.id)
          }
          // What a starting plant was, while the recording has not changed it yet.
          if (evidence.was && status.get(evidence.id)?.kind === 'start' && !reading.timelines.has(evidence.id)) {
            reading.was.set(evidence.id, { ...reading.was.get(evidence.id), ...evidence.was })
          }
          break
        }
        case 'missing': {
          reading.named.add(evidence.id)
          const now = status.get(evidence.id)
          if (now && now.kind !== 'gone') {
            const how = now.kind === 'created' ? 'created it' : 'showed it exists'
            return {
              index,
              reason: `plant ${evidence.id} is absent here, but entry ${now.index} ${how}, and no recorded delete removed it since`,
            }
          }
          status.set(evidence.id, { kind: 'gone', index })
          break
        }
        case 'wrote': {
          reading.named.add(evidence.id)
          const now = status.get(evidence.id)
          if (now?.kind === 'created') {
            // The recording's own plant: changed in its place, or taken away.
            const at = created.indexOf(now.plant as StoredPlant)
            if (evidence.plant) created[at] = evidence.plant
            else created.splice(at, 1)
          } else if (now?.kind === 'start') {
            // A starting plant: from this epoch on, it is the written plant in its place, or gone.
            heldSet.delete(evidence.id)
            const timeline = reading.timelines.get(evidence.id)
            const epoch = reading.deaths.length + 1
            reading.deaths.push(evidence.id)
            if (timeline) timeline.push({ epoch, plant: evidence.plant })
            else if (evidence.plant) reading.timelines.set(evidence.id, [{ epoch, plant: evidence.plant }])
            if (evidence.plant) status.set(evidence.id, { kind: 'start', index })
            else status.set(evidence.id, { kind: 'gone', index })
            break
          } else if (evidence.plant) created.push(evidence.plant) // none held it: a create, last
          status.set(
            evidence.id,
            evidence.plant ? { kind: 'created', index, plant: evidence.plant } : { kind: 'gone', index },
          )
          break
        }
        case 'listed': {
          const list = listConstraint(index, evidence, reading.deaths.length, created)
          if (list && 'reason' in list) return list
          if (list) reading.lists.push(list)
          break
        }
        case 'room':
        case 'full':
          break // the quota: the replay's state
        case 'remembers':
          break // what the tenant remembers, not its plants: the replay's state (`startingMemory`)
        default:
          return evidence satisfies never
      }
    }
  }
  reading.held.push(...heldSet)
  return reading
}

/** A list as the search reads it; nothing for one that says nothing sure; a failure for one no world gives. */
function listConstraint(
  index: number,
  evidence: Extract<Evidence, { kind: 'listed' }>,
  epoch: number,
  created: readonly StoredPlant[],
): ListConstraint | Failure | undefined {
  if (!Array.isArray(evidence.plants)) return undefined
  const listed: ListedPlant[] = []
  for (const item of evidence.plants) {
    const plant = listedPlant(item)
    if (!plant) return undefined
    listed.push(plant)
  }
  const { cut } = evidence
  const skip = evidence.skip ?? 0
  // A list longer than its `limit` says nothing sure (the contract check reports it); `limit=0` says nothing.
  if (cut !== undefined && (listed.length > cut || cut === 0)) return undefined
  // Cut at its limit: the tenant's list goes on past it. Else it ends there (an empty one: at or before `skip`).
  const open = cut !== undefined && listed.length === cut
  const end = skip + listed.length
  // With `s` starting plants seen, the tenant's list is those then the recording's own: what it shows from `skip`.
  const endsAt = Array.from({ length: end + 1 }, (_, seen) => {
    const length = seen + created.length
    if (!(open ? length >= end : listed.length > 0 ? length === end : length <= skip)) return false
    return listed.every((plant, at) => {
      const place = skip + at - seen
      if (place < 0) return true // a starting plant: the search places it
      const own = created[place]
      return own !== undefined && sameListed(plant, own)
    })
  })
  if (!endsAt.includes(true)) {
    const where = skip === 0 ? '' : ` from position ${skip}`
    return {
      index,
      reason: `the list [${describe(listed)}]${where} does not end with the plants the recording created and did not delete since [${describe(created)}]`,
    }
  }
  return { epoch, skip, plants: listed, endsAt, open }
}

/** A plant of a starting list: `epoch` 0 held throughout, else the epoch its delete ends; its name when a list showed it. */
type Placed = { readonly epoch: number; readonly plant: ListedPlant | undefined }

/**
 * The smallest starting list of plants that gives every list of the
 * reading: depth first, within a number of plants that grows from the
 * fewest the lists allow (a whole list fixes it), each step adding one plant:
 * first one the recording deletes, earliest deleted first, then one held
 * throughout. States known to fail within so many more plants are not tried
 * again. Deleted plants that no list tells apart (no list between their
 * deletes) are placed as a group: the state counts them, and they take their
 * deletes in order, so that plants deleted unseen stay cheap.
 */
function search(reading: Reading, maxStates: number): Placed[] | 'none' | 'too many' {
  const { lists } = reading
  const heldCount = reading.held.length
  // Groups of deletes with no list between them, in order: each a run of epochs (1-based) seen by the same lists.
  // A plant the recording updates is a group of its own, at its first change (its timeline says the rest).
  const groups: number[][] = []
  /** Whether the change that ends each epoch takes a plant away (1-based). */
  const gone: boolean[] = [false]
  const firsts = new Set<number>()
  reading.deaths.forEach((id, at) => {
    const epoch = at + 1
    const timeline = reading.timelines.get(id)
    gone.push(timeline ? timeline.some((change) => change.epoch === epoch && !change.plant) : true)
    if (timeline && timeline[0]?.epoch !== epoch) return // a later change of a plant placed at its first
    firsts.add(epoch)
    const last = groups.at(-1)
    const from = last?.at(-1) ?? 0
    if (last && !timeline && !reading.timelines.has(reading.deaths[from - 1] as number)) {
      if (!lists.some((list) => list.epoch >= from && list.epoch < epoch)) {
        last.push(epoch)
        return
      }
    }
    groups.push([epoch])
  })
  /** How many starting plants the changes up to this epoch took away. */
  const goneBy = (epoch: number) => gone.slice(0, epoch + 1).filter(Boolean).length
  // A state: how far each list has been seen, how many of each group are placed, how many held (up to those named).
  type State = { readonly seen: readonly number[]; readonly placed: readonly number[]; readonly held: number }
  const keyOfState = ({ seen, placed, held }: State) => `${seen.join(',')}|${placed.join(',')}|${held}`
  const done = ({ seen, placed, held }: State) =>
    held >= heldCount &&
    placed.every((count, group) => count === groups[group]?.length) &&
    lists.every((list, at) => list.endsAt[seen[at] as number] ?? false)
  /** The state after one more plant from `group` (past the last: held throughout), or nothing when it cannot be. */
  const step = (state: State, group: number): { after: State; placed: Placed } | undefined => {
    const throughout = group === groups.length
    const epochs = groups[group] ?? []
    const count = state.placed[group] ?? 0
    if (!throughout && count === epochs.length) return undefined
    const epoch = throughout ? Number.POSITIVE_INFINITY : (epochs[0] as number)
    const id = throughout ? undefined : (reading.deaths[epoch - 1] as number)
    const timeline = id === undefined ? undefined : reading.timelines.get(id)
    // Before its first change: what answers showed it was (an updated plant is a group of its own: its id is known).
    const was = timeline && id !== undefined ? reading.was.get(id) : undefined
    let plant: ListedPlant | undefined
    let advanced = false
    let fits = true
    const seen = state.seen.map((seenOf, at) => {
      const list = lists[at] as ListConstraint
      // After its first change: the plant the recording made it then (an update), or none (deleted before that list).
      const known =
        list.epoch >= epoch ? timeline?.filter((change) => change.epoch <= list.epoch).at(-1)?.plant : undefined
      if (list.epoch >= epoch && !known) return seenOf
      if (list.open && seenOf === list.endsAt.length - 1) return seenOf // past a cut list's end
      advanced = true
      if (seenOf >= list.endsAt.lastIndexOf(true)) fits = false // more than the list allows
      if (seenOf < list.skip) return seenOf + 1 // a plant it skips: any
      const shown = list.plants[seenOf - list.skip]
      if (known) {
        if (!shown || !sameListed(known, shown)) fits = false
      } else if (!shown || (plant && !sameListed(plant, shown)) || (was && !wasShown(was, shown))) fits = false
      else plant = shown
      return seenOf + 1
    })
    if (!fits || (throughout && !advanced && state.held >= heldCount)) return undefined // a plant nothing needs
    return {
      after: {
        seen,
        placed: throughout ? state.placed : state.placed.map((placed, at) => (at === group ? placed + 1 : placed)),
        held: throughout ? Math.min(state.held + 1, heldCount) : state.held,
      },
      placed: { epoch: throughout ? 0 : (epochs[count] as number), plant },
    }
  }
  // The fewest plants: every changed one; a list sees at least the fewest it allows, besides those the changes
  // before it took away. The most: a list that is not cut sees at most the most it allows (a whole one: exactly so
  // many), besides those.
  let fewest = firsts.size
  let most = reading.deaths.length + heldCount + lists.reduce((sum, list) => sum + list.endsAt.length - 1, 0)
  for (const list of lists) {
    fewest = Math.max(fewest, list.endsAt.indexOf(true) + goneBy(list.epoch))
    if (!list.open) most = Math.min(most, list.endsAt.lastIndexOf(true) + goneBy(list.epoch))
  }
  /** The largest number of further plants within which each state is known to fail. */
  const failed = new Map<string, number>()
  let tried = 0
  for (let size = fewest; size <= most; size++) {
    type Frame = { readonly state: State; readonly key: string; next: number; readonly placed?: Placed }
    const start: State = { seen: lists.map(() => 0), placed: groups.map(() => 0), held: 0 }
    const stack: Frame[] = [{ state: start, key: keyOfState(start), next: 0 }]
    while (stack.length > 0) {
      const frame = stack.at(-1) as Frame
      const left = size - (stack.length - 1)
      if (frame.next === 0) {
        if (done(frame.state)) return stack.flatMap(({ placed }) => (placed ? [placed] : []))
        if (++tried > maxStates) return 'too many'
      }
      let child: { after: State; placed: Placed } | undefined
      if (left > 0 && (failed.get(frame.key) ?? -1) < left) {
        while (!child && frame.next <= groups.length) child = step(frame.state, frame.next++)
      }
      if (!child) {
        failed.set(frame.key, Math.max(failed.get(frame.key) ?? -1, left))
        stack.pop()
        continue
      }
      stack.push({ state: child.after, key: keyOfState(child.after), next: 0, placed: child.placed })
    }
  }
  return 'none'
}

/** Whether a listed plant is what answers showed a plant was (each field they showed). */
const wasShown = (was: { name?: string; tag?: string | null }, shown: ListedPlant) =>
  (was.name === undefined || was.name === shown.name) && (was.tag === undefined || was.tag === (shown.tag ?? null))

/** Solves the facts: the plants, the first fact no world gives, or (`none`) no world gives the lists. */
function solve(facts: readonly PlantFact[], maxStates: number): PlantInference | 'none' {
  const reading = read(facts)
  if ('reason' in reading) return { ok: false, ...reading }
  const found = search(reading, maxStates)
  if (found === 'none') return found
  if (found === 'too many') {
    const reason = `the recording leaves more than ${maxStates} partial worlds open (plants that look alike, deleted unseen); no world inferred`
    return { ok: false, index: facts.at(-1)?.index ?? -1, reason }
  }
  // Held plants: the ids answers showed take the plants nothing else names first, then the others, in order.
  const held = [...reading.held]
  const heldIds = new Map<number, number>()
  for (const named of [false, true]) {
    found.forEach(({ epoch, plant }, at) => {
      if (epoch === 0 && (plant !== undefined) === named && held.length > 0) heldIds.set(at, held.shift() as number)
    })
  }
  let standIn = -1
  const taken = new Set(reading.named)
  const plants = found.map(({ epoch, plant }, at): StoredPlant => {
    let id = epoch === 0 ? heldIds.get(at) : reading.deaths[epoch - 1]
    if (id === undefined) {
      // A plant only lists showed: a stand-in id of its own, by its place, past any id the recording names.
      standIn = Math.min(standIn, -(at + 1))
      while (taken.has(standIn)) standIn--
      id = standIn
      taken.add(id)
    }
    if (plant) return { id, ...plant }
    // No list showed it before the recording changed it: what answers showed it was, else a name of its own.
    const { name = `Plant ${id}`, tag } = reading.was.get(id) ?? {}
    return { id, name, ...(typeof tag === 'string' ? { tag } : {}) }
  })
  return { ok: true, plants }
}

/**
 * The plants a tenant held before the recording, from what every answer of
 * the recording said of them (`facts`, in order): the smallest such list,
 * each plant under the id an answer showed of it, else a stand-in id by its
 * place (`-1` first, past any id the recording names); a plant no list showed
 * is named `Plant <id>`. When no world gives every answer: the first answer
 * that no world giving those before it gives, and why.
 *
 * @example
 * inferPlants([{ index: 0, evidences: [{ kind: 'listed', plants: [{ name: 'Fern' }] }] }])
 * // { ok: true, plants: [{ id: -1, name: 'Fern' }] }
 */
export function inferPlants(facts: readonly PlantFact[], maxStates = maxInferenceStates): PlantInference {
  const solved = solve(facts, maxStates)
  if (solved !== 'none') return solved
  // No world gives every list: the first fact after which none does (any world that gives a recording gives
  // each of its beginnings too).
  let low = 0
  let high = facts.length
  while (high - low > 1) {
    const middle = (low + high) >> 1
    if (solve(facts.slice(0, middle), maxStates) === 'none') high = middle
    else low = middle
  }
  const at = facts[high - 1] as PlantFact
  return {
    ok: false,
    index: at.index,
    reason: 'no starting plants that give the answers before this list give it too (its plants, in its order)',
  }
}
