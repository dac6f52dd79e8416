import { type PlantStore, setupPlantStoreWorker } from 'plant-store-mock/browser'

declare global {
  interface Window {
    /** The mocked Plant Store of this tab: `reset()`, `load(world)`, `snapshot()`, `listPlants(tenantId)`. */
    plantStore?: PlantStore
  }
}

/**
 * Starts MSW's service worker with the Plant Store handlers. The worker
 * script (`/mockServiceWorker.js`) comes from msw's Vite plugin.
 */
export async function startMocks(): Promise<void> {
  const { worker, store } = setupPlantStoreWorker()
  await worker.start({
    onUnhandledFrame: 'bypass', // the page's own assets go to the network
    quiet: true,
    serviceWorker: { url: '/mockServiceWorker.js' },
  })
  window.plantStore = store // for tests and the devtools console
}
