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

/** The statement of HOPE's Sign-In with Ethereum (EIP-4361) message. */
export const SIWE_STATEMENT = 'Sign in to HOPE with this wallet.'

/** What a Sign-In with Ethereum message must say for this server, now. */
export interface SiweExpectation {
  domain: string
  address: string
  chainId: number
  nowMs: number
  futureSkewMs: number
}

/**
 * Checks the fields of a parsed EIP-4361 message against this server: its domain, the signing
 * address, version 1, the chain, an issue time not ahead of the clock and an expiry not past.
 * The nonce is checked against the store separately.
 * @example checkSiweFields(parseSiweMessage(message), { domain: 'hope.example', … }) // 'ok'
 */
export function checkSiweFields(
  fields: {
    domain?: string | undefined
    address?: string | undefined
    version?: string | undefined
    chainId?: number | undefined
    nonce?: string | undefined
    uri?: string | undefined
    issuedAt?: Date | undefined
    expirationTime?: Date | undefined
  },
  expected: SiweExpectation,
): 'ok' | 'invalid_message' | 'signature_expired' | 'message_time_invalid' {
  if (
    !fields.domain ||
    !fields.address ||
    fields.version !== '1' ||
    fields.chainId === undefined ||
    !fields.nonce ||
    !fields.uri ||
    !fields.issuedAt ||
    !fields.expirationTime
  )
    return 'invalid_message'
  if (fields.domain !== expected.domain) return 'invalid_message'
  if (fields.address.toLowerCase() !== expected.address.toLowerCase()) return 'invalid_message'
  if (fields.chainId !== expected.chainId) return 'invalid_message'
  if (fields.issuedAt.getTime() > expected.nowMs + expected.futureSkewMs)
    return 'message_time_invalid'
  if (fields.expirationTime.getTime() <= expected.nowMs) return 'signature_expired'
  return 'ok'
}
