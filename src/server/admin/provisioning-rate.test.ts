import { describe, expect, test } from 'vitest'
import { clientOf, ProvisioningRate } from './provisioning-rate.ts'

describe('clientOf', () => {
  test('an IPv4 address is one client, also when mapped into IPv6', () => {
    expect(clientOf('127.0.0.2')).toBe('address 127.0.0.2')
    expect(clientOf('::ffff:127.0.0.2')).toBe('address 127.0.0.2')
    expect(clientOf(undefined)).toBe('address unknown')
  })

  test('an IPv6 address counts by its /64, however it is written', () => {
    const network = 'network 2001:db8:0:1::/64'
    for (const address of ['2001:db8:0:1::5', '2001:0db8:0000:0001:ffff:1:2:3', '2001:DB8:0:1:0:0:0:9%eth0']) {
      expect(clientOf(address), address).toBe(network)
    }
    expect(clientOf('::1')).toBe('network 0:0:0:0::/64')
    expect(clientOf('2001:db8:0:2::5')).not.toBe(network)
  })
})

describe('ProvisioningRate with a share', () => {
  test("a client's rate and burst are its share of the total's: a quarter of 20 a second, after a burst of 50", () => {
    const rate = new ProvisioningRate({ total: 20, minBurst: 100, share: 0.25, now: () => 0 })
    for (let i = 0; i < 50; i++) rate.take('address 127.0.0.2')
    expect(() => rate.take('address 127.0.0.2')).toThrow(/from this address \(at most 5 a second after a burst of 50\)/)
    rate.take('address 127.0.0.3')
  })
})
