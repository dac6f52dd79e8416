import type { ServerResponse } from 'node:http'

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
  /**
   * Answers shorter than this are not counted: Node stops reading a
   * connection's pipelined requests once 16 KiB of its answers are unsent,
   * so short answers cannot pile up.
   */
  countedFrom: 16 << 10,
} as const

/**
 * A budget for the bytes of answers written but not yet taken by their
 * clients, per connection and in all: what a client that reads slowly (or
 * not at all) makes the sandbox hold. The transport asks {@link admit}
 * before it writes an answer of {@link unsentDefaults.countedFrom} bytes or
 * more. A connection whose unsent answers would pass the per-connection
 * budget is closed instead of being answered; when all of them would pass
 * the total, the connections of the oldest answers still being sent are
 * closed (a client that read its answer keeps no bytes here, so those are
 * the slowest readers), as the inspector lets go of a stream too far behind.
 *
 * @example
 * const unsent = new UnsentBytes()
 * if (unsent.admit(res, body.byteLength)) res.end(body)
 */
export class UnsentBytes {
  readonly perConnection: number
  readonly total: number
  /** Answers written and not yet sent whole, oldest first. */
  readonly #sending = new Set<ServerResponse>()
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

  /** Bytes of the counted answers not yet sent, in all. */
  get unsent(): number {
    let total = 0
    for (const sending of this.#sending) total += sending.writableLength
    return total
  }

  /**
   * Whether `res` may be answered with `size` more bytes: `false` when its
   * connection was closed instead (it is past its budget, or was among the
   * oldest when the total was). When it may, the answer counts until it is
   * sent whole or its connection closes.
   */
  admit(res: ServerResponse, size: number): boolean {
    if (size < unsentDefaults.countedFrom) return true
    const socket = res.req.socket
    let total = 0
    let connection = 0
    for (const sending of this.#sending) {
      const unsent = sending.writableLength
      total += unsent
      if (sending.req.socket === socket) connection += unsent
    }
    if (connection > 0 && connection + size > this.perConnection) return this.#close(res)
    for (const sending of this.#sending) {
      if (total + size <= this.total) break
      total -= sending.writableLength
      this.#close(sending)
    }
    if (socket.destroyed) return false
    this.#sending.add(res)
    const done = () => this.#sending.delete(res)
    res.once('finish', done)
    res.once('close', done)
    return true
  }

  /** Closes the connection of an answer (at once: what it has not taken is dropped). */
  #close(res: ServerResponse): false {
    this.#sending.delete(res)
    const { socket } = res.req
    if (!socket.destroyed) {
      this.#closed++
      socket.destroy()
    }
    return false
  }
}
