/**
 * Who the client of a request is, for the per-client shares (plant bytes,
 * provisioned tenants, the provisioning rate; issue 44, item 2): the address
 * the connection comes from, unless that address is a proxy the sandbox was
 * told to trust (`--trust-proxy`), whose `X-Real-IP` header then names the
 * client. Nobody else's header is believed: a client that sends `X-Real-IP`
 * or `X-Forwarded-For` itself is still its own address. Every part of the
 * sandbox that needs the client's address gets it from the one function this
 * makes.
 */
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

/** The client's address of a request (`undefined` when the transport has none). */
export type ClientAddress = (req: IncomingMessage) => string | undefined

/** An IPv4 address as Node reports it on a dual-stack socket (`::ffff:127.0.0.1`) is the IPv4 address. */
const mappedIpv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i

/**
 * An address as the sandbox compares addresses: IPv4-mapped IPv6 as IPv4, IPv6 in lower case.
 *
 * @example
 * normalAddress('::ffff:127.0.0.1') // '127.0.0.1'
 */
export function normalAddress(address: string): string {
  return (mappedIpv4.exec(address)?.[1] ?? address).toLowerCase()
}

/**
 * The function that gives each request's client address: the connection's
 * own address, or, from one of `trustedProxies` (IP addresses, e.g. nginx's
 * `127.0.0.1`), the address in its `X-Real-IP` header (one IP address; nginx
 * sets it from `$remote_addr`). A trusted proxy's request without a valid
 * header is the proxy's own.
 *
 * @example
 * const clientOf = clientAddress(['127.0.0.1'])
 * clientOf(req) // '203.0.113.7' when nginx on 127.0.0.1 sent X-Real-IP: 203.0.113.7
 */
export function clientAddress(trustedProxies: readonly string[] = []): ClientAddress {
  if (trustedProxies.length === 0) return (req) => req.socket.remoteAddress
  const trusted = new Set(trustedProxies.map(normalAddress))
  return (req) => {
    const peer = req.socket.remoteAddress
    if (peer === undefined || !trusted.has(normalAddress(peer))) return peer
    const header = req.headers['x-real-ip']
    const claimed = typeof header === 'string' ? header.trim() : ''
    return isIP(claimed) ? normalAddress(claimed) : peer
  }
}
