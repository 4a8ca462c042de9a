import { PageParams, type Page } from './common.ts'

/**
 * Security notices (the bell): what a user must hear of at once, because a thief would make
 * it happen: a sign-in from a device not seen before, a withdrawal to a new address, a
 * withdrawal requested, paid or cancelled, a withdrawal limit reached.
 */
export const NOTICE_KINDS = [
  'new_device',
  'new_withdrawal_address',
  'withdrawal_requested',
  'withdrawal_paid',
  'withdrawal_cancelled',
  'limit_reached',
] as const
export type NoticeKind = (typeof NOTICE_KINDS)[number]

export interface SecurityNotice {
  id: number
  kind: NoticeKind
  /**
   * What it is about, by kind: `new_device` { ip, device } (device: the browser as it names
   * itself, cut to 120 characters); `new_withdrawal_address` { address, amount, holdUntil };
   * `withdrawal_requested`, `withdrawal_paid` and `withdrawal_cancelled` { address, amount,
   * withdrawalId } (paid also txHash); `limit_reached` { amount, left }. Amounts are USDT decimal strings.
   */
  detail: {
    ip?: string
    device?: string
    address?: string
    amount?: string
    holdUntil?: string
    withdrawalId?: number
    txHash?: string
    left?: string
  }
  createdAt: string
  read: boolean
}

export const NoticesParams = PageParams
export type NoticePage = Page<SecurityNotice> & { unread: number }

export interface NoticesRead {
  unread: number
}
