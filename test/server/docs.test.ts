/**
 * The contract the sandbox serves, and so Swagger UI's "Try it out", works
 * wherever the sandbox runs: any host name, any port, below any mount point,
 * same-origin under the docs' strict content security policy.
 */
import { request } from 'node:http'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { fixtureTokens } from '../../fixtures/world.ts'
import { createApp, plantStoreRouter } from '../../src/server/index.ts'
import { openapi } from '../support/contract.ts'
import { bearer, type Listening, listen } from './support.ts'

interface Served {
  servers: { url: string; description: string }[]
  [key: string]: unknown
}

let sandbox: Listening
let mounted: Listening

beforeAll(async () => {
  sandbox = await listen(createApp())
  mounted = await listen(express().use('/plant-store', plantStoreRouter()))
})
afterAll(async () => {
  await sandbox?.close()
  await mounted?.close()
})

/** A GET with exactly this `Host` (fetch sends the URL's own); answers the body. */
function rawGet(base: string, path: string, host: string): Promise<string> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers: { host } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve(text))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Both forms of the served contract, parsed. */
async function servedContract(base: string): Promise<{ json: Served; yaml: Served }> {
  const json = (await (await fetch(`${base}/openapi.json`)).json()) as Served
  const yaml = parse(await (await fetch(`${base}/openapi.yaml`)).text()) as Served
  return { json, yaml }
}

describe('the served contract', () => {
  test.each(['127.0.0.1', 'localhost'])(
    'names the address it was requested at (%s, this port) as its server',
    async (host) => {
      const base = sandbox.base.replace('127.0.0.1', host)

      const { json, yaml } = await servedContract(base)

      expect(json.servers.map((server) => server.url)).toEqual([base])
      expect(yaml.servers).toEqual(json.servers)
    },
  )

  test('names its server by the Host as a URL reads it: letter case, a trailing default port, a new Host each time', async () => {
    const { port } = new URL(sandbox.base)
    const servedTo = async (path: string, host: string) => {
      const answer = await rawGet(sandbox.base, path, host)
      const served = (path.endsWith('.yaml') ? parse(answer) : JSON.parse(answer)) as Served
      return served.servers[0]?.url
    }
    for (const path of ['/openapi.json', '/openapi.yaml', '/__sandbox/openapi.json']) {
      expect(await servedTo(path, `LocalHost:${port}`), path).toBe(`http://localhost:${port}`)
      expect(await servedTo(path, '127.0.0.1:80'), path).toBe('http://127.0.0.1')
      // Every Host is served its own address (nothing kept for one is served to another).
      for (let i = 0; i < 20; i++)
        expect(await servedTo(path, `n${i}.localhost:${port}`)).toBe(`http://n${i}.localhost:${port}`)
    }
  })

  test('is the shipped contract in every other respect, as JSON and as YAML', async () => {
    const { servers: _shipped, ...shipped } = openapi as unknown as Served
    const { json, yaml } = await servedContract(sandbox.base)

    for (const served of [json, yaml]) {
      const { servers: _served, ...rest } = served
      expect(rest).toEqual(shipped)
    }
  })

  test('below plantStoreRouter mounted at /plant-store names that mount point, where the API answers', async () => {
    const { json, yaml } = await servedContract(`${mounted.base}/plant-store`)
    const [server] = json.servers

    expect(server?.url).toBe(`${mounted.base}/plant-store`)
    expect(yaml.servers).toEqual(json.servers)
    const answer = await fetch(`${server?.url}/plants?limit=2`, { headers: bearer(fixtureTokens.acme.read) })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toHaveLength(2)
  })

  test('keeps "Try it out" same-origin, so the docs page’s strict CSP (connect-src self) allows it', async () => {
    for (const base of [sandbox.base, sandbox.base.replace('127.0.0.1', 'localhost'), `${mounted.base}/plant-store`]) {
      const page = await fetch(`${base}/docs/`)
      const { json } = await servedContract(base)

      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self';")
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self';")
      expect(new URL(json.servers[0]?.url ?? '').origin).toBe(new URL(page.url).origin)
    }
  })
})
