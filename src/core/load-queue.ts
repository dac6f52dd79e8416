/**
 * The store's readiness: its loads, resets and restores run one after
 * another, and requests wait while any is under way. One job of
 * `PlantStore`, on its own.
 *
 * @example
 * const loads = new LoadQueue()
 * await loads.enqueue(async () => swapIn(await build(world)))
 * loads.settled // true
 */
export class LoadQueue {
  /** Settles with the latest task. */
  #queue: Promise<void> = Promise.resolve()
  #pending = 0

  /** Settles once the latest task is done; rejects if it failed. */
  get ready(): Promise<void> {
    return this.#queue
  }

  /** Whether no task is under way. */
  get settled(): boolean {
    return this.#pending === 0
  }

  /** Runs a task after the ones before it (whether they failed or not). */
  enqueue(task: () => Promise<void>): Promise<void> {
    this.#pending++
    const run = this.#queue
      .catch(() => undefined)
      .then(task)
      .finally(() => {
        this.#pending--
      })
    this.#queue = run
    return run
  }

  /** Waits for the tasks under way, without failing when the last one failed. */
  settle(): Promise<void> {
    return this.#queue.catch(() => undefined)
  }
}
