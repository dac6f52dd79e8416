/**
 * A page with the worker mock as the README sets it up (`setupPlantStoreWorker()`,
 * then `start()`), built with the browser entry's zod seam as the package is:
 * the test reaches the mock as `window.mock`, and `<body data-started>` says
 * the worker answers. `?setup=bad-world` sets it up with a world that is not
 * valid instead.
 */
import { type PlantStoreWorker, setupPlantStoreWorker } from '../../../src/browser.ts'

declare global {
  interface Window {
    mock: PlantStoreWorker
  }
}

const badWorld = new URLSearchParams(location.search).get('setup') === 'bad-world'
window.mock = setupPlantStoreWorker(
  badWorld ? { world: [{ id: '', name: 'Nobody', seed: 1, plants: -1, users: [] }] } : {},
)
document.body.dataset.started = String(await window.mock.start())
