// When the daily settlement is due, and which days it may settle.

/**
 * The day whose settlement is due at `nowMs`: the local day (UTC + `offsetMinutes`) before
 * the one the settlement time last passed in.
 * @example settlementDayDue(Date.parse('2026-11-22T16:10:00Z'), 480, '00:05') // '2026-11-22'
 */
export function settlementDayDue(nowMs: number, offsetMinutes: number, time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number]
  const shifted = nowMs + (offsetMinutes - h * 60 - m) * 60_000 - 86_400_000
  return new Date(shifted).toISOString().slice(0, 10)
}

/**
 * A real calendar day written `YYYY-MM-DD`, from year 1 on (PostgreSQL's `date` has no year 0);
 * the format alone lets through days such as `2026-02-30` that the database refuses.
 * @example isCalendarDay('2028-02-29') // true
 */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day.startsWith('0000')) return false
  const at = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day
}

/**
 * The latest day an operator may settle at `nowMs`: tomorrow in the settlement's time zone.
 * Paying tomorrow early moves no release to another day; a later day would mark every position
 * paid through it, and the days in between would pay nothing.
 * @example lastSettleableDay(Date.parse('2026-11-23T20:00:00Z'), 480) // '2026-11-25'
 */
export function lastSettleableDay(nowMs: number, utcOffsetMinutes: number): string {
  return new Date(nowMs + utcOffsetMinutes * 60_000 + 86_400_000).toISOString().slice(0, 10)
}
