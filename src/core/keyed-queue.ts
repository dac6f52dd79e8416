/**
 * Runs tasks one after another per key (a tenant, say), so that each sees
 * what the one before it left; tasks of different keys run side by side. A
 * task that fails does not stop the ones queued after it.
 *
 * @example
 * const serially = keyedQueue()
 * await serially('acme', async () => save(await load()))
 */
export function keyedQueue(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const last = new Map<string, Promise<unknown>>()
  return (key, task) => {
    const run = (last.get(key) ?? Promise.resolve()).catch(() => undefined).then(task)
    last.set(key, run)
    const forget = () => {
      if (last.get(key) === run) last.delete(key)
    }
    run.then(forget, forget)
    return run
  }
}
