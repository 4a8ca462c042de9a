import type { TransferParams, TransferResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { sendOutflow } from '../../../lib/money-flow/outflow.ts'

/**
 * `userAccount/transfer`: USDT to an address in the sender's downline, signed by the wallet
 * first (EIP-712: a session alone moves nothing). The server's refusal
 * (not_downline, insufficient_balance, …) is toasted by the request wrapper in the user's
 * language; the key makes a repeat with the same key move the money once.
 */
export function createTransfer(params: TransferParams): Promise<TransferResult> {
  return sendOutflow('userAccount/transfer', params)
}

/** The balance and every account log list are refreshed after a transfer, whatever the caller adds. */
export function useCreateTransfer(options?: MoneyMutationOptions<TransferResult, TransferParams>) {
  return useMoneyMutation('transfer', createTransfer, options)
}
