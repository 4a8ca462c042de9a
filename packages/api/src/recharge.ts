import { z } from 'zod'
import { PageParams } from './common.ts'

export const RechargeParams = z.object({
  txHash: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .transform((h) => h.toLowerCase()),
})
export type RechargeParams = z.input<typeof RechargeParams>

/** on_chain: sent, waiting for confirmations; credited; failed: reverted or not a deposit of the token from this wallet. */
export const RECHARGE_STATUSES = ['on_chain', 'credited', 'failed'] as const
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number]

export interface Recharge {
  txHash: string
  /** Null until the chain shows the transfer. */
  amount: string | null
  status: RechargeStatus
  confirmations: number
  confirmationsRequired: number
  createdAt: string
}

export const MyRechargesParams = PageParams
