import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import * as api from './index.ts'
import {
  LANGS,
  LoginParams,
  REASONS,
  REASON_MESSAGES,
  buildLoginMessage,
  formatAmount,
  langFromHeader,
  normalizeLang,
  parseAmount,
  parseLoginMessage,
} from './index.ts'

describe('barrel', () => {
  test('exports a stable set of names', () => {
    expect(Object.keys(api).sort()).toMatchSnapshot()
  })
})

describe('lang', () => {
  test('zh maps to zhcn and unknown values fall back to zhcn', () => {
    expect(normalizeLang('zh')).toBe('zhcn')
    expect(normalizeLang('zh-CN')).toBe('zhcn')
    expect(normalizeLang('en-US')).toBe('en')
    expect(normalizeLang('fr')).toBe('zhcn')
    expect(normalizeLang(undefined)).toBe('zhcn')
  })
  test('lan header maps both ways and unknown falls back to zh_CN', () => {
    expect(langFromHeader('ko_KR')).toBe('ko')
    expect(langFromHeader('vi_VN')).toBe('vi')
    expect(langFromHeader('xx')).toBe('zhcn')
    expect(langFromHeader(undefined)).toBe('zhcn')
  })
})

describe('errors', () => {
  test('every reason has a distinct, non-empty message in all six languages', () => {
    for (const reason of REASONS) {
      for (const lang of LANGS) expect(REASON_MESSAGES[reason][lang].trim()).not.toBe('')
      if (reason !== 'not_found')
        expect(REASON_MESSAGES[reason].en).not.toBe(REASON_MESSAGES[reason].zhcn)
    }
  })
})

describe('login message', () => {
  test('is the text immediately followed by the milliseconds', () => {
    expect(buildLoginMessage(1763779200000)).toBe('HOPE Login1763779200000')
    expect(parseLoginMessage('HOPE Login1763779200000')).toBe(1763779200000)
  })
  test('rejects anything else', () => {
    for (const m of [
      'HOPE Login',
      'HOPE Login 1763779200000',
      'hope login1763779200000',
      'HOPE Login12x',
      'xHOPE Login1763779200000',
    ])
      expect(parseLoginMessage(m)).toBeNull()
  })
  test('round-trips any timestamp', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1e12, max: 9e15 }),
        (ms) => parseLoginMessage(buildLoginMessage(ms)) === ms,
      ),
    )
  })
})

describe('money', () => {
  test('parses decimals exactly and refuses bad input', () => {
    expect(parseAmount('12.5', 6)).toBe(12_500_000n)
    expect(parseAmount('0.000001', 6)).toBe(1n)
    expect(parseAmount('0.0000001', 6)).toBeNull()
    for (const bad of [
      '',
      '-1',
      '1e5',
      'NaN',
      '1.',
      '.5',
      ' ',
      '0x10',
      '1,5',
      '99999999999999999999999',
    ])
      expect(parseAmount(bad, 6)).toBeNull()
  })
  test('format and parse round-trip', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 38n - 1n }),
        fc.integer({ min: 18, max: 18 }),
        (units, d) => {
          return parseAmount(formatAmount(units, d), d) === units
        },
      ),
    )
  })
})

describe('login params', () => {
  const base = {
    username: '0x' + 'Ab'.repeat(20),
    message: 'HOPE Login1763779200000',
    signature: '0x' + '11'.repeat(65),
  }
  test('lower-cases the address and defaults location to 1', () => {
    const p = LoginParams.parse(base)
    expect(p.username).toBe('0x' + 'ab'.repeat(20))
    expect(p.location).toBe(1)
  })
  test('refuses a bad address, location or signature', () => {
    expect(LoginParams.safeParse({ ...base, username: '0x12' }).success).toBe(false)
    expect(LoginParams.safeParse({ ...base, location: '4' }).success).toBe(false)
    expect(LoginParams.safeParse({ ...base, location: '-1' }).success).toBe(false)
    expect(LoginParams.safeParse({ ...base, signature: 'zz' }).success).toBe(false)
    expect(LoginParams.safeParse({ ...base, message: undefined }).success).toBe(false)
  })
})

describe('log types', () => {
  test('each name gives back its code, and each code its name', () => {
    expect(api.LOG_TYPE.internalTransfer).toBe(9)
    for (const [code, name] of Object.entries(api.LOG_TYPES))
      expect(api.LOG_TYPE[name as keyof typeof api.LOG_TYPE]).toBe(Number(code))
    expect(Object.keys(api.LOG_TYPE)).toHaveLength(api.LOG_TYPE_CODES.length)
  })
})
