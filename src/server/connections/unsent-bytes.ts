import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** The default budgets of {@link UnsentBytes}. */
export const unsentDefaults = {
  /**
   * Unsent bytes of one connection: an answer that would take a connection
   * with answers still unsent past it closes the connection instead. An
   * answer on a connection with nothing unsent always goes (the longest list
   * at the default quota is under 32 MiB).
   */
  perConnection: 32 << 20,
  /** Unsent bytes of every connection together: beyond it, the oldest answers still being sent are cut. */
  total: 128 << 20,
} as const

/** What one connection has written and not yet handed to the system whole. */
interface Unsent {
  bytes: number
  readonly answers: Set<ServerResponse>
}

/**
 * A budget for the bytes of answers written but not yet taken by their
 * clients, per connection and in all: what a client that reads slowly (or
 * not at all) makes the sandbox hold. The transport asks {@link admit}
 * before it writes any answer, whatever its size, and tells
 * {@link written} after (issue 35, F1: answers
 * under 16 KiB used to go uncounted, on the belief that Node stops reading a
 * connection's pipelined requests at 16 KiB unsent, but Node parses a whole
 * 64 KiB read first). An answer counts its whole length, string or bytes,
 * from the moment it is written until it is handed to the system whole (its
 * `finish`) or its connection closes: what the process holds for it, on the
 * heap or off it. An answer the system took whole as it was written (most
 * are) held nothing, and is not counted: no bookkeeping per answer (issue
 * 41). A connection whose unsent answers would pass the per-connection budget is closed instead of being answered; when all of
 * them would pass the total, the connections of the oldest answers still
 * being sent are closed (a client that read its answer keeps no bytes here,
 * so those are the slowest readers), as the inspector lets go of a stream
 * too far behind.
 *
 * @example
 * const unsent = new UnsentBytes()
 * if (unsent.admit(res, body.byteLength)) {
 *   res.end(body)
 *   unsent.written(res, body.byteLength)
 * }
 */
export class UnsentBytes {
  readonly perConnection: number
  readonly total: number
  /** Answers written and not yet sent whole, oldest first, with their lengths. */
  readonly #sending = new Map<ServerResponse, number>()
  readonly #connections = new Map<Socket, Unsent>()
  #unsent = 0
  /** Connections closed to hold the budgets. */
  #closed = 0

  constructor(options: { perConnection?: number | undefined; total?: number | undefined } = {}) {
    this.perConnection = options.perConnection ?? unsentDefaults.perConnection
    this.total = Math.max(options.total ?? unsentDefaults.total, this.perConnection)
  }

  /** How many connections were closed to hold the budgets. */
  get closed(): number {
    return this.#closed
  }

  /** Bytes of the answers not yet sent whole, in all. */
  get unsent(): number {
    return this.#unsent
  }

  /** Bytes of a connection's answers not yet sent whole. */
  of(socket: Socket): number {
    return this.#connections.get(socket)?.bytes ?? 0
  }

  /**
   * Whether `res` may be answered with `size` more bytes: `false` when its
   * connection was closed instead (it is past its budget, or was among the
   * oldest when the total was). Then write it, and tell {@link written}.
   */
  admit(res: ServerResponse, size: number): boolean {
    const socket = res.req.socket
    if (socket.destroyed) return false
    const connection = this.#connections.get(socket)
    if (connection && connection.bytes > 0 && connection.bytes + size > this.perConnection) return this.#close(socket)
    for (const [oldest] of this.#sending) {
      if (this.#unsent + size <= this.total) break
      this.#close(oldest.req.socket)
    }
    return !socket.destroyed
  }

  /**
   * Counts an answer of `size` bytes just written (after {@link admit}) until
   * it is sent whole or its connection closes, if the system did not take it
   * whole at once: an answer the write that ended it handed over whole (the
   * usual one) holds nothing and costs no bookkeeping.
   */
  written(res: ServerResponse, size: number): void {
    if (res.writableFinished || res.destroyed) return
    const socket = res.req.socket
    this.#sending.set(res, size)
    this.#unsent += size
    const connection = this.#connections.get(socket)
    if (connection) {
      connection.bytes += size
      connection.answers.add(res)
    } else this.#connections.set(socket, { bytes: size, answers: new Set([res]) })
    const done = () => this.#forget(res)
    // Counted until the listeners of its `finish` have run: the connection's gate runs the request pipelined
    // behind it there, whose answer is admitted while this one still counts (it may still be in the system's
    // buffers, unread), as when every answer was counted from its admission.
    res.once('finish', () => process.nextTick(done))
    res.once('close', done)
  }

  /** Stops counting an answer: it was sent whole, or its connection closed. */
  #forget(res: ServerResponse): void {
    const size = this.#sending.get(res)
    if (size === undefined) return
    this.#sending.delete(res)
    this.#unsent -= size
    const socket = res.req.socket
    const connection = this.#connections.get(socket)
    if (!connection) return
    connection.bytes -= size
    connection.answers.delete(res)
    if (connection.answers.size === 0) this.#connections.delete(socket)
  }

  /** Closes a connection (at once: what it has not taken is dropped) and stops counting its answers. */
  #close(socket: Socket): false {
    for (const res of this.#connections.get(socket)?.answers ?? []) this.#forget(res)
    if (!socket.destroyed) {
      this.#closed++
      socket.destroy()
    }
    return false
  }
}
