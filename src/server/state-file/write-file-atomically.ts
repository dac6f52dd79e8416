/**
 * Files written so that a reader or a crash never sees half of one: every
 * write checked for what the disk took, new files made exclusively under an
 * unpredictable name beside the real one, flushed, checked for their size,
 * renamed into place, and the folder flushed. The state file's compaction
 * and `--ready-file` both use these.
 */
import type { FileHandle } from 'node:fs/promises'

// Through getBuiltinModule, not an `import`: node:fs/promises loads its watchers, streams and readline (1 ms of a
// start), so it is looked up when a file is written.
const { basename, dirname, join } = process.getBuiltinModule('node:path')

/** A new file beside another, not yet in its place: its handle and its own path. */
export interface TemporaryFile {
  readonly file: FileHandle
  readonly path: string
}

/**
 * Writes all of `bytes` at `position`: a short write (a disk filling up takes
 * part of it) goes on with the rest, and a write that takes nothing throws
 * `ENOSPC`. `FileHandle.write` answers what it wrote; this never assumes.
 *
 * @example
 * await writeFully(file, Buffer.from('{"t":"clear"}\n'), length)
 */
export async function writeFully(file: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let written = 0
  while (written < bytes.length) {
    const { bytesWritten } = await file.write(bytes, written, bytes.length - written, position + written)
    if (bytesWritten <= 0) {
      throw Object.assign(new Error(`ENOSPC: no space left on device, ${written} of ${bytes.length} bytes written`), {
        code: 'ENOSPC',
      })
    }
    written += bytesWritten
  }
}

/**
 * Makes a new file beside `path` (same folder, so that a rename is atomic)
 * named `.<name>.<16 random hex digits>.tmp`, exclusively (`wx`: a file or a
 * link already there is never opened, so a planted link is not followed) and
 * with `mode` (as the umask allows).
 *
 * @example
 * const temporary = await createTemporaryBeside('/var/lib/sandbox/state.jsonl', 0o600)
 */
export async function createTemporaryBeside(path: string, mode: number): Promise<TemporaryFile> {
  const { open } = process.getBuiltinModule('node:fs/promises')
  const { randomBytes } = process.getBuiltinModule('node:crypto')
  for (let attempt = 1; ; attempt++) {
    const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
    try {
      return { file: await open(temporary, 'wx', mode), path: temporary }
    } catch (error) {
      // A name taken by chance (or planted): another one; never the same file twice.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 5) throw error
    }
  }
}

/**
 * Puts a temporary file in place of `path`: flushes it, checks that it holds
 * the `length` bytes written to it, renames it over `path` and flushes the
 * folder. Until the rename `path` is untouched; the temporary file stays open
 * (the caller closes it, or keeps writing to it: it is the file at `path` now).
 * `onRenamed` is called once it is renamed, so that a caller knows which file
 * a failure (of the folder's flush) left in place.
 *
 * @example
 * await putInPlace(temporary, '/var/lib/sandbox/state.jsonl', length)
 */
export async function putInPlace(
  { file, path: temporary }: TemporaryFile,
  path: string,
  length: number,
  onRenamed: () => void = () => {},
): Promise<void> {
  const { rename } = process.getBuiltinModule('node:fs/promises')
  await file.sync()
  const { size } = await file.stat()
  if (size !== length) throw new Error(`the new file holds ${size} bytes of the ${length} written to it`)
  await rename(temporary, path)
  onRenamed()
  await syncFolder(dirname(path))
}

/**
 * Flushes a folder, so that a rename in it survives a crash of the machine.
 * Where folders cannot be opened or flushed (Windows, some network file
 * systems) the rename is left to the file system.
 *
 * @example
 * await syncFolder('/var/lib/sandbox')
 */
export async function syncFolder(path: string): Promise<void> {
  if (process.platform === 'win32') return
  const { open } = process.getBuiltinModule('node:fs/promises')
  let folder: FileHandle
  try {
    folder = await open(path, 'r')
  } catch {
    return
  }
  try {
    await folder.sync()
  } catch (error) {
    if (!['EINVAL', 'EISDIR', 'EPERM', 'EBADF', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? ''))
      throw error
  } finally {
    await folder.close()
  }
}

/**
 * Writes `text` to `path` atomically: to a new file beside it (see
 * {@link createTemporaryBeside}), every byte checked, flushed to disk, then
 * renamed over the old one, so that a reader or a crash never sees a
 * half-written file; on failure the temporary file is removed and `path`
 * is as it was.
 *
 * @example
 * await writeFileAtomically('.sandbox.json', JSON.stringify({ url }), 0o644)
 */
export async function writeFileAtomically(path: string, text: string, mode = 0o644): Promise<void> {
  const { rm } = process.getBuiltinModule('node:fs/promises')
  const bytes = Buffer.from(text)
  const temporary = await createTemporaryBeside(path, mode)
  let renamed = false
  try {
    await writeFully(temporary.file, bytes, 0)
    await putInPlace(temporary, path, bytes.length, () => {
      renamed = true
    })
  } catch (error) {
    if (!renamed) await rm(temporary.path, { force: true })
    throw error
  } finally {
    await temporary.file.close()
  }
}
