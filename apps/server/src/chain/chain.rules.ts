/**
 * What an answer of the chain's node means. Only the node saying "there is no such block,
 * receipt or transaction" is chain state; a failed call (HTTP error, timeout, JSON-RPC internal
 * error) says nothing about the chain and must never be read as a reorg or a missing payout.
 */

/** viem's errors for a node that answered `null`: the thing does not exist on that node. */
const ABSENT_ANSWERS = new Set([
  'BlockNotFoundError',
  'TransactionReceiptNotFoundError',
  'TransactionNotFoundError',
])

/**
 * True when the error is the node's answer that the block, receipt or transaction does not
 * exist; false for any failure to get an answer.
 *
 * @example isAbsentAnswer(new TransactionReceiptNotFoundError({ hash })) // true
 * @example isAbsentAnswer(new HttpRequestError({ url, status: 500 })) // false
 */
export function isAbsentAnswer(error: unknown): boolean {
  return error instanceof Error && ABSENT_ANSWERS.has(error.name)
}

/**
 * How the node refused a raw transaction we sent: `duplicate` when it already holds that very
 * transaction, `nonce_used` when the sender's nonce has moved past it (by this transaction or
 * another one: the caller must find out which), `underpriced` when its fees are below what the
 * chain asks now (a fee spike: it waits for lower fees or a replacement), `other` for anything
 * else.
 */
export type BroadcastRefusal = 'duplicate' | 'nonce_used' | 'underpriced' | 'other'

export function broadcastRefusal(message: string): BroadcastRefusal {
  const text = message.toLowerCase()
  if (/already known|already imported|known transaction/.test(text)) return 'duplicate'
  if (/nonce too low|nonce has already been used/.test(text)) return 'nonce_used'
  if (/less than (the )?block base fee|underpriced|fee too low|feecap too low/.test(text))
    return 'underpriced'
  return 'other'
}

/**
 * Whose transaction holds a payout's nonce, once the node said the nonce is used.
 * - `ours`: the node knows our transaction (pending or mined);
 * - `taken`: the hot wallet's mined nonce has passed ours and the node knows nothing of our
 *   transaction: another transaction signed with the hot wallet's key consumed the nonce, and
 *   ours can never be mined — an operator must look;
 * - `unsettled`: neither yet (the other transaction is still pending, or the node lags): ask
 *   again next tick.
 */
export type NonceHolder = 'ours' | 'taken' | 'unsettled'

export function nonceHolder(input: {
  /** The nonce our signed payout carries. */
  ourNonce: number
  /** The hot wallet's transaction count at the latest block. */
  minedNonce: number
  /** Whether the node has our transaction or its receipt. */
  ourTransactionKnown: boolean
}): NonceHolder {
  if (input.ourTransactionKnown) return 'ours'
  return input.minedNonce > input.ourNonce ? 'taken' : 'unsettled'
}
