import { fileURLToPath } from 'node:url'
import { msw } from 'msw/vite'
import { defaultClientConditions, defineConfig } from 'vite'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

/**
 * The example app: `npx vite example` (dev), `npx vite build example` (build),
 * `npx vite preview example` (serve the build). msw's plugin in worker-only
 * mode serves `/mockServiceWorker.js` in dev and emits it into the build; the
 * app starts the worker itself through `plant-store-mock/browser`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [msw({ mode: 'worker-only' })],
  resolve: {
    // `plant-store-mock/*` resolves to the TypeScript sources (the package's `plant-store-mock:source` condition).
    conditions: ['plant-store-mock:source', ...defaultClientConditions],
  },
  server: { host: '127.0.0.1', fs: { allow: [projectRoot] } },
  preview: { host: '127.0.0.1' },
})
