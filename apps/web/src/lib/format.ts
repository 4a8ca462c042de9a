import { trimDecimal, type Lang } from '@hope/api'
import { INTL_LOCALES } from './lang.ts'

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/**
 * Intl formatters, one per locale: building one costs far more than using it (the first
 * costs milliseconds, loading the locale's data), and lists format many values.
 */
const groupings = new Map<string, Intl.NumberFormat>()
const separators = new Map<string, string>()
const dateTimes = new Map<string, Intl.DateTimeFormat>()

function cached<T>(cache: Map<string, T>, locale: string, make: () => T): T {
  let value = cache.get(locale)
  if (value === undefined) {
    value = make()
    cache.set(locale, value)
  }
  return value
}

/**
 * Formats a decimal string for display in the language: the integer part grouped with
 * Intl.NumberFormat (as a bigint, so no float loss), the fraction digits kept as they are.
 * Anything that is not a plain decimal is returned unchanged.
 * @example formatNumber('1234567.890', 'en') // '1,234,567.890'
 */
export function formatNumber(value: string | number, lang: Lang): string {
  const text = typeof value === 'number' ? String(value) : value.trim()
  const match = DECIMAL.exec(text)
  if (!match) return text
  const [, sign = '', whole = '0', fraction] = match
  const locale = INTL_LOCALES[lang]
  const grouping = cached(
    groupings,
    locale,
    () => new Intl.NumberFormat(locale, { useGrouping: true }),
  )
  const grouped = grouping.format(BigInt(whole))
  if (fraction === undefined) return `${sign}${grouped}`
  return `${sign}${grouped}${decimalSeparator(locale)}${fraction}`
}

function decimalSeparator(locale: string): string {
  return cached(separators, locale, () => {
    const parts = new Intl.NumberFormat(locale).formatToParts(1.5)
    return parts.find((p) => p.type === 'decimal')?.value ?? '.'
  })
}

/**
 * An amount from the API (a decimal string, NUMERIC text may carry trailing zeros) for display:
 * every significant digit kept, trailing zeros dropped, grouped per language. With `signed`,
 * a positive amount gets a leading '+' (account log rows).
 * @example formatMoney('1234.500000', 'en') // '1,234.5'
 * @example formatMoney('12', 'en', { signed: true }) // '+12'
 */
export function formatMoney(value: string, lang: Lang, opts: { signed?: boolean } = {}): string {
  const text = formatNumber(trimDecimal(value.trim()), lang)
  const positive = /^\d/.test(text) && text !== '0'
  return opts.signed && positive ? `+${text}` : text
}

/** A date and time in the language's usual form. */
export function formatDateTime(iso: string, lang: Lang): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const locale = INTL_LOCALES[lang]
  const format = cached(
    dateTimes,
    locale,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  )
  return format.format(date)
}
