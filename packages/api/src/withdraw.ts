import { z } from 'zod'
import { Address, PageParams, intParam } from './common.ts'
import { amountOf } from './money.ts'
import { IdempotencyKey, OutflowSignatureFields } from './outflow.ts'
import type { WithdrawalStatusCode } from './codes.ts'

export const WithdrawParams = z.object({
  amount: amountOf('USDT'),
  /** Defaults to the user's own wallet address. */
  address: Address.optional(),
  idempotencyKey: IdempotencyKey,
  /** Required for another address than the user's own wallet (see outflow.ts). */
  ...OutflowSignatureFields,
})
export type WithdrawParams = z.input<typeof WithdrawParams>

export const WithdrawalIdParams = z.object({ id: intParam(1, 999_999_999) })

export const ReviewWithdrawalParams = z.object({
  id: intParam(1, 999_999_999),
  decision: z.enum(['approve', 'reject']),
  reason: z.string().trim().max(200).optional(),
})

export const MyWithdrawalsParams = PageParams

export interface Withdrawal {
  id: number
  amount: string
  fee: string
  address: string
  status: WithdrawalStatusCode
  txHash: string | null
  reviewReason: string | null
  /**
   * A withdrawal to an address the user has not been paid at before waits until then (ISO)
   * before review; the user may cancel it meanwhile. Null when it does not wait.
   */
  holdUntil: string | null
  createdAt: string
  updatedAt: string
}
