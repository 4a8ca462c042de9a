import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { accountKeys } from '../../../lib/api/account-keys.ts'
import { useSession } from '../../../lib/store.ts'
import { injectedProvider } from '../../../lib/wallet/eip1193.ts'
import { postRecharge } from '../api/recharge.ts'
import { walletKeys } from './read-recharge-wallet.query.ts'
import { sendRechargeMutationOptions, type SendRechargeVariables } from './send-recharge.query.ts'
import type { SendRechargeResult } from './send-recharge.ts'

type Options = Omit<
  UseMutationOptions<SendRechargeResult, Error, SendRechargeVariables>,
  'mutationFn' | 'mutationKey'
>

/**
 * Sends a recharge from the connected wallet. Afterwards the wallet balance and the recharge
 * records are refreshed and the server's record is kept for the status view, whatever the
 * caller adds.
 */
export function useSendRecharge({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  const account = useSession((s) => s.address)
  return useMutation({
    ...options,
    ...sendRechargeMutationOptions({ provider: injectedProvider(), account, record: postRecharge }),
    onSuccess: (...args) => {
      const [result] = args
      if (result.recharge)
        queryClient.setQueryData(accountKeys.recharge(result.txHash), result.recharge)
      void queryClient.invalidateQueries({ queryKey: walletKeys.all })
      void queryClient.invalidateQueries({ queryKey: accountKeys.rechargePages() })
      return onSuccess?.(...args)
    },
  })
}
