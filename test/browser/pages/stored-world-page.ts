/**
 * A page that sets up the worker mock with the options a test gives
 * (`window.setUpMock(options)`), without starting the worker: what two apps of
 * one origin, each with its own set-up, do with `persist: true`.
 */
import { type PlantStoreWorkerOptions, setupPlantStoreWorker } from '../../../src/browser.ts'

declare global {
  interface Window {
    /**
     * Sets the mock up; answers its tenant `acme`'s plant ids once its world
     * is loaded, or the error it threw (with its `code` when it has one).
     */
    setUpMock(options: PlantStoreWorkerOptions): Promise<{ ids: number[] } | { error: string; code?: string }>
    /** Adds a plant to tenant `acme` through the page's store. */
    addPlant(id: number): Promise<void>
    /** Tenant `acme`'s plant ids in the page's store. */
    plantIds(): number[]
  }
}

let store: ReturnType<typeof setupPlantStoreWorker>['store'] | undefined

window.setUpMock = async (options) => {
  try {
    store = setupPlantStoreWorker(options).store
    await store.ready
    return { ids: window.plantIds() }
  } catch (error) {
    if (!(error instanceof Error)) return { error: String(error) }
    const { code } = error as { code?: unknown }
    return { error: `${error.name}: ${error.message}`, ...(typeof code === 'string' ? { code } : {}) }
  }
}
window.addPlant = async (id) => {
  await store?.addPlant('acme', { id, name: `Plant ${id}` })
}
window.plantIds = () => store?.listPlants('acme').map(({ id }) => id) ?? []
