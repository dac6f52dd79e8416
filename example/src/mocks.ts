import { setupPlantStoreWorker } from 'plant-store-mock/browser'

/**
 * Starts MSW's service worker with the Plant Store handlers. The worker
 * script (`/mockServiceWorker.js`) comes from msw's Vite plugin. The world
 * is kept in `localStorage`: created plants survive a reload, and every tab
 * of the app sees the others' writes. Tests and the devtools console reach
 * the mock at `window.__plantStoreMock` (`store`, `faults`, `coverage`).
 */
export async function startMocks(): Promise<void> {
  const { worker } = setupPlantStoreWorker({ persist: true, exposeOnWindow: true })
  await worker.start({
    onUnhandledFrame: 'bypass', // the page's own assets go to the network
    quiet: true,
    serviceWorker: { url: '/mockServiceWorker.js' },
  })
}
