import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  checkLoginTime,
  defaultNickName,
  invitationLink,
  pairHash,
  referralCodeFrom,
} from './user.rules.ts'

const limits = { windowMs: 300_000, futureSkewMs: 60_000 }

describe('login time window', () => {
  test('accepts from 60 s ahead to 5 min old, refuses outside', () => {
    const now = 1_763_779_200_000
    expect(checkLoginTime(now, now, limits)).toBe('ok')
    expect(checkLoginTime(now - 300_000, now, limits)).toBe('ok')
    expect(checkLoginTime(now - 300_001, now, limits)).toBe('expired')
    expect(checkLoginTime(now + 60_000, now, limits)).toBe('ok')
    expect(checkLoginTime(now + 60_001, now, limits)).toBe('future')
  })
  test('is ok exactly inside the window for any offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400_000, max: 100_000 }), (offset) => {
        const now = 1_763_779_200_000
        const result = checkLoginTime(now + offset, now, limits)
        const expected = offset > 60_000 ? 'future' : offset < -300_000 ? 'expired' : 'ok'
        return result === expected
      }),
    )
  })
})

describe('pair hash', () => {
  test('ignores address case and separates messages', () => {
    expect(pairHash('0xABC', 'HOPE Login1')).toEqual(pairHash('0xabc', 'HOPE Login1'))
    expect(pairHash('0xabc', 'HOPE Login1')).not.toEqual(pairHash('0xabc', 'HOPE Login2'))
  })
})

describe('referral code', () => {
  test('is 8 characters without look-alikes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 8 }), (bytes) =>
        /^[A-HJ-NP-Z2-9]{8}$/.test(referralCodeFrom(bytes)),
      ),
    )
  })
})

describe('names and links', () => {
  test('default nickname and invitation link', () => {
    expect(defaultNickName('0x00000000000000000000000000000000abcdef')).toBe('HOPE-ABCDEF')
    expect(invitationLink('https://hope.app', '0xabc')).toBe(
      'https://hope.app/#/invite?pusername=0xabc',
    )
  })
})
