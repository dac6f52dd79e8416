import { describe, expect, test } from 'vitest'
import { parseDelay, parsePrefer, withSimulation } from './simulation.ts'

describe('parsePrefer', () => {
  test('reads each preference of a Prefer header, names in lower case, quotes removed', () => {
    expect(parsePrefer('delay=200, CODE="503"')).toEqual({ delay: '200', code: '503' })
  })

  test('ignores parameters after a semicolon and keeps the first of repeated preferences', () => {
    expect(parsePrefer('code=404; foo=bar, code=500')).toEqual({ code: '404' })
  })

  test('reads a preference without a value as an empty string and skips empty parts', () => {
    expect(parsePrefer('respond-async, , wait=5')).toEqual({ 'respond-async': '', wait: '5' })
  })
})

describe('parseDelay', () => {
  test('reads a fixed delay and a range in milliseconds', () => {
    expect(parseDelay('250')).toEqual({ min: 250, max: 250 })
    expect(parseDelay(' 100-500 ')).toEqual({ min: 100, max: 500 })
  })

  test('refuses a reversed range, negatives, units and fractions', () => {
    for (const text of ['500-100', '-5', '200ms', '1.5', '', '1-2-3']) expect(parseDelay(text), text).toBeUndefined()
  })
})

describe('Preference-Applied on an answer sent as bytes', () => {
  test('adds the header without decoding the body', async () => {
    const chunks = [new TextEncoder().encode('[]')]
    let decoded = 0
    const answer = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      chunks,
      get body() {
        decoded++
        return '[]'
      },
    }
    const handle = withSimulation(() => answer)
    const simulated = await handle({
      method: 'GET',
      path: '/plants',
      query: '',
      header: (name) => (name === 'prefer' ? 'delay=0' : null),
      readBody: async () => new Uint8Array(0),
    })
    expect(simulated.headers['preference-applied']).toBe('delay=0')
    expect(simulated.chunks).toBe(chunks)
    expect(decoded).toBe(0)
    expect(simulated.body).toBe('[]')
  })
})
