// Generated from fixtures/plant-generator.ts by fixtures/codegen.ts (npm run generate). Do not edit.
import type { StoredPlant } from '../core/schemas.ts'

/**
 * The plants of the default world's tenants by their seed (5 each, world seed 20240101):
 * what faker draws for them, precomputed so that the default world loads no faker.
 */
export const defaultPlants: Readonly<Record<number, readonly StoredPlant[]>> = {
  "627443132": [
    {
      "id": 1,
      "name": "Variegated Pothos"
    },
    {
      "id": 2,
      "name": "Giant Peace Lily",
      "tag": "fern"
    },
    {
      "id": 3,
      "name": "Giant English Ivy",
      "tag": "cactus"
    },
    {
      "id": 4,
      "name": "Giant English Ivy",
      "tag": "flowering"
    },
    {
      "id": 5,
      "name": "Silver Spider Plant",
      "tag": "flowering"
    }
  ],
  "627443133": [
    {
      "id": 1,
      "name": "Trailing Dieffenbachia",
      "tag": "tree"
    },
    {
      "id": 2,
      "name": "Red Aloe"
    },
    {
      "id": 3,
      "name": "Velvet Bird of Paradise",
      "tag": "succulent"
    },
    {
      "id": 4,
      "name": "Red Monstera",
      "tag": "succulent"
    },
    {
      "id": 5,
      "name": "Variegated Orchid",
      "tag": "tree"
    }
  ],
  "627443134": [
    {
      "id": 1,
      "name": "Variegated Begonia",
      "tag": "herb"
    },
    {
      "id": 2,
      "name": "Velvet Monstera",
      "tag": "fern"
    },
    {
      "id": 3,
      "name": "Silver Lavender",
      "tag": "succulent"
    },
    {
      "id": 4,
      "name": "Red Snake Plant",
      "tag": "tropical"
    },
    {
      "id": 5,
      "name": "Giant Spider Plant",
      "tag": "vine"
    }
  ]
}
