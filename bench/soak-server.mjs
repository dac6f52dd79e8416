/**
 * The soak's server: the sandbox as the package ships it, compiled to plain
 * JavaScript (`npm run build`), so the process holds what a user's would and
 * no TypeScript stripper, and with the young-generation cap `npm start` sets
 * (`--max-semi-space-size=8`). It reports its memory after a forced GC when the
 * soak asks over IPC, and stops gracefully on SIGTERM.
 */
// A computed specifier: dist/ exists only after a build, so the type-check must not try to resolve it.
const compiled = new URL('../dist/src/server/serve.js', import.meta.url).href
let startSandbox
try {
  ;({ startSandbox } = await import(compiled))
} catch {
  process.stderr.write('soak: dist/ is missing or stale; run `npm run build` first.\n')
  process.exit(2)
}
const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, maxTenants: 1000 })
process.on('message', (message) => {
  if (message !== 'memory') return
  globalThis.gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  process.send?.({ rss, heapUsed })
})
process.once('SIGTERM', () => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
})
process.send?.({ url: sandbox.url })
