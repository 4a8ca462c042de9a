import { formatAmount, parseRate, trimDecimal, type Lang } from '@hope/api'

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/**
 * Digit grouping and decimal mark of each language's locale, as Intl.NumberFormat writes them
 * (format.test.ts holds the two equal). Kept as data because building the first
 * Intl.NumberFormat loads the locale's data, a long task on the first screen of a cheap phone.
 * Every one of these locales groups by threes.
 */
export const SEPARATORS: Record<Lang, { group: string; decimal: string }> = {
  zhcn: { group: ',', decimal: '.' },
  en: { group: ',', decimal: '.' },
  ko: { group: ',', decimal: '.' },
  ja: { group: ',', decimal: '.' },
  th: { group: ',', decimal: '.' },
  vi: { group: '.', decimal: ',' },
}

/** The digits of a whole number without leading zeros, grouped by threes from the right. */
function groupDigits(whole: string, separator: string): string {
  const digits = whole.replace(/^0+(?=\d)/, '')
  const head = digits.length % 3 || 3
  let out = digits.slice(0, head)
  for (let i = head; i < digits.length; i += 3) out += separator + digits.slice(i, i + 3)
  return out
}

/**
 * Formats a decimal string for display in the language: the integer part grouped as the
 * language writes it (exact, digits are never turned into a float), the fraction digits kept
 * as they are. Anything that is not a plain decimal is returned unchanged.
 * @example formatNumber('1234567.890', 'en') // '1,234,567.890'
 */
export function formatNumber(value: string | number, lang: Lang): string {
  const text = typeof value === 'number' ? String(value) : value.trim()
  const match = DECIMAL.exec(text)
  if (!match) return text
  const [, sign = '', whole = '0', fraction] = match
  const { group, decimal } = SEPARATORS[lang]
  const grouped = groupDigits(whole, group)
  if (fraction === undefined) return `${sign}${grouped}`
  return `${sign}${grouped}${decimal}${fraction}`
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

const EN_MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ')
const TH_MONTHS = 'ม.ค. ก.พ. มี.ค. เม.ย. พ.ค. มิ.ย. ก.ค. ส.ค. ก.ย. ต.ค. พ.ย. ธ.ค.'.split(' ')
export const two = (n: number) => String(n).padStart(2, '0')

/** A calendar day in the language's own calendar and medium date style (Intl's dateStyle medium). */
export function dayText(y: number, m: number, d: number, lang: Lang): string {
  switch (lang) {
    case 'zhcn':
      return `${y}年${m}月${d}日`
    case 'en':
      return `${EN_MONTHS[m - 1]} ${d}, ${y}`
    case 'ko':
      return `${y}. ${m}. ${d}.`
    case 'ja':
      return `${y}/${two(m)}/${two(d)}`
    case 'th':
      // The Thai calendar counts years from the Buddhist era.
      return `${d} ${TH_MONTHS[m - 1]} ${y + 543}`
    case 'vi':
      return `${d} thg ${m}, ${y}`
  }
}

/**
 * The one formatter of a moment the app shows (records, logs, news, chat, the ranking's
 * snapshot): in the user's own time zone (the device's), in the language's usual form: what
 * Intl.DateTimeFormat writes with dateStyle medium and timeStyle short (format.test.ts holds the
 * two equal), written from data because building the first Intl formatter loads the locale's
 * data, a long task on the first screen of a cheap phone.
 */
export function formatDateTime(iso: string, lang: Lang): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const y = date.getFullYear()
  const m = date.getMonth() + 1
  const d = date.getDate()
  const h = date.getHours()
  const min = two(date.getMinutes())
  const h12 = h % 12 || 12
  const day = dayText(y, m, d, lang)
  switch (lang) {
    case 'zhcn':
    case 'th':
      return `${day} ${two(h)}:${min}`
    case 'en':
      return `${day}, ${h12}:${min} ${h < 12 ? 'AM' : 'PM'}`
    case 'ko':
      return `${day} ${h < 12 ? '오전' : '오후'} ${h12}:${min}`
    case 'ja':
      return `${day} ${h}:${min}`
    case 'vi':
      return `${two(h)}:${min} ${day}`
  }
}

/**
 * A rate from the settings as a percentage, exact (the rate's scale is a power of ten):
 * '0.005' is '0.5', '0.025' is '2.5'.
 * @example ratePercent('0.010000') // '1'
 */
export function ratePercent(rate: string): string {
  const { rate: r, scale } = parseRate(trimDecimal(rate.trim())) ?? { rate: 0n, scale: 1n }
  return formatAmount(r * 100n, scale.toString().length - 1)
}

/**
 * Cuts a decimal string to `digits` fraction digits without rounding, for display where all
 * 18 HOPE decimals would not fit; amounts sent keep every digit.
 * @example cutDecimals('909.090909090909090909', 6) // '909.090909'
 */
export function cutDecimals(value: string, digits: number): string {
  const [whole = '', fraction = ''] = trimDecimal(value.trim()).split('.')
  const kept = fraction.slice(0, digits).replace(/0+$/, '')
  return kept ? `${whole}.${kept}` : whole
}
