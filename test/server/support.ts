/** Helpers for tests of the standalone server over real HTTP on loopback, ephemeral ports. */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from 'express'

export interface Listening {
  /** e.g. `http://127.0.0.1:41234` */
  readonly base: string
  readonly server: Server
  close(): Promise<void>
}

/** Serves an Express app on 127.0.0.1 and a free port. */
export function listen(app: Express): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1')
    server.once('error', reject)
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        base: `http://127.0.0.1:${port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          }),
      })
    })
  })
}

/** Headers for a bearer token. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}
