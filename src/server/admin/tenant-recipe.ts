/**
 * A tenant recipe, the body of `POST /__sandbox/tenants`: its plants (a
 * count or exact plants, within its quota), the seed of a count, its quota
 * (at most the sandbox's) and an optional time-to-live, at most the sandbox
 * contract's.
 */
import { z } from 'zod'
import { type CoreRequest, readBodyWithinLimit } from '../../core/http.ts'
import { exactPlantsSchema } from '../../core/schemas.ts'
import type { ProvisionOptions } from '../../core/store.ts'
import { invalidField, refuseUnknownNames } from '../../core/unknown-names.ts'
import { checkContentType, parseJsonObject } from '../../core/validation.ts'
import { sandboxContractDocument } from '../../generated/sandbox-contract-document.ts'

/** The longest time-to-live of a provisioned tenant, in seconds: the sandbox contract's (a day). */
export const maxTenantTtlSeconds: number =
  sandboxContractDocument.components.schemas.TenantRecipe.properties.ttlSeconds.maximum

const seedMessage = 'must be an integer from -2147483647 to 2147483647'
const ttlMessage = `must be an integer from 1 to ${maxTenantTtlSeconds}`

/** The fields of a tenant request, and of each of its exact plants. */
const recipeFields = ['plants', 'seed', 'quota', 'ttlSeconds'] as const
const exactPlantFields = ['id', 'name', 'tag'] as const

/** An integer from `min` to `max`, or else `message`. */
function integerFrom(min: number, max: number, message: string) {
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message })
}

/**
 * A tenant request: its plants (a count or exact plants, within its quota),
 * the seed of a count, its quota (at most the sandbox's) and an optional
 * time-to-live.
 */
function recipeSchema(maxQuota: number, quota: number, exact: boolean) {
  const countMessage = `must be an integer from 0 to ${quota} (the quota), or a list of exact plants`
  return z.strictObject({
    plants: z.optional(
      exact
        ? exactPlantsSchema.check(z.maxLength(quota, { error: `must not hold more than the quota of ${quota} plants` }))
        : integerFrom(0, quota, countMessage),
    ),
    seed: integerFrom(-(2 ** 31 - 1), 2 ** 31 - 1, seedMessage).optional(),
    quota: integerFrom(1, maxQuota, `must be an integer from 1 to ${maxQuota} (the sandbox's quota)`).optional(),
    ttlSeconds: integerFrom(1, maxTenantTtlSeconds, ttlMessage).optional(),
  })
}

/** What a tenant request asks for; every field optional. */
export type Recipe = Partial<Pick<ProvisionOptions, 'plants' | 'seed' | 'quota'>> & { ttlSeconds?: number }

/**
 * Reads the optional `{ "plants": n | [{id, name, tag}], "seed": s, "quota":
 * q, "ttlSeconds": t }` of a tenant request (at most the contract's body size,
 * 64 KiB). An unknown or misspelt field, in the request or in one of its
 * plants, is a 400 naming it.
 */
export async function readRecipe(request: CoreRequest, maxQuota: number): Promise<Recipe> {
  const body = await readBodyWithinLimit(request)
  if (body.byteLength === 0) return {}
  checkContentType(request.header('content-type'))
  const value = parseJsonObject(
    body,
    'such as {"plants": 10, "seed": 7} or {"plants": [{"id": 1, "name": "Fern"}], "quota": 50}',
  )
  refuseUnknownNames(Object.keys(value), recipeFields)
  if (Array.isArray(value.plants)) {
    value.plants = value.plants.map((plant: unknown, index) => {
      if (typeof plant !== 'object' || plant === null || Array.isArray(plant)) return plant
      refuseUnknownNames(Object.keys(plant), exactPlantFields, 'field', `plants.${index}.`)
      // As in a NewPlant, a `null` tag counts as absent.
      return (plant as { tag?: unknown }).tag === null ? { ...plant, tag: undefined } : plant
    })
  }
  // The plants are checked against the tenant's own quota when it asks for one (and that one is valid).
  const asked = value.quota
  const quota =
    typeof asked === 'number' && Number.isInteger(asked) && asked >= 1 && asked <= maxQuota ? asked : maxQuota
  const result = recipeSchema(maxQuota, quota, Array.isArray(value.plants)).safeParse(value)
  if (!result.success) throw invalidField(result.error)
  return result.data
}
