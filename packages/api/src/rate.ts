// A rate as an exact fraction: small enough for the first screen, which shows rates as
// percentages; the rules that charge with rates are in money-rules.ts.

/** A rate as an integer over a power of ten, so that amount × rate is exact in bigint units. */
export interface Rate {
  rate: bigint
  scale: bigint
}

/**
 * A rate such as '0.01' (a plain decimal, at most 18 decimals) as an exact fraction; null for
 * anything else.
 * @example parseRate('0.050000') // { rate: 50000n, scale: 1000000n }
 */
export function parseRate(text: string): Rate | null {
  const match = /^(\d{1,20})(?:\.(\d{1,18}))?$/.exec(text.trim())
  if (!match) return null
  const [, whole = '0', fraction = ''] = match
  return { rate: BigInt(whole + fraction), scale: 10n ** BigInt(fraction.length) }
}
