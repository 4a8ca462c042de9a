import { describe, expect, test } from 'vitest'
import { SETTING_DEFAULTS, resolveSettings } from './settings.rules.ts'

describe('settings', () => {
  test('defaults are DESIGN values', () => {
    expect(SETTING_DEFAULTS.loginWindowMs).toBe(300_000)
    expect(SETTING_DEFAULTS.loginFutureSkewMs).toBe(60_000)
    expect(SETTING_DEFAULTS.sessionTtlMs).toBe(7 * 86_400_000)
  })
  test('stored values override defaults; invalid or unknown ones are ignored', () => {
    const s = resolveSettings([
      { key: 'loginWindowMs', value: 120_000 },
      { key: 'sessionTtlMs', value: -5 },
      { key: 'nonsense', value: 1 },
    ])
    expect(s.loginWindowMs).toBe(120_000)
    expect(s.sessionTtlMs).toBe(SETTING_DEFAULTS.sessionTtlMs)
    expect(s).not.toHaveProperty('nonsense')
  })
})
