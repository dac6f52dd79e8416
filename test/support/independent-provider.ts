/**
 * A Plant Store written from the contract alone, as another team would write
 * theirs: plain `node:http`, nothing imported from `src/`, its own tokens and
 * plants. The one independent implementation the project checks itself
 * against, for both jobs:
 *
 * - the conformance rules run against it (`test/conformance`): it must pass
 *   every one, and each {@link Divergence} changes one behaviour against the
 *   contract, to prove that the rule named after it catches it;
 * - the committed pacts are verified against it (`test/pact/provider`) with a
 *   provider team's state handlers, which set up its data through
 *   {@link TestData}: a pact that only passes against the sandbox's fixture
 *   world fails here.
 *
 * It differs from the mock in every incidental way the rules and pacts must
 * not judge (message wording, header order and case, extra `Allow` methods,
 * CORS and unknown headers, `charset` on JSON answers, field order in Error
 * bodies). Adding an operation to the contract means answering it here too
 * (docs/maintainers/adding-an-operation.md).
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One way to break the contract; the test names the rule that must catch it. */
export type Divergence =
  | 'create-201'
  | 'no-head'
  | 'no-challenge'
  | 'leaky-list'
  | 'limit-ignored'
  | 'null-tags'
  | 'foreign-delete-403'
  | 'global-ids'
  | 'any-content-type'
  | 'no-body-limit'
  | 'html-not-found'
  | 'delete-200'
  | 'error-as-string'
  | 'scopes-ignored'
  | 'expired-accepted'
  | 'no-405'
  | 'lenient-limit'
  | 'newest-first'
  | 'duplicate-overwrites'
  | 'trimmed-names'
  | 'unnamed-fields'
  | 'lenient-path-ids'
  | 'existence-leak'
  | 'null-tag-refused'
  | 'quota-ignored'
  | 'status-422'
  | 'basic-challenge'

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
  readonly expired?: boolean
}

/** What a provider team's test set-up can do to this provider's data. */
export interface TestData {
  /** A new, empty tenant with a caller of these scopes; answers the tenant's id and the caller's token. */
  newTenant(scopes: readonly Scope[]): { tenant: string; token: string }
  /** Adds a plant to a tenant, replacing one with the same id. */
  putPlant(tenant: string, plant: Plant): void
  /** Removes the plant with this id from a tenant, if it holds one. */
  removePlant(tenant: string, id: number): void
  /** Forgets every tenant and token made since the start, and seeds the first ones again. */
  reset(): void
}

export interface IndependentProviderOptions {
  /** What changes against the contract (nothing by default). */
  divergence?: Divergence
  /** Plants a tenant may hold (default 10,000). */
  quota?: number
  /** Delay every answer by this much (to interrupt a run midway). */
  delayMs?: number
}

/** The provider, listening on a loopback port. */
export interface IndependentProvider {
  readonly url: string
  readonly data: TestData
  /** Every tenant's plants, serialized: equal before and after means nothing changed. */
  state(): string
  close(): Promise<void>
}

/**
 * The tokens it starts with, in the roles a conformance run takes: tenant
 * north (read-write, read-only, expired) and tenant south.
 */
export const independentTokens = {
  readWrite: 'north-gardener',
  readOnly: 'north-visitor',
  foreign: 'south-gardener',
  expired: 'north-gardener-2019',
} as const

const maxBodyBytes = 65536
const maxId = Number.MAX_SAFE_INTEGER
const realm = 'Bearer realm="plant-store"'
const allScopes: readonly Scope[] = ['plants:read', 'plants:write']
const jsonType = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i
const token68 = /^[A-Za-z0-9\-._~+/]+=*$/

/** A refused request: its status, message, and the challenge or `Allow` it carries. */
class Refusal {
  readonly status: number
  readonly message: string
  readonly challenge: string | undefined
  readonly allow: string | undefined

  constructor(status: number, message: string, headers: { challenge?: string; allow?: string } = {}) {
    this.status = status
    this.message = message
    this.challenge = headers.challenge
    this.allow = headers.allow
  }
}

/**
 * Starts the independent Plant Store on 127.0.0.1 and a free port, with
 * tenant north (three plants) and tenant south (one) and the
 * {@link independentTokens}, not the fixture world.
 *
 * @example
 * const provider = await startIndependentProvider({ divergence: 'create-201' })
 * const { token } = provider.data.newTenant(['plants:read'])
 * await fetch(`${provider.url}/plants`, { headers: { authorization: `Bearer ${token}` } })
 */
