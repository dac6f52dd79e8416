// Through getBuiltinModule, not an `import`: node:fs/promises loads its watchers, streams and readline (1 ms of a
// start), so it is looked up when a file is written.
const { basename, dirname, join } = process.getBuiltinModule('node:path')

/**
 * Writes `text` to `path` atomically: to a temporary file beside it, flushed
 * to disk, then renamed over the old one, so that a reader or a crash never
 * sees a half-written file.
 *
 * @example
 * await writeFileAtomically('.sandbox-state.json', JSON.stringify(state), 0o600)
 */
export async function writeFileAtomically(path: string, text: string, mode = 0o644): Promise<void> {
  const { open, rename, rm } = process.getBuiltinModule('node:fs/promises')
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  const file = await open(temporary, 'w', mode)
  try {
    await file.writeFile(text)
    await file.sync()
  } finally {
    await file.close()
  }
  try {
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
