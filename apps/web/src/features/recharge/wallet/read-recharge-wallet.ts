import type { DepositAddress } from '@hope/api'
import { normalizeChainId, readChainId, type Eip1193Provider } from '../../../lib/wallet/eip1193.ts'

export type RechargeWallet =
  /** The wallet is on another chain: its balances there say nothing about this token. */
  | { onChain: false; chainId: string | null }
  /** Smallest units: the token's, and wei of the native coin that pays for gas. */
  | { onChain: true; chainId: string; token: bigint; native: bigint }

/**
 * What the connected wallet holds for a recharge, read through the wallet itself: on the
 * configured chain, its token balance (`balanceOf`) and native balance (`eth_getBalance`).
 */
export async function readRechargeWallet(params: {
  provider: Eip1193Provider
  account: `0x${string}`
  deposit: Pick<DepositAddress, 'chainId' | 'tokenAddress'>
}): Promise<RechargeWallet> {
  const { provider, account, deposit } = params
  const chainId = await readChainId(provider)
  if (!chainId || chainId !== normalizeChainId(deposit.chainId)) return { onChain: false, chainId }
  const erc20 = await import('../../../lib/wallet/erc20.ts')
  const [token, native] = await Promise.all([
    erc20.readTokenBalance(provider, deposit.tokenAddress as `0x${string}`, account),
    erc20.readNativeBalance(provider, account),
  ])
  return { onChain: true, chainId, token, native }
}
