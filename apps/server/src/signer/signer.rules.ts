import { decodeFunctionData, parseAbi, toFunctionSelector, type Address, type Hex } from 'viem'

/** Why the signer will not sign a payout. */
export type PayoutRefusal =
  | 'unknown_withdrawal'
  | 'not_approved'
  | 'wrong_chain'
  | 'wrong_vault'
  | 'wrong_value'
  | 'wrong_payout'
  | 'gas_limit'
  | 'fee_limit'
  | 'hourly_cap'
  | 'daily_cap'

/** Why the signer will not sign a proof-of-liabilities publication. */
export type PorRefusal = 'not_publish' | 'por_block_not_after'

/** The vault's `pay`: the only call the hot wallet's key signs. */
export const VAULT_PAY_ABI = parseAbi([
  'function pay(bytes32 payoutId, address to, uint256 amount)',
])

/**
 * The fields of a transaction the rules read (fees and gas as the sender asked them): an
 * EIP-1559 transaction's two fees, or a legacy (type 0) transaction's gas price.
 */
export interface TxFacts {
  chainId: number
  to: Address
  data: Hex
  type?: string | undefined
  value?: bigint | undefined
  nonce?: number | undefined
  gas?: bigint | undefined
  maxFeePerGas?: bigint | undefined
  maxPriorityFeePerGas?: bigint | undefined
  gasPrice?: bigint | undefined
}

/**
 * The most a transaction pays per gas (`fee`) and the part of it its miner keeps (`tip`): an
 * EIP-1559 transaction's fee cap and tip; a legacy one's gas price, both. Null for anything
 * else (another type, fees missing, or the fields of both kinds at once): it is not signed.
 * @example txFees({ chainId: 1, to, data, type: 'legacy', gasPrice: 5n }) // { fee: 5n, tip: 5n }
 */
export function txFees(tx: TxFacts): { fee: bigint; tip: bigint } | null {
  const { maxFeePerGas: fee, maxPriorityFeePerGas: tip, gasPrice } = tx
  if (tx.type === 'legacy')
    return gasPrice !== undefined && fee === undefined && tip === undefined
      ? { fee: gasPrice, tip: gasPrice }
      : null
  if (tx.type !== undefined && tx.type !== 'eip1559') return null
  return fee !== undefined && tip !== undefined && gasPrice === undefined ? { fee, tip } : null
}

/**
 * What the signer signed before for the same withdrawal: its newest signature, with its fees as
 * `txFees` reads them (a legacy transaction's gas price as both).
 */
export interface SignedBefore {
  nonce: number | null
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** The signed transaction, answered again to a repeated request. */
  raw: Hex
  /** The unsigned fields it signed, to tell a replacement from another transaction. */
  to: string
  data: string
  gas: bigint
}

export interface PayoutFacts {
  /** The withdrawal as PostgreSQL has it, read by the signer itself. */
  withdrawal: {
    status: number
    chainId: number
    toAddress: string
    units: bigint
    payoutId: string
  } | null
  /** The transaction asked to be signed. */
  tx: TxFacts
  /** The payout vault the signer pays through (settings.payoutVaultAddress, as first read). */
  vault: string
  /** Its newest signature for this withdrawal; null when it has signed none. */
  before: SignedBefore | null
  /** Units of every payout signature of the last hour and day. */
  signedHour: bigint
  signedDay: bigint
  caps: { hour: bigint; day: bigint }
  /** The gas limit and fee ceiling (wei) a payout may carry (settings). */
  limits: { gas: bigint; maxFeePerGas: bigint }
}

/**
 * What the signer does with a payout request: sign it, answer the bytes it signed before (one
 * payout per withdrawal: a repeated request, whatever nonce it names, gets the same
 * transaction), or refuse.
 */
export type PayoutDecision =
  | { act: 'sign'; replaces: boolean }
  | { act: 'repeat'; raw: Hex }
  | { act: 'refuse'; reason: PayoutRefusal }

/** The vault payout a transaction's data makes, or null when it is anything else. */
export function decodePay(data: Hex): { payoutId: string; to: string; units: bigint } | null {
  try {
    const call = decodeFunctionData({ abi: VAULT_PAY_ABI, data })
    const [payoutId, to, units] = call.args
    return { payoutId: payoutId.toLowerCase(), to: to.toLowerCase(), units }
  } catch {
    return null
  }
}

/** A fee raised enough that nodes take the replacement: at least a tenth more. */
const bumped = (next: bigint, prev: bigint) => next * 10n >= prev * 11n

/**
 * Whether `tx` replaces the signed `before`: the same nonce, call and gas, both fees (a legacy
 * transaction's gas price) raised. Only such a transaction can take the place of the first,
 * never be mined beside it.
 */
