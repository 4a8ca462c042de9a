import type { Withdrawal } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { request } from '../../../lib/api/request.ts'

/**
 * `userAccount/cancelWithdraw`: only while the withdrawal waits for review (status 0); later
 * the server answers `withdrawal_state`, toasted by the request wrapper.
 */
export function cancelWithdrawal(id: number): Promise<Withdrawal> {
  return request('userAccount/cancelWithdraw', { id })
}

/** The refund shows in the balance, the account log and the records, whatever the caller adds. */
export function useCancelWithdrawal(options?: MoneyMutationOptions<Withdrawal, number>) {
  return useMoneyMutation('cancelWithdrawal', cancelWithdrawal, options)
}
