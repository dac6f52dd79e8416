/** Which client a request's network address counts as, for its shares of the sandbox's budgets. */

/**
 * The client a network address counts as, for its shares of the sandbox's
 * budgets: an IPv4 address (also when mapped into IPv6) is one client; an
 * IPv6 address counts by its /64, the network one host is given, since a
 * host can take any address in it.
 *
 * @example
 * clientOf('::ffff:127.0.0.2') // 'address 127.0.0.2'
 * clientOf('2001:db8:0:1::5')  // 'network 2001:db8:0:1::/64'
 */
export function clientOf(address: string | undefined): string {
  if (!address) return 'address unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return `address ${mapped[1]}`
  if (!address.includes(':')) return `address ${address}`
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::')
  const heads = head === '' ? [] : head.split(':')
  const tails = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = [...heads, ...Array<string>(Math.max(0, 8 - heads.length - tails.length)).fill('0'), ...tails]
  return `network ${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