export function isReplacement(tx: TxFacts, before: SignedBefore): boolean {
  const fees = txFees(tx)
  return (
    fees !== null &&
    before.nonce !== null &&
    tx.nonce === before.nonce &&
    tx.to.toLowerCase() === before.to.toLowerCase() &&
    tx.data.toLowerCase() === before.data.toLowerCase() &&
    tx.gas === before.gas &&
    bumped(fees.fee, before.maxFeePerGas) &&
    bumped(fees.tip, before.maxPriorityFeePerGas)
  )
}

/**
 * Whether and what to sign for a payout: a call of the vault's `pay` with the approved (status
 * 1) withdrawal's own payout id, address and amount, on its chain, with no value, gas and fees
 * (EIP-1559 fees, or a legacy transaction's gas price) within the limits, inside the hourly and
 * daily caps; at most one transaction per withdrawal and, after it, only a fee-raised
 * replacement of the same nonce.
 */
export function payoutDecision(f: PayoutFacts): PayoutDecision {
  const refuse = (reason: PayoutRefusal): PayoutDecision => ({ act: 'refuse', reason })
  const w = f.withdrawal
  if (!w) return refuse('unknown_withdrawal')
  const replaces = f.before !== null && isReplacement(f.tx, f.before)
  if (f.before && !replaces) return { act: 'repeat', raw: f.before.raw }
  if (w.status !== 1) return refuse('not_approved')
  if (f.tx.chainId !== w.chainId) return refuse('wrong_chain')
  if (!f.vault || f.tx.to.toLowerCase() !== f.vault.toLowerCase()) return refuse('wrong_vault')
  if ((f.tx.value ?? 0n) !== 0n) return refuse('wrong_value')
  const pay = decodePay(f.tx.data)
  if (
    !pay ||
    pay.payoutId !== w.payoutId.toLowerCase() ||
    pay.to !== w.toAddress.toLowerCase() ||
    pay.units !== w.units
  )
    return refuse('wrong_payout')
  if (f.tx.gas === undefined || f.tx.gas > f.limits.gas) return refuse('gas_limit')
  // The fee ceiling caps an EIP-1559 fee cap and a legacy gas price alike.
  const fees = txFees(f.tx)
  if (!fees || fees.fee > f.limits.maxFeePerGas || fees.tip > fees.fee) return refuse('fee_limit')
  if (f.signedHour + w.units > f.caps.hour) return refuse('hourly_cap')
  if (f.signedDay + w.units > f.caps.day) return refuse('daily_cap')
  return { act: 'sign', replaces }
}

export const POR_PUBLISH_ABI = parseAbi([
  'function publish(uint64 id, bytes32 root, uint256 totalUsdt, uint256 totalHope, uint64 blockNumber, address token, uint64 ledgerCut, uint64 leafCount, address[] reserves)',
])

/** The registry's publish call: the only transaction the publisher key signs. */
export const POR_PUBLISH_SELECTOR = toFunctionSelector(POR_PUBLISH_ABI[0])

/** The snapshot id and block B a publish call names, or null when it is anything else. */
export function decodePublish(data: Hex): { id: bigint; blockNumber: bigint } | null {
  try {
    const call = decodeFunctionData({ abi: POR_PUBLISH_ABI, data })
    return { id: call.args[0], blockNumber: call.args[4] }
  } catch {
    return null
  }
}

/** Whether a proof-of-liabilities transaction goes to the registry and calls publish. */
export function porTransactionAllowed(tx: { to: Address; data: Hex }, registry: string): boolean {
  return (
    registry !== '' &&
    tx.to.toLowerCase() === registry.toLowerCase() &&
    tx.data.slice(0, 10).toLowerCase() === POR_PUBLISH_SELECTOR &&
    decodePublish(tx.data) !== null
  )
}

/**
 * What the publisher key does with a publish call: sign one at a block after the last it
 * signed; answer the same bytes to the same snapshot asked again (a dropped transaction is
 * re-sent as it was), or sign a fee-raised replacement of it; refuse any earlier block, so the
 * operator cannot go back and prove another moment.
 */
export function porDecision(
  tx: TxFacts,
  registry: string,
  last: (SignedBefore & { id: bigint; blockNumber: bigint }) | null,
): { act: 'sign' } | { act: 'repeat'; raw: Hex } | { act: 'refuse'; reason: PorRefusal } {
  if (!porTransactionAllowed(tx, registry)) return { act: 'refuse', reason: 'not_publish' }
  const call = decodePublish(tx.data)!
  if (!last || call.blockNumber > last.blockNumber) return { act: 'sign' }
  if (call.blockNumber === last.blockNumber && call.id === last.id)
    return isReplacement(tx, last) ? { act: 'sign' } : { act: 'repeat', raw: last.raw }
  return { act: 'refuse', reason: 'por_block_not_after' }
}
