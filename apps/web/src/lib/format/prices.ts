import type { Lang, PriceSymbol } from '@hope/api'
import { formatNumber } from './format.ts'

/** Decimals a quote is shown with: ETH in cents, HOPE to a hundredth of a cent. */
export const DISPLAY_DECIMALS: Record<PriceSymbol, number> = { ETH: 2, HOPE: 4 }

export type Tone = 'up' | 'down' | 'flat'

/** Which way a 24-hour change went ('5.26', '-3.10', '0.00'); flat without one. */
export function changeTone(change: string | null): Tone {
  if (change === null || /^-?0+(\.0+)?$/.test(change)) return 'flat'
  return change.startsWith('-') ? 'down' : 'up'
}

/**
 * A 24-hour change for display: signed, written as the language writes numbers, with a percent
 * sign; null when there is no history.
 * @example formatChange('5.26', 'en') // '+5.26%'
 * @example formatChange('-3.10', 'vi') // '-3,10%'
 */
export function formatChange(change: string | null, lang: Lang): string | null {
  if (change === null) return null
  const text = `${formatNumber(change, lang)}%`
  return changeTone(change) === 'up' ? `+${text}` : text
}

/**
 * A decimal string rounded half up to `decimals` places, zeros kept, without a float.
 * @example roundPrice('3123.456', 2) // '3123.46'
 */
export function roundPrice(value: string, decimals: number): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(value.trim())
  if (!match) return value
  const [, whole = '0', fraction = ''] = match
  const kept = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'))
  const rounded = (fraction[decimals] ?? '0') >= '5' ? kept + 1n : kept
  if (decimals === 0) return rounded.toString()
  const digits = rounded.toString().padStart(decimals + 1, '0')
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}
