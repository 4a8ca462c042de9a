import type { Withdrawal, WithdrawParams } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { noticeKeys } from '../../../lib/api/notice-keys.ts'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { sendOutflow } from '../../../lib/money-flow/outflow.ts'
import type { ApiError } from '../../../lib/api/request.ts'

/**
 * `userAccount/withdraw`: reserves amount and fee and records the request for review; to
 * another address than the own wallet, the wallet signs it first. The server's refusal
 * (amount_below_minimum, insufficient_balance, …) is toasted by the request wrapper in the
 * user's language; the key makes a repeat with the same key withdraw once.
 */
export function createWithdrawal(params: WithdrawParams): Promise<Withdrawal> {
  return sendOutflow('userAccount/withdraw', params)
}

type Options = Omit<UseMutationOptions<Withdrawal, ApiError, WithdrawParams>, 'mutationFn'>

/**
 * The balance, the account log, the withdrawal records and the bell are refreshed, whatever
 * the caller adds.
 */
export function useCreateWithdrawal({ onSuccess, onError, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: createWithdrawal,
    // A refused withdrawal (a limit it reached) leaves security notices too: the bell counts
    // them. A sent one refreshes the bell with the rest of what it changed.
    onError: (...args) => {
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all })
      return onError?.(...args)
    },
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'withdraw')
      return onSuccess?.(...args)
    },
  })
}
