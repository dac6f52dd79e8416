import { readFile } from 'node:fs/promises'
import SwaggerParser from '@apidevtools/swagger-parser'
import { describe, expect, test } from 'vitest'
import { generate } from '../../contracts/codegen.ts'
import { openapi } from '../support/contract.ts'

const contractPath = new URL('../../contracts/openapi.yaml', import.meta.url).pathname

describe('contracts/openapi.yaml', () => {
  test('is a valid OpenAPI 3.0 document', async () => {
    const api = await SwaggerParser.validate(contractPath)
    expect(api.info.title).toBe('OpenAPI Plant Store')
    expect(api.info.version).toBe('1.0.0')
  })

  test('keeps the published operations, statuses and schemas', () => {
    const plants = openapi.paths['/plants']
    const plant = openapi.paths['/plants/{id}']
    expect(Object.keys(plants ?? {}).sort()).toEqual(['get', 'head', 'post'])
    expect(Object.keys(plant ?? {})).toEqual(['delete'])
    expect(Object.keys(plants?.post?.responses ?? {})).toContain('200')
    expect(Object.keys(plant?.delete?.responses ?? {})).toContain('204')
    const schemas = openapi.components.schemas as Record<string, { required: string[] }>
    expect(schemas.NewPlant?.required.sort()).toEqual(['id', 'name'])
    expect(schemas.Error?.required.sort()).toEqual(['error', 'message'])
    expect(schemas.Plant?.required).toEqual(['name'])
  })

  test('declares every status the decisions add, with Error bodies', () => {
    const statuses = (path: string, method: string) =>
      Object.keys(openapi.paths[path]?.[method]?.responses ?? {}).sort()
    expect(statuses('/plants', 'get')).toEqual(['200', '400', '401', '403'])
    expect(statuses('/plants', 'head')).toEqual(['200', '400', '401', '403'])
    expect(statuses('/plants', 'post')).toEqual(['200', '400', '401', '403', '409', '413', '415', '507'])
    expect(statuses('/plants/{id}', 'delete')).toEqual(['204', '400', '401', '403', '404'])
  })

  test('names the scope each operation needs', () => {
    const scopes = (path: string, method: string) =>
      (openapi.paths[path]?.[method] as unknown as { 'x-required-scopes'?: string[] } | undefined)?.[
        'x-required-scopes'
      ]
    expect(scopes('/plants', 'get')).toEqual(['plants:read'])
    expect(scopes('/plants', 'head')).toEqual(['plants:read'])
    expect(scopes('/plants', 'post')).toEqual(['plants:write'])
    expect(scopes('/plants/{id}', 'delete')).toEqual(['plants:write'])
  })

  test('matches the generated types and constants committed in src/generated', async () => {
    for (const [file, contents] of Object.entries(await generate())) {
      const committed = await readFile(new URL(`../../src/generated/${file}`, import.meta.url), 'utf8')
      expect(committed, `src/generated/${file} is stale: run npm run generate`).toBe(contents)
    }
  })
})
