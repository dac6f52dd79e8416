/**
 * A Storybook preview document as the Storybook guide sets one up, without
 * Storybook: one worker mock for the page (`setupPlantStoreWorker()`, started
 * as the addon's loader starts it), then a "story" that lists Acme's plants
 * and shows what it got in `<body data-status>` (and what `start()` answered
 * in `data-mocked`). Served as `iframe.html` (a story by its own URL) and
 * inside the manager's `#storybook-preview-iframe`, as Storybook serves its
 * preview. `?scope=/elsewhere/` registers the worker for another scope.
 */
import { fixtureTokens, setupPlantStoreWorker } from '../../../src/browser.ts'

const scope = new URLSearchParams(location.search).get('scope')
const plantStore = setupPlantStoreWorker()
const mocked = await plantStore.start(
  scope === null ? {} : { serviceWorker: { url: '/mockServiceWorker.js', options: { scope } } },
)
const response = await fetch('/plants', { headers: { authorization: `Bearer ${fixtureTokens.acme.read}` } })
document.body.dataset.mocked = String(mocked)
document.body.dataset.status = String(response.status)
