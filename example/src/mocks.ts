import { setupPlantStoreWorker } from 'plant-store-mock/browser'

/**
 * Starts MSW's service worker with the Plant Store handlers. The worker
 * script (`/mockServiceWorker.js`) comes from msw's Vite plugin. The world
 * is kept in `localStorage`: created plants survive a reload, and every tab
 * of the app sees the others' writes. Tests and the devtools console reach
 * the mock at `window.__plantStoreMock` (`store`, `faults`, `coverage`).
 * `false` when no service worker could start (one console warning says
 * why): the app still mounts, its requests going to the network.
 */
export function startMocks(): Promise<boolean> {
  return setupPlantStoreWorker({ persist: true, exposeOnWindow: true }).start()
}
