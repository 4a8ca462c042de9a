import { createHash } from 'node:crypto'

export type LoginTimeCheck = 'ok' | 'expired' | 'future'

/**
 * A signed login message is valid from its timestamp for `windowMs`, and may be up to
 * `futureSkewMs` ahead of the server clock.
 */
export function checkLoginTime(
  messageMs: number,
  nowMs: number,
  limits: { windowMs: number; futureSkewMs: number },
): LoginTimeCheck {
  if (messageMs > nowMs + limits.futureSkewMs) return 'future'
  if (nowMs - messageMs > limits.windowMs) return 'expired'
  return 'ok'
}

/** The key of a signed pair: the same address and message open at most one live session. */
export function pairHash(address: string, message: string): Buffer {
  return createHash('sha256').update(`${address.toLowerCase()}\n${message}`).digest()
}

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest()
}

/** Session tokens are 32 random bytes, base64url: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** An 8-character invitation code without look-alike characters (0/O, 1/I). */
export function referralCodeFrom(random: Uint8Array): string {
  let code = ''
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[(random[i] ?? 0) % CODE_ALPHABET.length]
  return code
}

export const normalizeReferralCode = (code: string): string => code.trim().toUpperCase()

export const defaultNickName = (address: string): string =>
  `HOPE-${address.slice(-6).toUpperCase()}`

/** The link a user shares; the invite page reads `pusername` from it. */
export const invitationLink = (origin: string, userName: string): string =>
  `${origin}/#/invite?pusername=${userName}`
