import type { OutflowKind, OutflowSignaturePolicy } from './outflow.ts'

/**
 * Whether an outflow must carry the wallet's signature (DESIGN §5a), written once for the
 * server, which refuses it unsigned, and the app, which asks the wallet before sending:
 * - every transfer;
 * - an activation paid for another member (paying for another is an outflow); activating
 *   oneself buys one's own level like `game/upgrade`, nothing leaves the user, so no policy
 *   signs it;
 * - a withdrawal to another address than the user's own wallet, and under the policy `all`
 *   every withdrawal: money leaving custody for the own wallet is what `all` adds.
 * @example outflowNeedsSignature('others', 'withdraw', '0xab…', '0xab…') // false
 */
export function outflowNeedsSignature(
  policy: OutflowSignaturePolicy,
  kind: OutflowKind,
  owner: string,
  to: string,
): boolean {
  if (kind === 'transfer') return true
  const elsewhere = owner.toLowerCase() !== to.toLowerCase()
  if (kind === 'activate') return elsewhere
  return elsewhere || policy === 'all'
}
