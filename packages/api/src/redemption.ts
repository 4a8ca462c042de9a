// Redemption of community HOPE, and the pledge items it leaves to release.
import { z } from 'zod'
import { positiveAmount } from './money.ts'
import { IdempotencyKey } from './outflow.ts'

/** Redemption of community HOPE (`game/sqChange`). */
export const RedeemParams = z.object({
  amount: positiveAmount('HOPE', {
    required: 'redeem_amount_required',
    invalid: 'redeem_amount_invalid',
  }),
  idempotencyKey: IdempotencyKey,
})

export type RedeemParams = z.input<typeof RedeemParams>

/** A pledge item: the 20% part of a redemption, released back 1% a day. */
export interface PledgeItem {
  id: number
  amount: string
  released: string
  /** what is still to come back */
  convertible: string
  releaseRate: string
  redeemed: boolean
  createdAt: string
}

export interface RedeemResult {
  redeemed: string
  pledged: string
  price: string
  gross: string
  fee: string
  net: string
  pledge: PledgeItem
  replayed: boolean
}
