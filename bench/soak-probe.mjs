/**
 * Preloaded (`--import`) into the sandbox bin the soak runs: answers the
 * soak's `memory` message over IPC with the process's memory after a forced
 * GC (the bin runs with `--expose-gc`). Nothing else: the sandbox itself is
 * `dist/sandbox/cli.js` exactly as `npm start` runs it.
 */
process.on('message', (message) => {
  if (message !== 'memory') return
  globalThis.gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  process.send?.({ rss, heapUsed })
})
// The IPC channel must not keep the sandbox alive once it has stopped on SIGTERM.
process.channel?.unref()
