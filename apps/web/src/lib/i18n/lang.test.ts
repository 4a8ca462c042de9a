import { afterEach, describe, expect, test } from 'vitest'
import { currentLang, lanHeader } from './lang.ts'

type LangWindow = Window & { lang?: unknown }

describe('lang', () => {
  afterEach(() => {
    delete (window as LangWindow).lang
  })
  test('defaults to zhcn and maps zh to zhcn', () => {
    expect(currentLang()).toBe('zhcn')
    window.localStorage.setItem('lang', 'zh')
    expect(currentLang()).toBe('zhcn')
    window.localStorage.setItem('lang', 'ko')
    expect(currentLang()).toBe('ko')
  })
  test('takes a global lang string or object when nothing is stored', () => {
    ;(window as LangWindow).lang = 'ja'
    expect(currentLang()).toBe('ja')
    ;(window as LangWindow).lang = { lang: 'vi' }
    expect(currentLang()).toBe('vi')
    window.localStorage.setItem('lang', 'th')
    expect(currentLang()).toBe('th')
  })
  test('a first visit takes the first of the browser languages the app has', () => {
    const browserLanguages = (languages: string[]) =>
      Object.defineProperty(window.navigator, 'languages', { configurable: true, value: languages })
    try {
      browserLanguages(['en-US', 'en'])
      expect(currentLang()).toBe('en')
      browserLanguages(['fr-FR', 'ko-KR'])
      expect(currentLang()).toBe('ko')
      browserLanguages(['zh-TW'])
      expect(currentLang()).toBe('zhcn')
      // Konkani is not Korean, nor is anything else the app lacks: the default.
      browserLanguages(['kok', 'de-DE'])
      expect(currentLang()).toBe('zhcn')
      // A wallet's global language and the user's own choice come first.
      browserLanguages(['th-TH'])
      expect(currentLang()).toBe('th')
      ;(window as LangWindow).lang = 'ja'
      expect(currentLang()).toBe('ja')
      window.localStorage.setItem('lang', 'vi')
      expect(currentLang()).toBe('vi')
    } finally {
      browserLanguages(['zh-CN'])
    }
  })
  test('a browser without navigator.languages falls back to navigator.language', () => {
    const win = {
      localStorage: window.localStorage,
      navigator: { language: 'ko-KR' },
    } as unknown as Window
    expect(currentLang(win)).toBe('ko')
    expect(
      currentLang({ localStorage: window.localStorage, navigator: {} } as unknown as Window),
    ).toBe('zhcn')
  })
  test('sends the matching lan header', () => {
    expect(lanHeader()).toBe('zh_CN')
    window.localStorage.setItem('lang', 'en')
    expect(lanHeader()).toBe('en_US')
  })
})
