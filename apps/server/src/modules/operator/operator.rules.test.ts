import { describe, expect, test } from 'vitest'
import { hashPassword, verifyPassword } from './operator.rules.ts'

describe('operator passwords', () => {
  test('verify the right password only, and never store it in clear', async () => {
    const stored = await hashPassword('correct horse battery staple')
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/)
    expect(stored).not.toContain('correct')
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true)
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false)
    expect(await verifyPassword('x', 'garbage')).toBe(false)
  })
  test('two hashes of one password differ (salted)', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'))
  })
})
