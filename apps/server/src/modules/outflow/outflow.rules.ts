// Which outflows the wallet must sign is the contract's rule (`outflowNeedsSignature` in
// `@hope/api`), shared with the app so that the two cannot drift.

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
