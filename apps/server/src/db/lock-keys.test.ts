import { describe, expect, test } from 'vitest'
import { LOCK_KEYS } from './lock-keys.ts'

describe('advisory lock keys', () => {
  test('each lock has a first key of its own', () => {
    const keys = Object.values(LOCK_KEYS)
    expect(new Set(keys).size).toBe(keys.length)
  })
})
