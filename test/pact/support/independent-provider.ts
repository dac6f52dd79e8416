/**
 * A Plant Store written apart from plant-store-mock, as another team would
 * write theirs: plain `node:http`, nothing imported from `src/`, its own
 * tokens (`tok_…`), its own plant names, a `; charset=utf-8` on every JSON
 * answer. It exists so that the pacts this repository writes are verified by
 * something other than our own sandbox: a pact that only passes against the
 * sandbox's fixture world fails here.
 *
 * Its test data (`TestData`) is what a real provider's test set-up would
 * offer its state handlers: make a tenant with a caller of given scopes, add
 * plants, remove one. Nothing here knows about Pact.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A plant as this provider stores it. */
export interface Plant {
  readonly id: number
  readonly name: string
  readonly tag?: string
}

type Scope = 'plants:read' | 'plants:write'

interface Caller {
  readonly tenant: string
  readonly scopes: readonly Scope[]
}

/** What a provider team's test set-up can do to this provider's data. */
export interface TestData {
  /** A new, empty tenant with a caller of these scopes; answers the tenant's id and the caller's token. */
  newTenant(scopes: readonly Scope[]): { tenant: string; token: string }
  /** Adds a plant to a tenant, replacing one with the same id. */
  putPlant(tenant: string, plant: Plant): void
  /** Removes the plant with this id from a tenant, if it holds one. */
  removePlant(tenant: string, id: number): void
  /** Forgets every tenant and token made since the start (the seeded tenant stays). */
  reset(): void
}

/** The provider, listening on a loopback port. */
export interface IndependentProvider {
  readonly url: string
  readonly data: TestData
  close(): Promise<void>
}

const realm = 'Bearer realm="plant-store"'
const allScopes: readonly Scope[] = ['plants:read', 'plants:write']

/**
 * Starts the independent Plant Store on an ephemeral loopback port. It
 * starts with one tenant (`greenhouse`, three succulents, token
 * `tok_greenhouse`), not the fixture world.
 *
 * @example
 * const provider = await startIndependentProvider()
 * const { token } = provider.data.newTenant(['plants:read'])
 * await fetch(`${provider.url}/plants`, { headers: { authorization: `Bearer ${token}` } })
 */
export async function startIndependentProvider(): Promise<IndependentProvider> {
  const tenants = new Map<string, Map<number, Plant>>()
  const tokens = new Map<string, Caller>()

  function seed(): void {
    tenants.clear()
    tokens.clear()
    tenants.set(
      'greenhouse',
      new Map(
        [
          { id: 11, name: 'Haworthia', tag: 'succulent' },
          { id: 12, name: 'Echeveria', tag: 'succulent' },
          { id: 13, name: 'Lithops' },
        ].map((plant) => [plant.id, plant]),
      ),
    )
    tokens.set('tok_greenhouse', { tenant: 'greenhouse', scopes: allScopes })
  }
  seed()

  const data: TestData = {
    newTenant(scopes) {
      const tenant = `t_${randomBytes(6).toString('hex')}`
      const token = `tok_${randomBytes(16).toString('base64url')}`
      tenants.set(tenant, new Map())
      tokens.set(token, { tenant, scopes })
      return { tenant, token }
    },
    putPlant(tenant, plant) {
      const plants = tenants.get(tenant)
      if (!plants) throw new Error(`no tenant ${tenant}`)
      plants.delete(plant.id)
      plants.set(plant.id, plant)
    },
    removePlant(tenant, id) {
      tenants.get(tenant)?.delete(id)
    },
    reset: seed,
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500, { error: 500, message: 'Internal error.' }))
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://provider')
    const isList = url.pathname === '/plants'
    const one = /^\/plants\/([^/]+)$/.exec(url.pathname)
    if (!isList && !one) return send(response, 404, { error: 404, message: 'No such resource.' })
    const allowed = isList ? ['GET', 'POST'] : ['DELETE']
    if (!allowed.includes(request.method ?? '')) {
      return send(response, 405, { error: 405, message: 'Method not allowed.' }, { allow: allowed.join(', ') })
    }
    const caller = authenticate(request, response)
    if (!caller) return
    const needed: Scope = request.method === 'GET' ? 'plants:read' : 'plants:write'
    if (!caller.scopes.includes(needed)) {
      return send(
        response,
        403,
        { error: 403, message: `This token lacks ${needed}.` },
        { 'www-authenticate': `${realm}, error="insufficient_scope"` },
      )
    }
    const plants = tenants.get(caller.tenant) ?? new Map<number, Plant>()
    if (request.method === 'GET') return list(url, plants, response)
    if (request.method === 'POST') return create(request, plants, response)
    return remove(one?.[1] ?? '', plants, response)
  }

  function authenticate(request: IncomingMessage, response: ServerResponse): Caller | undefined {
    const header = request.headers.authorization
    const token = header === undefined ? undefined : /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header)?.[1]
    if (token === undefined) {
      send(response, 401, { error: 401, message: 'Sign in with a bearer token.' }, { 'www-authenticate': realm })
      return undefined
    }
    const caller = tokens.get(token)
    if (!caller) {
      send(
        response,
        401,
        { error: 401, message: 'This token is not one we issued.' },
        { 'www-authenticate': `${realm}, error="invalid_token"` },
      )
    }
    return caller
  }

  function list(url: URL, plants: Map<number, Plant>, response: ServerResponse): void {
    const limits = url.searchParams.getAll('limit')
    let limit = Number.POSITIVE_INFINITY
    if (limits.length > 0) {
      const [text] = limits
      if (limits.length > 1 || text === undefined || !/^\d{1,10}$/.test(text) || Number(text) > 2_147_483_647) {
        send(response, 400, { error: 400, message: 'limit must be an integer from 0 to 2147483647.' })
        return
      }
      limit = Number(text)
    }
    const page = [...plants.values()]
      .slice(0, limit)
      .map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }))
    send(response, 200, page)
  }

  async function create(request: IncomingMessage, plants: Map<number, Plant>, response: ServerResponse): Promise<void> {
    if (!/^application\/json(\s*;\s*charset=utf-8)?$/i.test(request.headers['content-type'] ?? '')) {
      return send(response, 415, { error: 415, message: 'Send application/json.' })
    }
    let body: unknown
    try {
      body = JSON.parse(await text(request))
    } catch {
      return send(response, 400, { error: 400, message: 'The body is not JSON.' })
    }
    const { id, name, tag } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      return send(response, 400, { error: 400, message: 'id must be an integer.' })
    }
    if (typeof name !== 'string' || name.length === 0 || [...name].length > 256) {
      return send(response, 400, { error: 400, message: 'name must be 1 to 256 characters.' })
    }
    if (tag !== undefined && tag !== null && (typeof tag !== 'string' || [...tag].length > 256)) {
      return send(response, 400, { error: 400, message: 'tag must be at most 256 characters.' })
    }
    if (plants.has(id)) return send(response, 409, { error: 409, message: `Plant ${id} already exists.` })
    const plant: Plant = typeof tag === 'string' ? { id, name, tag } : { id, name }
    plants.set(id, plant)
    send(response, 200, typeof tag === 'string' ? { name, tag } : { name })
  }

  function remove(text: string, plants: Map<number, Plant>, response: ServerResponse): void {
    const id = Number(text)
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(id)) {
      send(response, 400, { error: 400, message: 'id must be an integer.' })
    } else if (!plants.delete(id)) {
      send(response, 404, { error: 404, message: `No plant ${id}.` })
    } else {
      response.writeHead(204).end()
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    data,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body))
}

function text(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}
