import { CURRENCY_DECIMALS, type RechargeStatus } from '@hope/api'
import { readTypedAmount } from '../../lib/format/money-input.ts'
import type { Tone } from '../../lib/ui/status-tag.tsx'

/**
 * How many decimals the amount field takes: the token's, but never more than the USDT
 * account keeps (a token with 18 decimals is still credited in 6).
 * @example amountDecimals(18) // 6
 */
export function amountDecimals(tokenDecimals: number): number {
  return Math.min(tokenDecimals, CURRENCY_DECIMALS.USDT)
}

export type RechargeProblem = 'amountRequired' | 'amountInvalid' | 'insufficient'

/**
 * The typed amount in the token's smallest units, checked in the spec's order: "Please enter
 * the recharge amount", a valid amount, then "Insufficient USDT balance" against the wallet's
 * token balance when it is known.
 * @example checkRechargeAmount('12.5', 6, 100_000000n) // { units: 12_500000n }
 */
export function checkRechargeAmount(
  text: string,
  tokenDecimals: number,
  walletBalance: bigint | null,
): { problem: RechargeProblem } | { units: bigint } {
  const typed = readTypedAmount(text, tokenDecimals)
  if ('problem' in typed) return typed
  const fraction = text.trim().split('.')[1] ?? ''
  if (fraction.length > amountDecimals(tokenDecimals)) return { problem: 'amountInvalid' }
  if (walletBalance !== null && typed.units > walletBalance) return { problem: 'insufficient' }
  return typed
}

const NETWORKS: Record<number, string> = {
  1: 'Ethereum',
  56: 'BNB Smart Chain',
  97: 'BNB Smart Chain Testnet',
  137: 'Polygon',
  42161: 'Arbitrum One',
  11155111: 'Sepolia',
  31337: 'Anvil',
}

/**
 * The network's name for the confirmation sheet: the name the operators gave the chain (the one
 * the wallet was given when it added it), else a table rather than viem's chain list, which
 * loads only when a wallet needs a chain added.
 * @example networkName(56) // 'BNB Smart Chain'
 * @example networkName(31337, 'HOPE Local') // 'HOPE Local'
 */
export function networkName(chainId: number, configured?: string): string {
  return configured?.trim() || NETWORKS[chainId] || `Chain ${chainId}`
}

/** The wallet holds the token but nothing to pay gas with: the transfer cannot be sent. */
export function lacksGas(wallet: { token: bigint; native: bigint }): boolean {
  return wallet.token > 0n && wallet.native === 0n
}

export const RECHARGE_TONES: Record<RechargeStatus, Tone> = {
  on_chain: 'pending',
  credited: 'done',
  failed: 'bad',
}
