import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

const css = fs.readFileSync(path.join(import.meta.dirname, 'styles.css'), 'utf8')

/** A colour token of the app's stylesheet (`--hope-*` in :root). */
const token = (name: string): string => {
  const found = new RegExp(`--hope-${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css)?.[1]
  if (!found) throw new Error(`--hope-${name} is not a #rrggbb colour in styles.css`)
  return found
}

const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  ) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** `fg` at `alpha` over `bg`, as #rrggbb. */
function blend(fg: string, alpha: number, bg: string): string {
  const [f, b] = [channels(fg), channels(bg)]
  return `#${f
    .map((c, i) =>
      Math.round((c * alpha + b[i]! * (1 - alpha)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

// Small text needs 4.5:1 (WCAG AA): every text colour on every background it is set on.
describe('text contrast', () => {
  const card = token('card')
  const page = token('bg')
  test.each(['text', 'text-2', 'text-3'])('--hope-%s on cards and on the page', (name) => {
    expect(contrast(token(name), card)).toBeGreaterThanOrEqual(4.5)
    expect(contrast(token(name), page)).toBeGreaterThanOrEqual(4.5)
  })
  test('the primary blue as text, on white and on its tints (ticker, currency tag, picked option)', () => {
    const text = token('primary-text')
    const tints = [card, '#d0e4ff', '#e7f1ff', blend(token('primary'), 0.08, card)]
    for (const tint of tints) expect(contrast(text, tint), tint).toBeGreaterThanOrEqual(4.5)
  })
  test('white on the primary blue (buttons)', () => {
    expect(contrast('#ffffff', token('primary'))).toBeGreaterThanOrEqual(4.5)
  })
})
