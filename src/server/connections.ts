// Through getBuiltinModule, not an `import`: the ESM face of node:fs reads every export, which loads fs/promises,
// readline and more at start.
const { readFileSync } = process.getBuiltinModule('node:fs')

/** File descriptors the sandbox keeps for its own use (its files, logs, Redis, webhooks) below the open-file limit. */
export const reservedDescriptors = 128

/** The open-file limit assumed where the process's cannot be read (no `/proc`). */
const assumedOpenFiles = 1024

/**
 * The process's open-file limit (the soft `RLIMIT_NOFILE`, which Node raises
 * to the hard one at start), from `/proc/self/limits`: `Infinity` when
 * unlimited, `undefined` where it cannot be read.
 *
 * @example
 * openFilesLimit() // 1024 under `ulimit -n 1024`
 */
export function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    if (!line?.[1]) return undefined
    return line[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(line[1])
  } catch {
    return undefined
  }
}

/**
 * The connections the sandbox accepts at once by default: the open-file
 * limit less {@link reservedDescriptors} (at least 64), so that clients
 * holding connections open can never take the descriptors the process
 * needs, nor make it fail to accept (issue 27, M1). Beyond it a new
 * connection is closed as soon as it is accepted.
 *
 * @example
 * server.maxConnections = defaultMaxConnections() // 896 under `ulimit -n 1024`
 */
export function defaultMaxConnections(): number {
  return Math.max(64, (openFilesLimit() ?? assumedOpenFiles) - reservedDescriptors)
}
