import { describe, expect, test } from 'vitest'
import en from './en.json'
import zhcn from './zhcn.json'

function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>()
  if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value))
      for (const [k, v] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(k, v)
  else out.set(prefix, value)
  return out
}

const placeholders = (text: unknown): string[] =>
  [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!).sort()

describe('locales', () => {
  test('English has exactly the Chinese keys, each a non-empty text with the same placeholders', () => {
    const zh = leaves(zhcn)
    const enLeaves = leaves(en)
    expect([...enLeaves.keys()].sort()).toEqual([...zh.keys()].sort())
    for (const [key, text] of enLeaves) {
      expect(typeof text === 'string' && text.trim() !== '', key).toBe(true)
      expect(placeholders(text), key).toEqual(placeholders(zh.get(key)))
    }
  })
})
