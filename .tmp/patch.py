p='src/server/state-file.ts'
s=open(p).read()
def rep(old,new):
    global s
    assert s.count(old)==1, old
    s=s.replace(old,new)
rep("""  z.object({ t: z.literal('plants'), tenant: z.string(), plants: z.array(plantSchema) }),""","""  // Each plant checked by `checkedPlant`: the same schema, with a quick path for the common case.
  z.object({ t: z.literal('plants'), tenant: z.string(), plants: z.array(z.unknown()) }),""")
rep("""      case 'plants':
      case 'create':
        for (const plant of record.t === 'plants' ? record.plants : [record.plant]) plantsOf(tenant).set(plant.id, plant)
        return""","""      case 'plants': {
        const plants = plantsOf(tenant)
        for (const value of record.plants) {
          const plant = checkedPlant(value)
          plants.set(plant.id, plant)
        }
        return
      }
      case 'create':
        plantsOf(tenant).set(record.plant.id, record.plant)
        return""")
rep("""/** The tenants of a version 1 state file. */""","""/**
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

/** The tenants of a version 1 state file. */""")
rep("""      apply(record.data)""","""      try {
        apply(record.data)
      } catch (error) {
        if (!(error instanceof InvalidRecord)) throw error
        throw new StateFileError(path, `line ${line} is not a state record (plants: ${error.message})`)
      }""")
rep("""import { PlantStoreError } from '../core/errors.ts'""","""import { PlantStoreError } from '../core/errors.ts'
import { contract } from '../generated/contract.ts'""")
open(p,'w').write(s)
