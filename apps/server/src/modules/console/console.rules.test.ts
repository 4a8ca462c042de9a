import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { SETTING_DEFAULTS, SETTING_SCHEMAS, type SettingKey } from '../settings/settings.rules.ts'
import {
  jsonText,
  likePattern,
  localDayStart,
  parseSettingValue,
  settingRange,
  signInDays,
} from './console.rules.ts'

describe('console rules', () => {
  test('sign-ins per local day: every day listed, the legacy share of those with sign-ins', () => {
    // Local days of UTC+8 start at 16:00 UTC the day before.
    const from = localDayStart(Date.UTC(2026, 2, 10, 15, 0), 480)
    const days = signInDays(
      [
        { day: '2026-03-10', siwe: 2, legacy: 1 },
        { day: '2026-03-12', siwe: 0, legacy: 4 },
        { day: '2026-03-20', siwe: 9, legacy: 9 },
      ],
      from,
      3,
      480,
    )
    expect(days).toEqual([
      { day: '2026-03-10', siwe: 2, legacy: 1, legacyShare: 0.3333 },
      { day: '2026-03-11', siwe: 0, legacy: 0, legacyShare: null },
      { day: '2026-03-12', siwe: 0, legacy: 4, legacyShare: 1 },
    ])
    expect(signInDays([], localDayStart(Date.UTC(2026, 2, 10, 3), -300), 1, -300)).toEqual([
      { day: '2026-03-09', siwe: 0, legacy: 0, legacyShare: null },
    ])
  })

  test('the business day starts at local midnight of the settlement time zone', () => {
    // 2026-03-10 15:59 UTC is 23:59 in UTC+8; 16:00 UTC is the next local day.
    expect(localDayStart(Date.UTC(2026, 2, 10, 15, 59), 480).toISOString()).toBe(
      '2026-03-09T16:00:00.000Z',
    )
    expect(localDayStart(Date.UTC(2026, 2, 10, 16, 0), 480).toISOString()).toBe(
      '2026-03-10T16:00:00.000Z',
    )
    expect(localDayStart(Date.UTC(2026, 2, 10, 3, 0), -300).toISOString()).toBe(
      '2026-03-09T05:00:00.000Z',
    )
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -720, max: 840 }),
        (now, offset) => {
          const start = localDayStart(now, offset).getTime()
          expect(start).toBeLessThanOrEqual(now)
          expect(now - start).toBeLessThan(86_400_000)
          expect(Math.abs((start + offset * 60_000) % 86_400_000)).toBe(0)
        },
      ),
    )
  })

  test('search text is matched literally', () => {
    expect(likePattern('0xAb', 'prefix')).toBe('0xAb%')
    expect(likePattern('100%_x\\', 'contains')).toBe('%100\\%\\_x\\\\%')
  })

  test('setting values: JSON text, bare text for text settings, checked by the schema', () => {
    expect(parseSettingValue('consensusDailyRate', '0.005')).toEqual({
      ok: true,
      key: 'consensusDailyRate',
      value: '0.005',
    })
    expect(parseSettingValue('consensusDailyRate', '"0.010"')).toMatchObject({ value: '0.010' })
    expect(parseSettingValue('chainConfirmations', '20')).toMatchObject({ value: 20 })
    expect(parseSettingValue('supportEmail', 'help@hope.example')).toMatchObject({
      value: 'help@hope.example',
    })
    expect(parseSettingValue('levelPricesUsdt', '["1","2","3","4","5","6","7"]')).toMatchObject({
      value: ['1', '2', '3', '4', '5', '6', '7'],
    })
    for (const [key, text] of [
      ['consensusDailyRate', '2'],
      ['consensusDailyRate', '1e-3'],
      ['chainConfirmations', '"20"'],
      ['chainConfirmations', '2.5'],
      ['levelPricesUsdt', '["1"]'],
      ['supportHoursFrom', '25:00'],
    ])
      expect(parseSettingValue(key!, text!), `${key}=${text}`).toEqual({
        ok: false,
        reason: 'setting_invalid',
      })
    // Names every object inherits are no settings either.
    for (const key of ['nope', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(parseSettingValue(key, '1'), key).toEqual({ ok: false, reason: 'setting_unknown' })
  })

  test('every default, written as the console shows it, reads back as itself', () => {
    for (const key of Object.keys(SETTING_SCHEMAS) as SettingKey[]) {
      const parsed = parseSettingValue(key, jsonText(SETTING_DEFAULTS[key]))
      expect(parsed, key).toEqual({ ok: true, key, value: SETTING_DEFAULTS[key] })
    }
  })
})

describe('settingRange', () => {
  test('says what each kind of setting takes, read from its schema', () => {
    expect(settingRange('newAddressHoldHours')).toEqual({ kind: 'integer', min: '0', max: '720' })
    expect(settingRange('withdrawFeeRate')).toEqual({ kind: 'decimal', min: '0', max: '1' })
    expect(settingRange('legacyLoginMessage')).toEqual({ kind: 'boolean' })
    expect(settingRange('outflowSignature')).toEqual({ kind: 'choice', options: ['others', 'all'] })
    expect(settingRange('levelPricesUsdt')).toEqual({
      kind: 'list',
      length: 7,
      item: { kind: 'decimal', min: '0', max: '1000000000000' },
    })
    expect(settingRange('chainName')).toEqual({ kind: 'text', maxLength: 100 })
  })

  test('every setting has a range', () => {
    for (const key of Object.keys(SETTING_SCHEMAS) as SettingKey[])
      expect(settingRange(key).kind, key).toBeTruthy()
  })
})
