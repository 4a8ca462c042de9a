import type { Withdrawal, WithdrawParams } from '@hope/api'
import { useQueryClient } from '@tanstack/react-query'
import { noticeKeys } from '../../../lib/api/notice-keys.ts'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { sendOutflow } from '../../../lib/money-flow/outflow.ts'

/**
 * `userAccount/withdraw`: reserves amount and fee and records the request for review; to
 * another address than the own wallet, the wallet signs it first. The server's refusal
 * (amount_below_minimum, insufficient_balance, …) is toasted by the request wrapper in the
 * user's language; the key makes a repeat with the same key withdraw once.
 */
export function createWithdrawal(params: WithdrawParams): Promise<Withdrawal> {
  return sendOutflow('userAccount/withdraw', params)
}

/**
 * The balance, the account log, the withdrawal records and the bell are refreshed, whatever
 * the caller adds.
 */
export function useCreateWithdrawal({
  onError,
  ...options
}: MoneyMutationOptions<Withdrawal, WithdrawParams> = {}) {
  const queryClient = useQueryClient()
  return useMoneyMutation('withdraw', createWithdrawal, {
    ...options,
    // A refused withdrawal (a limit it reached) leaves security notices too: the bell counts
    // them. A sent one refreshes the bell with the rest of what it changed.
    onError: (...args) => {
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all })
      return onError?.(...args)
    },
  })
}
