import type { Withdrawal } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { request, type ApiError } from '../../../lib/api/request.ts'

/**
 * `userAccount/cancelWithdraw`: only while the withdrawal waits for review (status 0); later
 * the server answers `withdrawal_state`, toasted by the request wrapper.
 */
export function cancelWithdrawal(id: number): Promise<Withdrawal> {
  return request('userAccount/cancelWithdraw', { id })
}

type Options = Omit<UseMutationOptions<Withdrawal, ApiError, number>, 'mutationFn'>

/** The refund shows in the balance, the account log and the records, whatever the caller adds. */
export function useCancelWithdrawal({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: cancelWithdrawal,
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'cancelWithdrawal')
      return onSuccess?.(...args)
    },
  })
}
