import {
  LANGS,
  LOG_TYPES,
  REASON_MESSAGES,
  RECHARGE_STATUSES,
  WITHDRAWAL_STATUSES,
} from '@hope/api'
import { describe, expect, test } from 'vitest'

/** Every namespace file of every language: `./<lang>/<namespace>.json`. */
const files = import.meta.glob<unknown>('./*/*.json', { eager: true, import: 'default' })
const resource = (lang: string, ns: string): unknown => files[`./${lang}/${ns}.json`]
const namespaces = [
  ...new Set(Object.keys(files).map((path) => path.replace(/^\.\/[^/]+\/|\.json$/g, ''))),
]

function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>()
  if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value))
      for (const [k, v] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(k, v)
  else out.set(prefix, value)
  return out
}

describe('locales', () => {
  test('every language has the same namespaces (translation, money, chain, game, team, vip, holder)', () => {
    expect(namespaces.sort()).toEqual([
      'chain',
      'chat',
      'content',
      'game',
      'holder',
      'invite',
      'login',
      'money',
      'notices',
      'por',
      'quotes',
      'ranking',
      'share',
      'team',
      'translation',
      'ui',
      'vip',
    ])
    for (const lang of LANGS)
      for (const ns of namespaces) expect(resource(lang, ns), `${lang}/${ns}`).toBeTruthy()
  })
  describe.each(namespaces)('%s', (ns) => {
    const base = leaves(resource('zhcn', ns))
    test.each(LANGS.filter((l) => l !== 'zhcn'))(
      '%s has exactly the keys of zhcn, none empty',
      (lang) => {
        const other = leaves(resource(lang, ns))
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
        for (const [key, text] of leaves(resource(lang, ns))) {
          const want = String(base.get(key)).match(/{{\w+}}/g) ?? []
          expect(String(text).match(/{{\w+}}/g) ?? [], `${lang}:${key}`).toEqual(want)
        }
      }
    })
  })
  test('every account log type has a name', () => {
    for (const lang of LANGS) {
      const names = leaves(resource(lang, 'money'))
      for (const key of Object.values(LOG_TYPES))
        expect(names.get(`accountLog.types.${key}`), `${lang}:${key}`).toBeTruthy()
    }
  })
  test('every withdrawal and recharge status has a name', () => {
    for (const lang of LANGS) {
      const names = leaves(resource(lang, 'chain'))
      for (const key of Object.values(WITHDRAWAL_STATUSES))
        expect(names.get(`withdraw.status.${key}`), `${lang}:${key}`).toBeTruthy()
      for (const key of RECHARGE_STATUSES)
        expect(names.get(`recharge.status.${key}`), `${lang}:${key}`).toBeTruthy()
    }
  })
  test("the staking screens' checks read as the server's messages for the same reasons", () => {
    for (const lang of LANGS) {
      const texts = leaves(resource(lang, 'game'))
      expect(texts.get('exchange.problems.amountRequired'), lang).toBe(
        REASON_MESSAGES.redeem_amount_required[lang],
      )
      expect(texts.get('exchange.problems.amountInvalid'), lang).toBe(
        REASON_MESSAGES.redeem_amount_invalid[lang],
      )
      expect(texts.get('stake.problems.amountRequired'), lang).toBe(
        REASON_MESSAGES.amount_required[lang],
      )
      expect(texts.get('stake.problems.amountInvalid'), lang).toBe(
        REASON_MESSAGES.amount_invalid[lang],
      )
    }
  })
})
