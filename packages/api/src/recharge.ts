import { z } from 'zod'
import { PageParams } from './common.ts'
import type { RechargeStatus } from './codes.ts'

export const RechargeParams = z.object({
  txHash: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .transform((h) => h.toLowerCase()),
})
export type RechargeParams = z.input<typeof RechargeParams>

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