export async function startIndependentProvider(options: IndependentProviderOptions = {}): Promise<IndependentProvider> {
  const broken = (divergence: Divergence) => options.divergence === divergence
  const quota = options.quota ?? 10_000
  const gardens = new Map<string, Plant[]>()
  const tokens = new Map<string, Caller>()

  function seed(): void {
    gardens.clear()
    tokens.clear()
    gardens.set('north', [
      { id: 1, name: 'Monstera', tag: 'aroid' },
      { id: 2, name: 'Snake Plant' },
      { id: 3, name: 'Fiddle Leaf Fig', tag: 'ficus' },
    ])
    gardens.set('south', [{ id: 1, name: 'Cactus', tag: 'succulent' }])
    tokens.set(independentTokens.readWrite, { tenant: 'north', scopes: allScopes })
    tokens.set(independentTokens.readOnly, { tenant: 'north', scopes: ['plants:read'] })
    tokens.set(independentTokens.foreign, { tenant: 'south', scopes: allScopes })
    tokens.set(independentTokens.expired, { tenant: 'north', scopes: allScopes, expired: true })
  }
  seed()
  const gardenOf = (tenant: string) => gardens.get(tenant) ?? []

  const data: TestData = {
    newTenant(scopes) {
      const tenant = `t_${randomBytes(6).toString('hex')}`
      const token = `tok_${randomBytes(16).toString('base64url')}`
      gardens.set(tenant, [])
      tokens.set(token, { tenant, scopes })
      return { tenant, token }
    },
    putPlant(tenant, plant) {
      const garden = gardens.get(tenant)
      if (!garden) throw new Error(`no tenant ${tenant}`)
      data.removePlant(tenant, plant.id)
      garden.push(plant)
    },
    removePlant(tenant, id) {
      const garden = gardenOf(tenant)
      const index = garden.findIndex((plant) => plant.id === id)
      if (index !== -1) garden.splice(index, 1)
    },
    reset: seed,
  }

  function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    const text = body === undefined ? '' : JSON.stringify(body)
    res.writeHead(status, {
      'X-Served-By': 'independent-provider',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'WWW-Authenticate, Allow',
      'Cache-Control': 'no-store',
      ...headers,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    })
    res.end(text)
  }

  function refuse(res: ServerResponse, { status, message, challenge, allow }: Refusal) {
    const wire = broken('status-422') && status === 400 ? 422 : status
    const error = broken('error-as-string') ? String(wire) : wire
    const headers = {
      ...(challenge && !broken('no-challenge') ? { 'Www-Authenticate': challenge } : {}),
      ...(allow ? { Allow: allow } : {}),
    }
    send(res, wire, { message: broken('unnamed-fields') ? 'Bad request.' : message, error }, headers)
  }

  function authenticate(req: IncomingMessage, scope: Scope): Caller {
    const header = req.headers.authorization
    const [scheme = '', credentials = '', ...rest] = (header ?? '').split(' ')
    if (!header || scheme.toLowerCase() !== 'bearer') {
      throw new Refusal(401, 'Authentication required.', {
        challenge: broken('basic-challenge') ? 'Basic realm="plants"' : realm,
      })
    }
    const found = rest.length === 0 && token68.test(credentials) ? tokens.get(credentials) : undefined
    if (!found || (found.expired && !broken('expired-accepted'))) {
      throw new Refusal(401, 'Token not valid.', { challenge: `${realm}, error="invalid_token"` })
    }
    if (!found.scopes.includes(scope) && !broken('scopes-ignored')) {
      throw new Refusal(403, `Scope ${scope} required.`, { challenge: `${realm}, error="insufficient_scope"` })
    }
    return found
  }

  function parseLimit(query: string): number | undefined {
    const values = new URLSearchParams(query).getAll('limit')
    if (values.length === 0) return undefined
    if (broken('lenient-limit')) return Number.parseInt(values[0] ?? '', 10) || undefined
    const [value = ''] = values
    if (values.length > 1 || !/^\d+$/.test(value) || Number(value) > 2147483647) {
      throw new Refusal(400, 'Query parameter limit: expected one integer between 0 and 2147483647.')
    }
    return Number(value)
  }

  function parsePathId(segment: string): number {
    if (broken('lenient-path-ids')) return Number.parseInt(decodeURIComponent(segment), 10)
    const id = Number(segment)
    if (!/^-?\d+$/.test(segment) || Math.abs(id) > maxId) {
      throw new Refusal(400, 'Path parameter id: integer required.')
    }
    return id
  }

  async function readBody(req: IncomingMessage): Promise<Buffer | 'too large'> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size <= maxBodyBytes || broken('no-body-limit')) chunks.push(chunk)
    }
    return size > maxBodyBytes && !broken('no-body-limit') ? 'too large' : Buffer.concat(chunks)
  }

  function parsePlant(bytes: Buffer): Plant {
    let value: unknown
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    } catch {
      throw new Refusal(400, 'Body: malformed JSON.')
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new Refusal(400, 'Body: expected a JSON object.')
    }
    const { id, name, tag } = value as Record<string, unknown>
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Refusal(400, 'Field id: integer required.')
    if (typeof name !== 'string' || name.length === 0 || [...name].length > 256) {
      throw new Refusal(400, 'Field name: 1-256 characters required.')
    }
    if (tag === null && broken('null-tag-refused')) throw new Refusal(400, 'Field tag: string required.')
    if (tag !== undefined && tag !== null && (typeof tag !== 'string' || [...tag].length > 256)) {
      throw new Refusal(400, 'Field tag: at most 256 characters.')
    }
    const stored = broken('trimmed-names') ? name.trim() : name
    return typeof tag === 'string' ? { id, name: stored, tag } : { id, name: stored }
  }

  const answerOf = ({ name, tag }: Plant) =>
    tag === undefined ? (broken('null-tags') ? { name, tag: null } : { name }) : { name, tag }

  function list(req: IncomingMessage, res: ServerResponse, query: string): void {
    const { tenant } = authenticate(req, 'plants:read')
    const limit = parseLimit(query)
    let plants = broken('leaky-list') ? [...gardens.values()].flat() : [...gardenOf(tenant)]
    if (broken('newest-first')) plants.reverse()
    if (limit !== undefined && !broken('limit-ignored')) plants = plants.slice(0, limit)
    send(res, 200, plants.map(answerOf))
  }

  async function create(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { tenant } = authenticate(req, 'plants:write')
    if (!broken('any-content-type') && !jsonType.test(req.headers['content-type'] ?? '')) {
      throw new Refusal(415, 'Send application/json.')
    }
    const body = await readBody(req)
    if (body === 'too large') throw new Refusal(413, 'Body over 64 KiB.')
    const plant = parsePlant(body)
    const garden = gardenOf(tenant)
    const taken = broken('global-ids')
      ? [...gardens.values()].some((plants) => plants.some((p) => p.id === plant.id))
      : garden.some((p) => p.id === plant.id)
    if (taken && broken('duplicate-overwrites')) data.removePlant(tenant, plant.id)
    else if (taken) throw new Refusal(409, `Plant ${plant.id} exists.`)
    if (garden.length >= quota && !broken('quota-ignored')) throw new Refusal(507, 'Garden full.')
    garden.push(plant)
    send(res, broken('create-201') ? 201 : 200, answerOf(plant))
  }

  function remove(req: IncomingMessage, res: ServerResponse, segment: string): void {
    const { tenant } = authenticate(req, 'plants:write')
    const id = parsePathId(segment)
    const garden = gardenOf(tenant)
    const index = garden.findIndex((plant) => plant.id === id)
    if (index === -1) {
      const elsewhere = [...gardens.entries()].some(([t, plants]) => t !== tenant && plants.some((p) => p.id === id))
      if (elsewhere && broken('foreign-delete-403')) throw new Refusal(403, 'Not your plant.')
      if (elsewhere && broken('existence-leak')) throw new Refusal(404, 'That plant belongs to another tenant.')
      throw new Refusal(404, `Plant ${id} not found.`)
    }
    garden.splice(index, 1)
    if (broken('delete-200')) send(res, 200, { deleted: id })
    else send(res, 204)
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path = '', query = ''] = (req.url ?? '/').split('?')
    const method = req.method ?? 'GET'
    const wrongMethod = (allow: string) =>
      broken('no-405')
        ? new Refusal(404, 'Not found.')
        : new Refusal(405, `Use ${allow}.`, { allow: `${allow}, HEAD, OPTIONS` })
    if (path === '/plants') {
      // Node leaves the body out of a HEAD answer by itself.
      if (method === 'GET' || (method === 'HEAD' && !broken('no-head'))) return list(req, res, query)
      if (method === 'POST') return create(req, res)
      throw wrongMethod('GET, POST')
    }
    const segment = /^\/plants\/([^/]+)$/.exec(path)?.[1]
    if (segment !== undefined) {
      if (method === 'DELETE') return remove(req, res, segment)
      throw wrongMethod('DELETE')
    }
    if (broken('html-not-found')) {
      res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>')
      return
    }
    throw new Refusal(404, `Nothing at ${path}.`)
  }

  const server = createServer((req, res) => {
    const answer = async () => {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
      try {
        await route(req, res)
      } catch (error) {
        if (!(error instanceof Refusal)) throw error
        if (!req.readableEnded) req.resume()
        refuse(res, error)
      }
    }
    answer().catch(() => res.writeHead(500).end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    data,
    state: () => JSON.stringify([...gardens.entries()]),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
