const pad = (n: number): string => String(n).padStart(2, '0')

/**
 * A timestamp in the operator's local time, `YYYY-MM-DD HH:mm:ss`; '-' for none.
 * @example formatTime('2026-01-02T03:04:05Z') // '2026-01-02 11:04:05' in UTC+8
 */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '-'
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return value
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/**
 * A decimal string with its integer part grouped by thousands, digits kept exactly as they
 * are (amounts never pass through a float).
 * @example groupDigits('1234567.500') // '1,234,567.500'
 */
export function groupDigits(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '-'
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(amount)
  if (!m) return amount
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3] ?? ''}`
}

/** A long address or hash as `0x1234…abcd`. */
export function shorten(value: string, head = 6, tail = 4): string {
  return value.length > head + tail + 1 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value
}

/** A decimal amount as the contract takes it: digits, at most one point, no sign. */
export const DECIMAL_PATTERN = /^(?:0|[1-9]\d*)(?:\.\d+)?$/

/**
 * A time zone as its offset east of UTC, as the settlement's days are labelled.
 * @example utcOffsetLabel(480) // 'UTC+8'
 * @example utcOffsetLabel(-150) // 'UTC-2:30'
 */
export function utcOffsetLabel(minutes: number): string {
  const abs = Math.abs(minutes)
  const rest = abs % 60
  return `UTC${minutes < 0 ? '-' : '+'}${Math.floor(abs / 60)}${rest ? `:${pad(rest)}` : ''}`
}
