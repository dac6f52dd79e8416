/**
 * `plant-store-mock/vitest/setup`, for Vitest's `setupFiles`: in a run with
 * the `plant-store-mock/vitest` reporter, every Plant Store mock of the test
 * file (`setupPlantStoreServer`, `setupPlantStoreWorker`, `createPlantStoreMock`)
 * also reports its answers to the worker's collector, written to the run
 * folder after the file; without the reporter it does nothing.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({
 *   test: { setupFiles: ['plant-store-mock/vitest/setup'], reporters: ['default', ['plant-store-mock/vitest', { min: 60 }]] },
 * })
 */
import { afterAll } from 'vitest'
import { joinCoverageRun, writeCoverageRun } from './coverage-run.ts'

if (joinCoverageRun()) afterAll(writeCoverageRun)
