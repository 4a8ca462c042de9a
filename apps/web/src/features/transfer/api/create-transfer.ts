import type { TransferParams, TransferResult } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { sendOutflow } from '../../../lib/money-flow/outflow.ts'
import type { ApiError } from '../../../lib/api/request.ts'

/**
 * `userAccount/transfer`: USDT to an address in the sender's downline, signed by the wallet
 * first (EIP-712: a session alone moves nothing). The server's refusal
 * (not_downline, insufficient_balance, …) is toasted by the request wrapper in the user's
 * language; the key makes a repeat with the same key move the money once.
 */
export function createTransfer(params: TransferParams): Promise<TransferResult> {
  return sendOutflow('userAccount/transfer', params)
}

type Options = Omit<UseMutationOptions<TransferResult, ApiError, TransferParams>, 'mutationFn'>

/** The balance and every account log list are refreshed after a transfer, whatever the caller adds. */
export function useCreateTransfer({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: createTransfer,
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'transfer')
      return onSuccess?.(...args)
    },
  })
}
