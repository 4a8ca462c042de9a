import { z } from 'zod'
import { ACCOUNT_KINDS, type AccountKind } from './constants.ts'
import { positiveAmount } from './money.ts'

export const OPERATOR_ROLES = ['admin', 'finance', 'content', 'support'] as const
export type OperatorRole = (typeof OPERATOR_ROLES)[number]

export const OperatorLoginParams = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(200),
})
export type OperatorLoginParams = z.input<typeof OperatorLoginParams>

export interface OperatorSession {
  token: string
  username: string
  role: OperatorRole
}

/** Backend recharge (log 5) or debit (log 6) of one user account, with a reason. */
export const BalanceAdjustParams = z.object({
  userName: z.string().trim().min(1).max(64),
  account: z.enum(ACCOUNT_KINDS as [AccountKind, ...AccountKind[]]),
  /** Checked against the account's currency by the server; HOPE's 18 decimals at most here. */
  amount: positiveAmount('HOPE'),
  reason: z.string().trim().min(1).max(200),
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
})
export type BalanceAdjustParams = z.input<typeof BalanceAdjustParams>

export interface BalanceAdjustResult {
  transferId: string
  account: AccountKind
  amount: string
  before: string
  after: string
  replayed: boolean
}

/** Grant a shareholder tier (node type 1..3) after the member's e-mail application; audited. */
export const GrantShareholderParams = z.object({
  userName: z.string().trim().min(1).max(64),
  type: z.enum(['1', '2', '3']).transform(Number),
  reason: z.string().trim().min(1).max(200),
})

/** Flag or unflag a robot account (robots earn no rewards); audited. */
export const FlagRobotParams = z.object({
  userName: z.string().trim().min(1).max(64),
  robot: z.enum(['true', 'false']).transform((v) => v === 'true'),
  reason: z.string().trim().min(1).max(200),
})

export interface MemberFlags {
  userName: string
  isRobot: boolean
  nodes: { type: number; source: 'bought' | 'granted' }[]
}
