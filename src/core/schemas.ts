import { z } from 'zod'
import { contract } from '../generated/contract.ts'

/** The scopes a token can grant. */
export const scopes = ['plants:read', 'plants:write'] as const
export type Scope = (typeof scopes)[number]

/** Counts characters as JSON Schema does: by code point, not UTF-16 unit. */
export function codePointLength(value: string): number {
  let length = 0
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    length++
  }
  return length
}

function lengthBetween(min: number, max: number) {
  return (value: string) => {
    // Cheap bounds first: the code point count lies in [length / 2, length].
    if (value.length < min || value.length / 2 > max) return false
    const length = codePointLength(value)
    return length >= min && length <= max
  }
}

const nameMessage = `name must be a string of ${contract.name.minLength} to ${contract.name.maxLength} characters`
const tagMessage = `tag must be a string of at most ${contract.tag.maxLength} characters, or null`
const idMessage = `id must be an integer from ${contract.id.minimum} to ${contract.id.maximum}`

/**
 * A stored plant, and the valid form of a `NewPlant` body: the one schema
 * used both to validate requests and to type the `@msw/data` collection.
 * Its numbers come from `contracts/openapi.yaml`.
 */
export const plantSchema = z.object({
  id: z
    .number({ error: idMessage })
    .int({ error: idMessage })
    .min(contract.id.minimum, { error: idMessage })
    .max(contract.id.maximum, { error: idMessage }),
  name: z.string({ error: nameMessage }).refine(lengthBetween(contract.name.minLength, contract.name.maxLength), {
    error: nameMessage,
  }),
  tag: z
    .string({ error: tagMessage })
    .refine(lengthBetween(0, contract.tag.maxLength), { error: tagMessage })
    .optional(),
})

export type StoredPlant = z.output<typeof plantSchema>

/** A tenant: a team's garden. */
export const tenantSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  /** The faker seed its plants were generated from, so it can be reset. */
  seed: z.number().int(),
  /** How many plants the seed generates. */
  seedPlants: z.number().int().min(0),
  /** How many plants it may hold. */
  quota: z.number().int().min(0),
})

export type Tenant = z.output<typeof tenantSchema>

/** A user belongs to one tenant. */
export const userSchema = z.object({
  id: z.string().min(1),
  tenantId: z.string().min(1),
  name: z.string(),
})

export type User = z.output<typeof userSchema>

/** An access token belongs to one user and grants scopes until it expires. */
export const tokenSchema = z.object({
  token: z.string().min(1),
  userId: z.string().min(1),
  scopes: z.array(z.enum(scopes)),
  /** ISO 8601 instant after which the token is refused; `null` never expires. */
  expiresAt: z.string().nullable(),
})

export type Token = z.output<typeof tokenSchema>
