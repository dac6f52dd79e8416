import { describe, expect, test } from 'vitest'
import { LimitedBody } from './http.ts'

/** Bytes of a string, one array each (as a stream hands them). */
const bytes = (text: string) => new TextEncoder().encode(text)

describe('LimitedBody', () => {
  test('gathers a body sent in one-byte chunks into its bytes', () => {
    const body = new LimitedBody(1000)
    const text = '{"name":"Monstera"}'
    for (const byte of bytes(text)) expect(body.push(Uint8Array.of(byte))).toBe(true)
    expect(new TextDecoder().decode(body.bytes())).toBe(text)
    expect(body.size).toBe(text.length)
  })

  test('keeps no chunk once a second comes: what the stream reuses later does not change the body (issue 35, F2)', () => {
    const body = new LimitedBody(1000)
    const chunks = ['{"na', 'me":', '"Fern"}'].map(bytes)
    for (const chunk of chunks) body.push(chunk)
    // The chunks' memory, reused by whoever handed them over, once the body has them.
    for (const chunk of chunks) chunk.fill(0x20)
    expect(new TextDecoder().decode(body.bytes())).toBe('{"name":"Fern"}')
  })

  test('a body over the limit is refused at the chunk that passes it', () => {
    const body = new LimitedBody(4)
    expect(body.push(bytes('ab'))).toBe(true)
    expect(body.push(bytes('cd'))).toBe(true)
    expect(body.push(bytes('e'))).toBe(false)
  })

  test('a body of one chunk is that chunk, and an empty one is empty', () => {
    const chunk = bytes('{"name":"Ivy"}')
    const one = new LimitedBody(100)
    one.push(chunk)
    expect(one.bytes()).toBe(chunk)
    expect(new LimitedBody(0).bytes().byteLength).toBe(0)
  })
})
