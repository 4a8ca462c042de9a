import type { Lang } from '@hope/api'
import { dayText, two } from './format.ts'

// Business days, apart from format.ts: only the screens that show one load this.

/**
 * A calendar day (`YYYY-MM-DD`, a business day: no time, no zone of its own) as the language
 * writes a date, in its own calendar (Thai counts Buddhist-era years), as formatDateTime does.
 * @example formatDay('2026-12-07', 'th') // '7 ธ.ค. 2569'
 */
export function formatDay(day: string, lang: Lang): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return day
  return dayText(Number(match[1]), Number(match[2]), Number(match[3]), lang)
}

/**
 * A time zone as its offset east of UTC, the way the app names the platform's zone.
 * @example utcOffsetLabel(480) // 'UTC+8'
 * @example utcOffsetLabel(-150) // 'UTC-2:30'
 */
export function utcOffsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  const hours = Math.floor(abs / 60)
  const rest = abs % 60
  return `UTC${sign}${hours}${rest ? `:${two(rest)}` : ''}`
}

/**
 * A business day (the settlement's, the ranking's) as the language writes a date, labelled with
 * the platform's zone it is a day of: that zone need not be the user's, whose times
 * formatDateTime writes.
 * @example formatZonedDay('2026-11-26', 480, 'en') // 'Nov 26, 2026 (UTC+8)'
 */
export function formatZonedDay(day: string, utcOffsetMinutes: number, lang: Lang): string {
  return `${formatDay(day, lang)} (${utcOffsetLabel(utcOffsetMinutes)})`
}
