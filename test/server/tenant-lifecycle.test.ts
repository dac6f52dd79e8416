/** Tenant lifecycle over HTTP: exact plants, deletion by the tenant's own token, a time-to-live, the fixtures file. */

import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { PlantStoreApiError } from '../../src/client/index.ts'
import { toPlant } from '../../src/core/schemas.ts'
import { createPlantStore, fixtureTokens, worldSchema } from '../../src/index.ts'
import { createApp } from '../../src/server/index.ts'
import { expectErrorBody, read } from '../support/contract.ts'
import { useSandbox } from './sandbox-fixture.ts'
import { bearer, listen } from './support.ts'

const sandbox = useSandbox()
const { store } = sandbox

async function list(token: string) {
  return read(await fetch(`${sandbox.base}/plants`, { headers: bearer(token) }))
}

async function provision(body: unknown) {
  return read(
    await fetch(`${sandbox.base}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
}

const exact = [
  { id: 10, name: 'Monstera', tag: 'tropical' },
  { id: 20, name: 'Aloe' },
  { id: 30, name: 'Snake Plant', tag: null },
]

describe('provisioning with exact plants', () => {
  test('starts the tenant with exactly those plants, and a reset returns to them', async () => {
    const tenant = await sandbox.client.provision({
      plants: exact.map(({ tag, ...plant }) => (tag ? { ...plant, tag } : plant)),
    })
    expect(tenant.provisioned).toEqual({ tenant: expect.stringMatching(/^t_/), tokens: tenant.tokens, plants: 3 })
    const expected = [{ name: 'Monstera', tag: 'tropical' }, { name: 'Aloe' }, { name: 'Snake Plant' }]
    expect(JSON.parse((await list(tenant.tokens.write)).text)).toEqual(expected)
    await fetch(`${sandbox.base}/plants/10`, { method: 'DELETE', headers: bearer(tenant.tokens.write) })
    expect((await tenant.plants()).plants.map(({ id }) => id)).toEqual([20, 30])

    await tenant.reset()
    expect(await tenant.plants()).toEqual({
      tenant: tenant.provisioned?.tenant,
      count: 3,
      plants: [
        { id: 10, name: 'Monstera', tag: 'tropical' },
        { id: 20, name: 'Aloe' },
        { id: 30, name: 'Snake Plant' },
      ],
    })
  })

  test('takes a null tag as no tag, as a NewPlant does', async () => {
    const answer = await provision({ plants: exact })
    expect(answer.status).toBe(201)
    const { tokens } = JSON.parse(answer.text) as { tokens: { read: string } }
    expect(JSON.parse((await list(tokens.read)).text)[2]).toEqual({ name: 'Snake Plant' })
  })

  test.each([
    ['a plant without a name', { plants: [{ id: 1 }] }, 'plants.0.name'],
    ['a plant with an id past int64', { plants: [{ id: 2 ** 63, name: 'Big' }] }, 'plants.0.id'],
    [
      'the same id twice',
      {
        plants: [
          { id: 1, name: 'A' },
          { id: 1, name: 'B' },
        ],
      },
      'plants.1.id repeats the id 1 of an earlier plant',
    ],
    ['a tag that is too long', { plants: [{ id: 1, name: 'A', tag: 'x'.repeat(257) }] }, 'plants.0.tag'],
    ['plants that are a string', { plants: 'many' }, 'plants must be an integer from 0 to 10000'],
    ['a time-to-live of 0', { ttlSeconds: 0 }, 'ttlSeconds must be an integer from 1 to 86400'],
    ['a time-to-live past a day', { ttlSeconds: 86_401 }, 'ttlSeconds must be an integer from 1 to 86400'],
  ])('refuses %s with 400 naming the field', async (_what, body, message) => {
    const answer = await provision(body)
    expectErrorBody(answer, 400)
    expect(JSON.parse(answer.text).message).toContain(message)
  })
})

describe('DELETE /__sandbox/tenants/{id}', () => {
  test('removes the caller’s own provisioned tenant: its tokens answer 401 at once', async () => {
    const tenant = await sandbox.client.provision({ plants: 2, seed: 3 })
    const id = tenant.provisioned!.tenant
    await tenant.faults.add({ status: 500, times: 1 })
    expect((await list(tenant.tokens.read)).status).toBe(500)

    const deleted = await read(
      await fetch(`${sandbox.base}/__sandbox/tenants/${id}`, {
        method: 'DELETE',
        headers: bearer(tenant.tokens.write),
      }),
    )
    expect([deleted.status, deleted.text]).toEqual([204, ''])
    expectErrorBody(await list(tenant.tokens.read), 401)
    expectErrorBody(await list(tenant.tokens.write), 401)
    expect(store.hasTenant(id)).toBe(false)
  })

  test('refuses another tenant’s id (404), a fixture tenant (403) and a read-only token (403)', async () => {
    const a = await sandbox.client.provision()
    const b = await sandbox.client.provision()
    const del = (id: string, token: string) =>
      fetch(`${sandbox.base}/__sandbox/tenants/${id}`, { method: 'DELETE', headers: bearer(token) }).then(read)

    expectErrorBody(await del(b.provisioned!.tenant, a.tokens.write), 404)
    expectErrorBody(await del('acme', fixtureTokens.acme.write), 403)
    expectErrorBody(await del(a.provisioned!.tenant, a.tokens.read), 403)
    expectErrorBody(await del(a.provisioned!.tenant, 'psm_nobody'), 401)
    expectErrorBody(await del('%E0%A4%A', a.tokens.write), 404)
    expect(store.hasTenant(b.provisioned!.tenant) && store.hasTenant('acme')).toBe(true)
    // Percent-encoded unreserved characters are the characters themselves (RFC 3986), decoded once: `%5F` is `_`.
    const encoded = encodeURIComponent(a.provisioned!.tenant).replace('_', '%5F')
    expect(encoded).not.toBe(a.provisioned!.tenant)
    expect((await del(encoded, a.tokens.write)).status).toBe(204)
    expect(store.hasTenant(a.provisioned!.tenant)).toBe(false)
  })

  test('works through the client, which then sees 401 itself', async () => {
    const tenant = await sandbox.client.provision()
    await tenant.delete()
    const error = await tenant.plants().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PlantStoreApiError)
    expect((error as PlantStoreApiError).status).toBe(401)
  })
})

describe('a time-to-live', () => {
  test('is answered as expiresAt; past it the tokens answer 401 and the tenant is removed', async () => {
    const tenant = await sandbox.client.provision({ plants: 1, ttlSeconds: 60 })
    const id = tenant.provisioned!.tenant
    expect(tenant.provisioned?.expiresAt).toBe(new Date(Date.parse('2026-01-01T00:00:00Z') + 60_000).toISOString())
    expect((await list(tenant.tokens.read)).status).toBe(200)

    sandbox.advance(60_000)
    const expired = await list(tenant.tokens.read)
    expectErrorBody(expired, 401)
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token')
    await read(await fetch(`${sandbox.base}/__sandbox/health`)) // any admin request sweeps expired tenants
    expect(store.hasTenant(id)).toBe(false)
  })
})

describe('an expired tenant', () => {
  test('its tokens still say "has expired" once the tenant is removed, as in a cluster', async () => {
    const tenant = await sandbox.client.provision({ plants: 1, ttlSeconds: 60 })
    sandbox.advance(61_000)
    await read(await fetch(`${sandbox.base}/__sandbox/health`)) // sweeps the expired tenant away
    expect(store.hasTenant(tenant.provisioned!.tenant)).toBe(false)
    for (const token of [tenant.tokens.read, tenant.tokens.write]) {
      const answer = await list(token)
      expectErrorBody(answer, 401)
      expect(JSON.parse(answer.text).message).toBe('The access token has expired.')
    }
    expect(JSON.parse((await list('psm_never_issued')).text).message).toBe('The access token is not recognised.')
  })

  test('the expiry sweep waits on the store’s clock, not the wall clock: no busy timer while a tenant lives', async () => {
    // A clock a day behind the wall clock: measured against the wall clock, every expiry would look overdue.
    let reads = 0
    const now = () => {
      reads++
      return Date.now() - 86_400_000
    }
    const behind = await listen(createApp({ store: createPlantStore({ now }), now }))
    try {
      const answer = await read(
        await fetch(`${behind.base}/__sandbox/tenants`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"ttlSeconds": 60}',
        }),
      )
      expect(answer.status).toBe(201)
      reads = 0
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(reads).toBeLessThan(5)
    } finally {
      await behind.close()
    }
  })
})

describe('the example fixtures file', () => {
  const file = JSON.parse(readFileSync(new URL('../../fixtures/example-tenants.json', import.meta.url), 'utf8'))

  test('is a valid world with exact plants and seeded ones, served as written', async () => {
    const world = worldSchema.parse(file)
    const shop = createPlantStore({ world })
    await shop.ready
    const exactTenant = world.find(({ plants }) => Array.isArray(plants))!
    const seededTenant = world.find(({ plants }) => typeof plants === 'number')!
    expect(shop.listPlants(exactTenant.id)).toEqual(exactTenant.plants)
    expect(shop.countPlants(seededTenant.id)).toBe(seededTenant.plants)

    const served = await listen(createApp({ store: shop }))
    try {
      const token = exactTenant.users[0]!.tokens[0]!.token
      const answer = await read(await fetch(`${served.base}/plants`, { headers: bearer(token) }))
      expect(JSON.parse(answer.text)).toEqual(
        (exactTenant.plants as Array<{ name: string; tag?: string }>).map(toPlant),
      )
    } finally {
      await served.close()
    }
  })
})
