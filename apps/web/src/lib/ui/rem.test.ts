import { describe, expect, test } from 'vitest'
import { applyRem, rootFontSize } from './rem.ts'

describe('rem', () => {
  test('scales 16px by width / 375, capped at 2x', () => {
    expect(rootFontSize(375)).toBe(16)
    expect(rootFontSize(750)).toBe(32)
    expect(rootFontSize(1500)).toBe(32)
    expect(rootFontSize(320)).toBe(13.65)
  })
  test('follows the viewport on resize', () => {
    const html = document.documentElement
    Object.defineProperty(html, 'clientWidth', { value: 375, configurable: true })
    const stop = applyRem()
    expect(html.style.fontSize).toBe('16px')
    Object.defineProperty(html, 'clientWidth', { value: 1200, configurable: true })
    window.dispatchEvent(new Event('resize'))
    expect(html.style.fontSize).toBe('32px')
    stop()
  })
})
