// Membership levels, nodes and activating a downline's account.
import { z } from 'zod'
import { Address, intParam } from './common.ts'
import { IdempotencyKey, OutflowSignatureFields } from './outflow.ts'

/** `game/upgrade`: buy a higher membership level, paying only the difference. */
export const UpgradeParams = z.object({
  level: intParam(1, 7),
  idempotencyKey: IdempotencyKey,
})

/** `game/buyNode`: activate a node of a type (1 shareholder, 2 guarding, 3 director). */
export const BuyNodeParams = z.object({
  type: intParam(1, 3),
  idempotencyKey: IdempotencyKey,
})

export interface PurchaseResult {
  /** USDT paid */
  paid: string
  /** HOPE bought into the split account (upgrades) */
  hope: string
  level: number
  nodes: number[]
  replayed: boolean
}

/** `game/vipInfo`: my level and nodes, and what each level and node costs. */
export interface VipInfo {
  level: number
  levelPrices: string[]
  nodes: { type: 1 | 2 | 3; source: 'bought' | 'granted' }[]
  nodePrices: string[]
  /** Share of the day's new community HOPE value each node type splits, as a fraction ('0.01'). */
  nodeRewardRates: string[]
  /** HOPE bought into the split account in all, and released from it so far. */
  split: { total: string; released: string }
  /** Fraction of the split HOPE released each day ('0.01'). */
  splitDailyRate: string
  /** where to apply for a shareholder tier */
  applicationEmail: string
}

/**
 * `game/activate`: pay a downline member's membership level (member selection), placing the
 * member in a partition under their inviter while the member has no team yet (partition choice).
 * Paying for another member is an outflow: the payer's wallet signs the activation's price
 * (`userAccount/outflowTypedData` with kind `activate`).
 */
export const ActivateParams = z.object({
  address: z.string({ error: 'address_required' }).trim().min(1, 'address_required').pipe(Address),
  level: intParam(1, 7),
  location: intParam(1, 3).optional(),
  idempotencyKey: IdempotencyKey,
  ...OutflowSignatureFields,
})
