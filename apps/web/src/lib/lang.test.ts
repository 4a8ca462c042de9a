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
  test('sends the matching lan header', () => {
    expect(lanHeader()).toBe('zh_CN')
    window.localStorage.setItem('lang', 'en')
    expect(lanHeader()).toBe('en_US')
  })
})
