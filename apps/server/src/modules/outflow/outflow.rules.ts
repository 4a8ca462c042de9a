import type { OutflowKind } from '@hope/api'

/** The setting `outflowSignature`: which outflows the wallet must sign. */
export type OutflowSignaturePolicy = 'others' | 'all'

/**
 * Whether an outflow must carry the wallet's signature: every transfer; a withdrawal to
 * another address than the user's own wallet, or (policy `all`) every withdrawal.
 */
export function outflowNeedsSignature(
  policy: OutflowSignaturePolicy,
  kind: OutflowKind,
  owner: string,
  to: string,
): boolean {
  if (kind === 'transfer' || policy === 'all') return true
  return owner.toLowerCase() !== to.toLowerCase()
}

/**
 * Where a signed deadline stands at `now` (unix seconds): past, usable, or further ahead than
 * the server ever writes one (a client's own deadline, which could be kept for ever).
 */
export function deadlineStanding(
  deadline: number,
  now: number,
  ttlS: number,
): 'expired' | 'ok' | 'too_far' {
  if (deadline <= now) return 'expired'
  // A minute of slack for a clock step between writing the typed data and checking it.
  if (deadline > now + ttlS + 60) return 'too_far'
  return 'ok'
}
