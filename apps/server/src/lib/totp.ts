import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** The operator's second factor: RFC 6238 time-based codes (HMAC-SHA1, 6 digits, 30 s). */
export const TOTP_STEP_SECONDS = 30
export const TOTP_DIGITS = 6
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 without padding, as authenticator apps read secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

/** Reads base32 (case, spaces and padding ignored); null on any other character. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase()
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const ch of clean) {
    const index = ALPHABET.indexOf(ch)
    if (index < 0) return null
    value = ((value << 5) | index) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** RFC 4226 HOTP: the code for one counter value. */
export function hotp(secret: Uint8Array, counter: bigint, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(counter)
  const mac = createHmac('sha1', secret).update(message).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** The time step a moment falls in. */
export const totpStep = (nowMs: number): bigint =>
  BigInt(Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS))

/**
 * The step a code was made for, checking the current step and `window` steps either side (a
 * phone clock a little off), or null. The caller refuses a step at or before the last one the
 * operator used, so a code works once.
 */
export function verifyTotp(
  secret: Uint8Array,
  code: string,
  nowMs: number,
  window = 1,
): bigint | null {
  if (!/^\d{6}$/.test(code)) return null
  const now = totpStep(nowMs)
  const given = Buffer.from(code)
  for (let d = -window; d <= window; d++) {
    const step = now + BigInt(d)
    if (step < 0n) continue
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), given)) return step
  }
  return null
}

/** A new secret: 20 random bytes (160 bits, the size RFC 4226 recommends). */
export const generateTotpSecret = (): Buffer => randomBytes(20)

/** The enrolment link an authenticator app scans (Key URI format). */
export function otpauthUri(account: string, secret: Uint8Array, issuer = 'HOPE'): string {
  const label = encodeURIComponent(`${issuer}:${account}`)
  const params = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  })
  return `otpauth://totp/${label}?${params}`
}
