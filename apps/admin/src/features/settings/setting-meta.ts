// What the console says of a setting: its range in words and, for a value that does not fit,
// why (checked before the server is asked; the server checks again).
import type { SettingRange } from '@hope/api'
import type { TFunction } from 'i18next'
import { groupDigits } from '../../lib/format.ts'

type Why =
  | 'notJson'
  | 'notInteger'
  | 'notDecimal'
  | 'belowMin'
  | 'aboveMax'
  | 'notBoolean'
  | 'notOption'
  | 'tooLong'
  | 'notList'
  | 'wrongLength'
  | 'tooMany'
  | 'item'

/** Why a value does not fit its setting: a key of settings.why.* and its values. */
export interface ValueProblem {
  why: Why
  values?: Record<string, string | number>
}

/** The range in the console's words, e.g. "0 – 720" or "7 values, each 0 – 1". */
export function rangeText(t: TFunction, range: SettingRange): string {
  switch (range.kind) {
    case 'integer':
    case 'decimal':
      return t(`settings.rangeText.${range.kind}`, {
        min: groupDigits(range.min ?? ''),
        max: groupDigits(range.max ?? ''),
      })
    case 'boolean':
      return t('settings.rangeText.boolean')
    case 'choice':
      return t('settings.rangeText.choice', { options: (range.options ?? []).join(', ') })
    case 'text':
      return range.maxLength === undefined
        ? t('settings.rangeText.text')
        : t('settings.rangeText.textMax', { max: range.maxLength })
    case 'list':
      if (range.length !== undefined && range.item)
        return t('settings.rangeText.list', {
          count: range.length,
          item: rangeText(t, range.item),
        })
      return t('settings.rangeText.listMax', { count: range.maxItems ?? '' })
  }
}

const fractionDigits = (n: string) => n.split('.')[1]?.length ?? 0

/** Compares two signed decimal strings exactly (no floats): -1, 0 or 1. */
function compare(a: string, b: string): number {
  const width = Math.max(fractionDigits(a), fractionDigits(b))
  const scaled = (n: string) => {
    const negative = n.startsWith('-')
    const [whole = '0', fraction = ''] = (negative ? n.slice(1) : n).split('.')
    const units = BigInt(whole + fraction.padEnd(width, '0'))
    return negative ? -units : units
  }
  const x = scaled(a)
  const y = scaled(b)
  return x < y ? -1 : x > y ? 1 : 0
}

function problemOf(value: unknown, range: SettingRange): ValueProblem | null {
  switch (range.kind) {
    case 'integer':
    case 'decimal': {
      const text =
        typeof value === 'number' ? String(value) : typeof value === 'string' ? value : ''
      const pattern = range.kind === 'integer' ? /^-?\d+$/ : /^\d+(\.\d+)?$/
      if (!pattern.test(text))
        return { why: range.kind === 'integer' ? 'notInteger' : 'notDecimal' }
      if (range.min !== undefined && compare(text, range.min) < 0)
        return { why: 'belowMin', values: { min: groupDigits(range.min) } }
      if (range.max !== undefined && compare(text, range.max) > 0)
        return { why: 'aboveMax', values: { max: groupDigits(range.max) } }
      return null
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : { why: 'notBoolean' }
    case 'choice':
      return range.options?.includes(String(value))
        ? null
        : { why: 'notOption', values: { options: (range.options ?? []).join(', ') } }
    case 'text':
      if (typeof value !== 'string') return null // the server says what else a text setting takes
      return range.maxLength !== undefined && value.length > range.maxLength
        ? { why: 'tooLong', values: { max: range.maxLength } }
        : null
    case 'list': {
      if (!Array.isArray(value)) return { why: 'notList' }
      if (range.length !== undefined && value.length !== range.length)
        return { why: 'wrongLength', values: { count: range.length } }
      if (range.maxItems !== undefined && value.length > range.maxItems)
        return { why: 'tooMany', values: { count: range.maxItems } }
      if (!range.item) return null
      for (const [i, item] of value.entries()) {
        const inner = problemOf(item, range.item)
        if (inner) return { why: 'item', values: { n: i + 1, inner: inner.why, ...inner.values } }
      }
      return null
    }
  }
}

/**
 * Why the typed value does not fit its setting, or null when it may be sent. The value is JSON
 * (`720`, `"0.005"`, `true`, `["1","2"]`); a text or decimal setting may be typed bare.
 * @example valueProblem('721', { kind: 'integer', min: '0', max: '720' }) // { why: 'aboveMax', … }
 */
export function valueProblem(text: string, range: SettingRange): ValueProblem | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    if (range.kind !== 'text' && range.kind !== 'decimal') return { why: 'notJson' }
    value = text
  }
  // A decimal kept as text may be given as a JSON number or string.
  if (range.kind === 'decimal' && typeof value === 'number') value = text
  return problemOf(value, range)
}

/** The problem in the console's words. */
export function problemText(t: TFunction, problem: ValueProblem): string {
  if (problem.why !== 'item') return t(`settings.why.${problem.why}`, problem.values)
  const { n, inner, ...values } = problem.values ?? {}
  return t('settings.why.item', { n, why: t(`settings.why.${inner as Why}`, values) })
}
