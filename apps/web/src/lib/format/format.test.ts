import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { LANGS } from '@hope/api'
import { formatDay, formatZonedDay, utcOffsetLabel } from './day.ts'
import { formatDateTime, formatMoney, formatNumber } from './format.ts'
import { INTL_LOCALES } from '../i18n/lang.ts'

describe('formatNumber', () => {
  test('groups the integer part per language', () => {
    expect(formatNumber('1234567', 'en')).toBe('1,234,567')
    expect(formatNumber('1234567', 'zhcn')).toBe('1,234,567')
    expect(formatNumber('1234567.5', 'vi')).toBe('1.234.567,5')
  })
  test('keeps every fraction digit without float loss', () => {
    expect(formatNumber('12345678901234567890.123456789012345678', 'en')).toBe(
      '12,345,678,901,234,567,890.123456789012345678',
    )
    expect(formatNumber('0.10', 'ja')).toBe('0.10')
    expect(formatNumber('-1000.5', 'ko')).toBe('-1,000.5')
  })
  test('writes every number as Intl.NumberFormat does in each language', () => {
    const digits = fc.stringMatching(/^\d{1,40}$/)
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGS),
        fc.boolean(),
        digits,
        fc.option(digits),
        (lang, negative, whole, fraction) => {
          const intl = new Intl.NumberFormat(INTL_LOCALES[lang], { useGrouping: true })
          const mark = intl.formatToParts(1.5).find((p) => p.type === 'decimal')?.value
          const value = `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`
          const expected = `${negative ? '-' : ''}${intl.format(BigInt(whole))}${fraction === null ? '' : `${mark}${fraction}`}`
          expect(formatNumber(value, lang)).toBe(expected)
        },
      ),
      { numRuns: 600 },
    )
  })
  test('returns anything else unchanged', () => {
    expect(formatNumber('abc', 'en')).toBe('abc')
    expect(formatNumber(2500, 'th')).toBe('2,500')
  })
})

describe('formatMoney', () => {
  test('drops trailing zeros and groups per language', () => {
    expect(formatMoney('1234.500000', 'en')).toBe('1,234.5')
    expect(formatMoney('1234567.120000000000000000', 'vi')).toBe('1.234.567,12')
    expect(formatMoney('0.000001', 'zhcn')).toBe('0.000001')
    expect(formatMoney('500.000000', 'ja')).toBe('500')
  })
  test('signs positive amounts when asked, never zero', () => {
    expect(formatMoney('12.50', 'en', { signed: true })).toBe('+12.5')
    expect(formatMoney('-1000', 'en', { signed: true })).toBe('-1,000')
    expect(formatMoney('0.000', 'en', { signed: true })).toBe('0')
  })
})

describe('formatDateTime', () => {
  test('writes every date as Intl.DateTimeFormat does in each language', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGS),
        fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        (lang, date) => {
          const intl = new Intl.DateTimeFormat(INTL_LOCALES[lang], {
            dateStyle: 'medium',
            timeStyle: 'short',
          })
          // Browsers write a plain space before AM/PM; newer ICU in Node writes U+202F there.
          const expected = intl.format(date).replace('\u202f', ' ')
          expect(formatDateTime(date.toISOString(), lang)).toBe(expected)
        },
      ),
      { numRuns: 1200 },
    )
  })
  test('returns text that is not a date unchanged', () => {
    expect(formatDateTime('soon', 'en')).toBe('soon')
  })
  test("writes a moment in the user's own time zone", () => {
    const zone = process.env.TZ
    try {
      process.env.TZ = 'Asia/Tokyo'
      expect(formatDateTime('2026-11-26T15:30:00Z', 'en')).toBe('Nov 27, 2026, 12:30 AM')
      process.env.TZ = 'America/New_York'
      expect(formatDateTime('2026-11-26T15:30:00Z', 'en')).toBe('Nov 26, 2026, 10:30 AM')
      expect(formatDateTime('2026-11-26T15:30:00Z', 'zhcn')).toBe('2026年11月26日 10:30')
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })
})

describe('business days', () => {
  test('time zones read as UTC offsets', () => {
    expect(utcOffsetLabel(480)).toBe('UTC+8')
    expect(utcOffsetLabel(0)).toBe('UTC+0')
    expect(utcOffsetLabel(-150)).toBe('UTC-2:30')
    expect(utcOffsetLabel(345)).toBe('UTC+5:45')
  })
  test('a settlement or ranking day says which zone it is a day of, in the language', () => {
    expect(formatZonedDay('2026-11-26', 480, 'en')).toBe('Nov 26, 2026 (UTC+8)')
    expect(formatZonedDay('2026-12-07', 420, 'th')).toBe('7 ธ.ค. 2569 (UTC+7)')
  })
  test('a day is written as Intl.DateTimeFormat writes a date, in each calendar', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGS),
        fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        (lang, date) => {
          const day = date.toISOString().slice(0, 10)
          const intl = new Intl.DateTimeFormat(INTL_LOCALES[lang], {
            dateStyle: 'medium',
            timeZone: 'UTC',
          })
          expect(formatDay(day, lang)).toBe(intl.format(date))
        },
      ),
      { numRuns: 600 },
    )
    expect(formatDay('later', 'en')).toBe('later')
  })
})
