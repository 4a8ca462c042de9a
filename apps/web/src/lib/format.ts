import { trimDecimal, type Lang } from '@hope/api'
import { INTL_LOCALES } from './lang.ts'

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

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
  const grouped = new Intl.NumberFormat(locale, { useGrouping: true }).format(BigInt(whole))
  if (fraction === undefined) return `${sign}${grouped}`
  return `${sign}${grouped}${decimalSeparator(locale)}${fraction}`
}

function decimalSeparator(locale: string): string {
  const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')
  return part?.value ?? '.'
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
  return new Intl.DateTimeFormat(INTL_LOCALES[lang], {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date)
}
