import { cleanup } from '@testing-library/react'
import { afterEach, beforeEach, vi } from 'vitest'
import { initI18n } from '../lib/i18n.ts'

// jsdom reports an English browser; the console's tests start from a Chinese one (its fallback).
Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['zh-CN'] })
await initI18n('zhcn')

// antd reads these browser APIs that jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
})
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.getComputedStyle = (
  (get) => (el: Element) =>
    get(el)
)(window.getComputedStyle.bind(window)) as typeof window.getComputedStyle

beforeEach(async () => {
  window.localStorage.clear()
  window.sessionStorage.clear()
  await initI18n('zhcn')
})

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})
