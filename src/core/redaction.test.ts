import { describe, expect, test } from 'vitest'
import { isSecretName, redactedAuthorization, redactedBodyText, redactedCookie, redactedJson } from './redaction.ts'

describe('what a recorded pact writes instead of a secret', () => {
  test('names that carry secrets, whatever their case and separators, and names that do not', () => {
    for (const name of ['api_key', 'apiKey', 'X-Api-Key', 'token', 'access_token', 'password', 'client_secret', 'key'])
      expect(isSecretName(name), name).toBe(true)
    for (const name of ['limit', 'name', 'tag', 'id', 'monkey', 'grant_type', 'username']) {
      expect(isSecretName(name), name).toBe(false)
    }
  })

  test('a bearer token the mock accepted stays, any other becomes the placeholder, other schemes keep their name', () => {
    expect(redactedAuthorization('Bearer mine', (token) => token === 'mine')).toBe('Bearer mine')
    expect(redactedAuthorization('Bearer leaked', () => false)).toBe('Bearer redacted-by-plant-store-mock')
    expect(redactedAuthorization('Basic YWxpY2U6aHVudGVyMg==', () => true)).toBe('Basic redacted')
    expect(redactedAuthorization('sometoken', () => true)).toBe('redacted')
  })

  test('cookies, JSON fields at any depth, form fields and a text body naming a secret', () => {
    expect(redactedCookie('sid=abc; theme=dark')).toBe('sid=redacted; theme=redacted')
    expect(redactedCookie('sid=abc; Path=/; HttpOnly', true)).toBe('sid=redacted; Path=/; HttpOnly')
    expect(redactedJson({ user: { password: 'p', name: 'ann' }, list: [{ token: 't' }] })).toEqual({
      user: { password: 'redacted', name: 'ann' },
      list: [{ token: 'redacted' }],
    })
    expect(redactedBodyText('a=1&password=p', 'application/x-www-form-urlencoded')).toBe('a=1&password=redacted')
    expect(redactedBodyText('password=p', 'text/plain')).toBe('redacted')
    expect(redactedBodyText('hello', 'text/plain')).toBe('hello')
  })
})
