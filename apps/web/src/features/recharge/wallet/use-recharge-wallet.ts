import type { DepositAddress } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { useSession } from '../../../lib/store.ts'
import { injectedProvider } from '../../../lib/wallet/eip1193.ts'
import { rechargeWalletQueryOptions } from './read-recharge-wallet.query.ts'

/** The connected wallet's token and gas balances on the recharge chain. */
export function useRechargeWallet(deposit: Pick<DepositAddress, 'chainId' | 'tokenAddress'>) {
  const account = useSession((s) => s.address)
  return useQuery(rechargeWalletQueryOptions({ provider: injectedProvider(), account, deposit }))
}
