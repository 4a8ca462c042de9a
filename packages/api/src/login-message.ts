/**
 * The login message (DESIGN §3): the text `HOPE Login` immediately followed by the decimal
 * milliseconds of `Date.now()`. Signed with personal_sign as UTF-8 text. This file and the
 * server's verifier are the only places that know the format.
 */
export const LOGIN_MESSAGE_PREFIX = 'HOPE Login'

/** @example buildLoginMessage(1763779200000) // 'HOPE Login1763779200000' */
export function buildLoginMessage(nowMs: number): string {
  return `${LOGIN_MESSAGE_PREFIX}${Math.trunc(nowMs)}`
}

/** Returns the timestamp of a well-formed login message, or null. */
export function parseLoginMessage(message: string): number | null {
  const match = /^HOPE Login(\d{10,16})$/.exec(message)
  if (!match) return null
  const ms = Number(match[1])
  return Number.isSafeInteger(ms) ? ms : null
}
