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

/** `userAccount/checkWithdrawAddress`: what a withdrawal destination is, read before signing. */
export const CheckWithdrawAddressParams = z.object({
  address: z.string({ error: 'address_required' }).trim().min(1, 'address_required').pipe(Address),
})
export type CheckWithdrawAddressParams = z.input<typeof CheckWithdrawAddressParams>

/**
 * A withdrawal destination: `forbidden` when no withdrawal may go there (the zero address or
 * one of the platform's own, refused with `withdraw_address_forbidden`); `contract` when code
 * is deployed there (allowed, but a contract may not be able to move the tokens on), null when
 * the chain did not answer.
 * @example { forbidden: false, contract: true }
 */
export interface WithdrawAddressCheck {
  forbidden: boolean
  contract: boolean | null
}

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
