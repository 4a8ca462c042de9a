import { describe, expect, test } from 'vitest'
import { mask } from './mask.ts'

describe('mask', () => {
  test('keeps the first 6 and last 6 characters', () => {
    expect(mask('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234******345678')
    expect(mask('abcdefghijklm')).toBe('abcdef******hijklm')
  })
  test('leaves 12 characters or fewer alone', () => {
    expect(mask('abcdefghijkl')).toBe('abcdefghijkl')
    expect(mask('')).toBe('')
  })
})
