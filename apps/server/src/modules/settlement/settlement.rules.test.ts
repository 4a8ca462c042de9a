import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { lastSettleableDay, settlementDayDue } from './settlement.rules.ts'

describe('settlement schedule', () => {
  test('worked examples: at 00:05 in UTC+8 the day before becomes due', () => {
    // 2026-11-23 00:10 in UTC+8
    expect(settlementDayDue(Date.parse('2026-11-22T16:10:00Z'), 480, '00:05')).toBe('2026-11-22')
    // 2026-11-23 00:03 in UTC+8: still the day before yesterday
    expect(settlementDayDue(Date.parse('2026-11-22T16:03:00Z'), 480, '00:05')).toBe('2026-11-21')
    expect(settlementDayDue(Date.parse('2026-11-22T23:59:00Z'), 0, '00:00')).toBe('2026-11-21')
  })

  test('property: the due day moves by one each 24 hours and never runs ahead of now', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1.6e12, max: 2.2e12 }),
        fc.integer({ min: -720, max: 840 }),
        (now, offset) => {
          const d = settlementDayDue(now, offset, '00:05')
          expect(settlementDayDue(now + 86_400_000, offset, '00:05')).toBe(
            new Date(Date.parse(d) + 86_400_000).toISOString().slice(0, 10),
          )
          expect(Date.parse(d) + 86_400_000).toBeLessThanOrEqual(now + offset * 60_000)
        },
      ),
    )
  })
})

describe('lastSettleableDay', () => {
  test('is tomorrow in the settlement time zone', () => {
    // 15:59 UTC is 23:59 in UTC+8: tomorrow there is the 23rd; a minute later it is the 24th.
    expect(lastSettleableDay(Date.parse('2026-11-22T15:59:00Z'), 480)).toBe('2026-11-23')
    expect(lastSettleableDay(Date.parse('2026-11-22T16:00:00Z'), 480)).toBe('2026-11-24')
    expect(lastSettleableDay(Date.parse('2026-11-22T03:00:00Z'), -300)).toBe('2026-11-22')
  })

  test('is always one day after the local day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -720, max: 840 }),
        (now, offset) => {
          const local = new Date(now + offset * 60_000).toISOString().slice(0, 10)
          const next = Date.parse(`${lastSettleableDay(now, offset)}T00:00:00Z`)
          expect(next - Date.parse(`${local}T00:00:00Z`)).toBe(86_400_000)
        },
      ),
    )
  })
})
