import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { base32Decode, base32Encode, hotp, otpauthUri, totpStep, verifyTotp } from './totp.ts'

// RFC 6238 appendix B: the SHA-1 seed and its 8-digit codes; 6 digits are their last six.
const SEED = Buffer.from('12345678901234567890')

describe('operator second factor', () => {
  test('codes match the RFC 6238 reference values', () => {
    const at = (seconds: number, digits: number) => hotp(SEED, totpStep(seconds * 1000), digits)
    expect(at(59, 8)).toBe('94287082')
    expect(at(1111111109, 8)).toBe('07081804')
    expect(at(1234567890, 8)).toBe('89005924')
    expect(at(2000000000, 8)).toBe('69279037')
    expect(at(59, 6)).toBe('287082')
  })

  test('RFC 4226 counter values', () => {
    expect([0n, 1n, 9n].map((c) => hotp(SEED, c))).toEqual(['755224', '287082', '520489'])
  })

  test('a code is accepted one step either side and refused further off', () => {
    const now = 1_700_000_000_000
    const code = hotp(SEED, totpStep(now))
    expect(verifyTotp(SEED, code, now)).toBe(totpStep(now))
    expect(verifyTotp(SEED, code, now + 30_000)).toBe(totpStep(now))
    expect(verifyTotp(SEED, code, now - 30_000)).toBe(totpStep(now))
    expect(verifyTotp(SEED, code, now + 90_000)).toBeNull()
    expect(verifyTotp(SEED, '12345', now)).toBeNull()
    expect(verifyTotp(SEED, 'abcdef', now)).toBeNull()
  })

  test('base32 round-trips any bytes and rejects foreign characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(base32Decode(base32Encode(bytes))).toEqual(Buffer.from(bytes))
      }),
    )
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI')
    expect(base32Decode('mzxw 6ytb oi==')).toEqual(Buffer.from('foobar'))
    expect(base32Decode('MZX1')).toBeNull()
  })

  test('the enrolment link names the issuer and carries the secret', () => {
    const uri = otpauthUri('alice', SEED)
    expect(uri).toBe(
      'otpauth://totp/HOPE%3Aalice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=HOPE&algorithm=SHA1&digits=6&period=30',
    )
  })
})
