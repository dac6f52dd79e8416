/**
 * The stored-world pages, free of vitest so the attack suite
 * (`bench/attack/stored-world.ts`) builds and serves the same page as the
 * browser tests: `test/browser/pages/stored-world-page.ts` built with Vite
 * from the sources and served on 127.0.0.1.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, defaultClientConditions, type PluginOption } from 'vite'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/** A site served on a loopback port. */
export interface ExampleSite {
  /** The site's origin, e.g. `http://127.0.0.1:43117`. */
  readonly origin: string
  close(): Promise<void>
}

/**
 * Builds `test/browser/pages/stored-world-page.ts` (the worker mock, set up
 * by the test through `window.setUpMock`) with Vite and serves it on
 * 127.0.0.1, port 0: every path below `/` is the same page, so `/a/` and
 * `/b/` are two apps of one origin.
 *
 * @example
 * const pages = await serveStoredWorldPages()
 * await page.goto(`${pages.origin}/a/`)
 */
export function serveStoredWorldPages(): Promise<ExampleSite> {
  return servePageScript('test/browser/pages/stored-world-page.ts', () => pageHtml)
}

/** A document that runs the built page script. */
export const pageHtml = '<!doctype html><title>app</title><script type="module" src="/page.js"></script>'

/**
 * Builds `entry` (a path below the project) with Vite into `/page.js` and
 * serves it on 127.0.0.1, port 0, beside msw's worker script
 * (`/mockServiceWorker.js`), built with `plugins` (e.g. the browser entry's
 * zod seam, `zodOnDemand` of `rolldown.config.ts`); chunks it loads on demand
 * are served beside it. Any other path is the document `documents`
 * gives it (HTML), or a plain 404 as a static server answers.
 *
 * @example
 * const site = await servePageScript('test/browser/pages/storybook-preview.ts', (path) => pageHtml)
 */
export async function servePageScript(
  entry: string,
  documents: (path: string) => string | undefined,
  plugins: PluginOption[] = [],
): Promise<ExampleSite> {
  const outDir = await mkdtemp(join(tmpdir(), 'plant-store-pages-'))
  await build({
    configFile: false,
    logLevel: 'warn',
    root: projectRoot,
    plugins,
    resolve: { conditions: ['plant-store-mock:source', ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      lib: { entry: join(projectRoot, entry), formats: ['es'], fileName: 'page' },
    },
  })
  const worker = join(projectRoot, 'node_modules/msw/lib/mockServiceWorker.js')
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (path.endsWith('.js')) {
      const file = await readFile(path === '/mockServiceWorker.js' ? worker : join(outDir, basename(path))).catch(
        () => undefined,
      )
      if (!file) return void response.writeHead(404).end()
      return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(file)
    }
    const html = documents(path)
    if (html === undefined) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
    response.writeHead(200, { 'content-type': 'text/html' }).end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await rm(outDir, { recursive: true, force: true })
    },
  }
}
