/** Helpers for tests of the standalone server over real HTTP on loopback, ephemeral ports. */
import { request, type Server } from 'node:http'
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

/**
 * Provisions from a loopback address of its own (127.0.0.x), and deletes the tenant again when one was made:
 * the status and `Retry-After`.
 *
 * @example
 * expect((await provisionFrom(base, '127.0.0.2', { 'x-real-ip': '203.0.113.7' })).status).toBe(201)
 */
export function provisionFrom(
  base: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter?: string }> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const options = { host: hostname, port, method: 'POST', path: '/__sandbox/tenants', localAddress, headers }
    const req = request(options, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString()
      })
      res.on('end', async () => {
        if (res.statusCode === 201) {
          const { tenant, tokens } = JSON.parse(text)
          await fetch(`${base}/__sandbox/tenants/${tenant}`, { method: 'DELETE', headers: bearer(tokens.write) })
        }
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] })
      })
    })
    req.on('error', reject)
    req.end()
  })
}
