import { decodeFunctionData, parseAbi, toFunctionSelector, type Address, type Hex } from 'viem'

/** Why the signer will not sign a payout. */
export type PayoutRefusal =
  | 'unknown_withdrawal'
  | 'not_approved'
  | 'wrong_chain'
  | 'wrong_token'
  | 'wrong_payout'
  | 'hourly_cap'
  | 'daily_cap'

export const TOKEN_TRANSFER_ABI = parseAbi(['function transfer(address to, uint256 value)'])

export interface PayoutFacts {
  /** The withdrawal as PostgreSQL has it, read by the signer itself. */
  withdrawal: { status: number; chainId: number; toAddress: string; units: bigint } | null
  /** The transaction asked to be signed. */
  tx: { chainId: number; to: Address; data: Hex }
  /** The configured token (settings.chainTokenAddress). */
  token: string
  /** Units of distinct withdrawals signed within the last hour and day, this one excluded. */
  signedHour: bigint
  signedDay: bigint
  caps: { hour: bigint; day: bigint }
}

/** The token transfer a transaction's data makes, or null when it is anything else. */
export function decodeTransfer(data: Hex): { to: string; units: bigint } | null {
  try {
    const call = decodeFunctionData({ abi: TOKEN_TRANSFER_ABI, data })
    const [to, units] = call.args
    return { to: to.toLowerCase(), units }
  } catch {
    return null
  }
}

/**
 * Whether a payout may be signed: an approved, unpaid withdrawal (status 1), on its chain,
 * paying exactly its recorded address and amount in the configured token, inside the hourly
 * and daily caps. Null when it may.
 */
export function payoutRefusal(f: PayoutFacts): PayoutRefusal | null {
  const w = f.withdrawal
  if (!w) return 'unknown_withdrawal'
  if (w.status !== 1) return 'not_approved'
  if (f.tx.chainId !== w.chainId) return 'wrong_chain'
  if (!f.token || f.tx.to.toLowerCase() !== f.token.toLowerCase()) return 'wrong_token'
  const transfer = decodeTransfer(f.tx.data)
  if (!transfer || transfer.to !== w.toAddress.toLowerCase() || transfer.units !== w.units)
    return 'wrong_payout'
  if (f.signedHour + w.units > f.caps.hour) return 'hourly_cap'
  if (f.signedDay + w.units > f.caps.day) return 'daily_cap'
  return null
}

/** The registry's publish call: the only transaction the publisher key signs. */
export const POR_PUBLISH_SELECTOR = toFunctionSelector(
  'publish(uint64,bytes32,uint256,uint256,uint64,address,address[])',
)

/** Whether a proof-of-liabilities transaction goes to the registry and calls publish. */
export function porTransactionAllowed(tx: { to: Address; data: Hex }, registry: string): boolean {
  return (
    registry !== '' &&
    tx.to.toLowerCase() === registry.toLowerCase() &&
    tx.data.slice(0, 10).toLowerCase() === POR_PUBLISH_SELECTOR
  )
}
