import { defaultServerConditions } from 'vite'

const conditions = ['plant-store-mock:source', ...defaultServerConditions]

/**
 * Resolves `plant-store-mock/*` to the TypeScript sources (the exports map's
 * package-scoped `plant-store-mock:source` condition), both for code Vite
 * transforms and for modules Node loads itself (Vitest externalises the
 * package's self-reference), so no test suite runs against a stale or absent
 * `dist/`. Every Vitest config of the project spreads it.
 *
 * @example
 * export default defineConfig({ ...sourceResolution, test: { include: ['test/**\/*.test.ts'] } })
 */
export const sourceResolution = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['plant-store-mock:source'] } },
}
