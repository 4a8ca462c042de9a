import { createHash } from 'node:crypto'
import { getAddress } from 'viem'
import { createSiweMessage } from 'viem/siwe'

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
  /**
   * The origins the message may name, PUBLIC_URL's first (the one `user/loginMessage` hands
   * out): its domain is one's host, its URI that origin. Configuration, never the request.
   */
  origins: readonly string[]
  address: string
  chainId: number
  nowMs: number
  futureSkewMs: number
}

export type SiweVerdict = 'ok' | 'invalid_message' | 'signature_expired' | 'message_time_invalid'

/** The fields of a parsed EIP-4361 message (viem's `parseSiweMessage`). */
export interface SiweFields {
  scheme?: string | undefined
  domain?: string | undefined
  address?: string | undefined
  statement?: string | undefined
  uri?: string | undefined
  version?: string | undefined
  chainId?: number | undefined
  nonce?: string | undefined
  issuedAt?: Date | undefined
  expirationTime?: Date | undefined
  notBefore?: Date | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
}

/**
 * Checks the fields of a parsed EIP-4361 message against this server: a domain and URI of one
 * of its origins, the signing address, HOPE's statement, version 1, the chain, an issue time not
 * ahead of the clock and an expiry not past, and none of the lines HOPE never writes (scheme,
 * not-before, request id, resources). The nonce and the exact times are checked against what
 * was handed out (`matchesIssuedSiwe`) separately.
 * @example checkSiweFields(parseSiweMessage(message), { origins: ['https://hope.example'], … }) // 'ok'
 */
export function checkSiweFields(fields: SiweFields, expected: SiweExpectation): SiweVerdict {
  if (
    !fields.domain ||
    !fields.address ||
    fields.version !== '1' ||
    fields.chainId === undefined ||
    !fields.nonce ||
    !fields.uri ||
    !fields.issuedAt ||
    Number.isNaN(fields.issuedAt.getTime()) ||
    !fields.expirationTime ||
    Number.isNaN(fields.expirationTime.getTime())
  )
    return 'invalid_message'
  const origin = expected.origins.find((o) => new URL(o).host === fields.domain)
  if (!origin || (fields.uri !== origin && fields.uri !== `${origin}/`)) return 'invalid_message'
  if (fields.statement !== SIWE_STATEMENT) return 'invalid_message'
  if (
    fields.scheme !== undefined ||
    fields.notBefore !== undefined ||
    fields.requestId !== undefined ||
    fields.resources !== undefined
  )
    return 'invalid_message'
  if (fields.address.toLowerCase() !== expected.address.toLowerCase()) return 'invalid_message'
  if (fields.chainId !== expected.chainId) return 'invalid_message'
  if (fields.issuedAt.getTime() > expected.nowMs + expected.futureSkewMs)
    return 'message_time_invalid'
  if (fields.expirationTime.getTime() <= expected.nowMs) return 'signature_expired'
  return 'ok'
}

/**
 * Whether `message` is exactly the message the server handed out with its nonce: the issue and
 * expiry times kept with the nonce, and, line for line, what EIP-4361 writes for the checked
 * fields (so no line the parser skips over, and nothing before or after, is signed unseen).
 */
export function matchesIssuedSiwe(
  message: string,
  fields: SiweFields,
  issued: { issuedAt: Date; expiresAt: Date },
): boolean {
  if (fields.issuedAt?.getTime() !== issued.issuedAt.getTime()) return false
  if (fields.expirationTime?.getTime() !== issued.expiresAt.getTime()) return false
  let expected: string
  try {
    expected = createSiweMessage({
      domain: fields.domain!,
      address: getAddress(fields.address!),
      statement: SIWE_STATEMENT,
      uri: fields.uri!,
      version: '1',
      chainId: fields.chainId!,
      nonce: fields.nonce!,
      issuedAt: issued.issuedAt,
      expirationTime: issued.expiresAt,
    })
  } catch {
    return false
  }
  return expected === message
}
