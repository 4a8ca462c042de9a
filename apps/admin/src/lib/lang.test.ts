import { describe, expect, test } from 'vitest'
import { browserLang, storedLang, storeLang } from './lang.ts'

describe('the console language', () => {
  test('follows the browser: its first Chinese or English preference, else Chinese', () => {
    expect(browserLang(['en-US', 'zh-CN'])).toBe('en')
    expect(browserLang(['zh-TW', 'en'])).toBe('zhcn')
    expect(browserLang(['ja-JP', 'en-GB'])).toBe('en')
    expect(browserLang(['ja-JP', 'ko'])).toBe('zhcn')
    expect(browserLang([])).toBe('zhcn')
  })

  test("the operator's choice wins over the browser's", () => {
    Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['en-US'] })
    try {
      expect(storedLang()).toBe('en')
      storeLang('zhcn')
      expect(storedLang()).toBe('zhcn')
    } finally {
      Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['zh-CN'] })
    }
  })
})
