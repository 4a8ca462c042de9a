import { LANGS } from '@hope/api'
import { describe, expect, test } from 'vitest'
import en from './en/translation.json'
import ja from './ja/translation.json'
import ko from './ko/translation.json'
import th from './th/translation.json'
import vi from './vi/translation.json'
import zhcn from './zhcn/translation.json'

const resources: Record<(typeof LANGS)[number], unknown> = { zhcn, en, ko, ja, th, vi }

function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>()
  if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value))
      for (const [k, v] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(k, v)
  else out.set(prefix, value)
  return out
}

describe('locales', () => {
  const base = leaves(zhcn)
  test.each(LANGS.filter((l) => l !== 'zhcn'))(
    '%s has exactly the keys of zhcn, none empty',
    (lang) => {
      const other = leaves(resources[lang])
      expect([...other.keys()].sort()).toEqual([...base.keys()].sort())
      for (const [key, text] of other)
        expect(typeof text === 'string' && text.trim(), key).toBeTruthy()
    },
  )
  test('zhcn has no empty text', () => {
    for (const [key, text] of base)
      expect(typeof text === 'string' && text.trim(), key).toBeTruthy()
  })
  test('interpolations match across languages', () => {
    for (const lang of LANGS) {
      for (const [key, text] of leaves(resources[lang])) {
        const want = String(base.get(key)).match(/{{\w+}}/g) ?? []
        expect(String(text).match(/{{\w+}}/g) ?? [], `${lang}:${key}`).toEqual(want)
      }
    }
  })
})
