import type { DepositAddress } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import type { Eip1193Provider } from '../../../lib/wallet/eip1193.ts'
import { readRechargeWallet } from './read-recharge-wallet.ts'

/** Keys of what is read from the wallet rather than the server. */
export const walletKeys = {
  all: ['wallet'] as const,
  recharge: (chainId: number, token: string, account: string | null) =>
    [...walletKeys.all, 'recharge', chainId, token.toLowerCase(), account] as const,
}

export function rechargeWalletQueryOptions(config: {
  provider: Eip1193Provider | null
  account: `0x${string}` | null
  deposit: Pick<DepositAddress, 'chainId' | 'tokenAddress'>
}) {
  const { provider, account, deposit } = config
  return queryOptions({
    queryKey: walletKeys.recharge(deposit.chainId, deposit.tokenAddress, account),
    queryFn: () => {
      if (!provider || !account) throw new Error('no wallet connected')
      return readRechargeWallet({ provider, account, deposit })
    },
    enabled: provider !== null && account !== null,
    // The wallet's money moves without the server knowing: read again on every visit.
    staleTime: 0,
  })
}
