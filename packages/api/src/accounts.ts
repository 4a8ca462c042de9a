import { z } from 'zod'
import { Address, intParam, PageParams } from './common.ts'
import type { LogType } from './codes.ts'
import { ACCOUNT_KINDS, type AccountKind } from './constants.ts'
import { amountOf, type Currency } from './money.ts'
import { IdempotencyKey, OutflowSignatureFields } from './outflow.ts'

/** One account in the `userAccount/balance` list. */
export interface AccountBalance {
  kind: AccountKind
  currency: Currency
  /** Posted balance. */
  balance: string
  /** Spendable now: balance less what pending transfers reserve and what is locked. */
  available: string
  /** Reserved by pending transfers (e.g. a withdrawal under review). */
  pending: string
  /** Held but not usable until released (LOCKED_ACCOUNTS: the split account's HOPE). */
  locked: string
  /** balance × price, in USDT. */
  valueUsdt: string
  /**
   * Everything the user holds in USDT: every account's value, plus the staked and the pledged
   * HOPE at the HOPE price. The same in every item of the list.
   */
  totalValueUsdt: string
  /** HOPE in the user's active consensus positions: the same in every item of the list. */
  stakedHope: string
  /** HOPE the user's pledge items have still to release: the same in every item of the list. */
  pledgedHope: string
  /** HOPE price in USDT used for the valuation: the same in every item of the list. */
  hopePriceUsdt: string
}

/**
 * `userAccount/balance`: one item per account, in ACCOUNT_KINDS order. The list is the spec's
 * shape (§7, "response is a list"); the total value and the HOPE price ride on each item, the
 * same in all of them, so one call still draws the assets screen.
 */
export type BalanceList = AccountBalance[]

export const BalanceDetailParams = PageParams.omit({ pageNum: true }).extend({
  account: z.enum(ACCOUNT_KINDS as [AccountKind, ...AccountKind[]]).optional(),
  logType: intParam(1, 16).optional(),
  /** Keyset cursor: the `id` of the last row already shown. */
  cursor: z
    .string()
    .regex(/^\d{1,19}(\.\d{1,19})?$/)
    .optional(),
})
export type BalanceDetailParams = z.input<typeof BalanceDetailParams>

/**
 * Where a log line's money stands. A reservation (a withdrawal's amount or fee, held from the
 * moment it is asked for) is `pending` until it is paid out (`done`) or given back
 * (`refunded`, with a refund line of its own); every other line is `done`.
 */
export type AccountLogStatus = 'done' | 'pending' | 'refunded'

/**
 * Which part of a withdrawal a log line is: its amount or its fee held (the reservation line,
 * `pending` until paid or given back), or the refund of either.
 */
export type WithdrawalPart = 'amount' | 'fee' | 'amountRefund' | 'feeRefund'

/**
 * One line of the account log.
 * @example { id: '812.40', account: 'usdt', currency: 'USDT', amount: '-20', balanceAfter: '100', logType: 1, status: 'pending', withdrawal: 'amount', counterparty: null, createdAt: '2026-11-26T08:00:00.000Z' }
 */
export interface AccountLogEntry {
  /** `<transfer id>.<account id>`: unique, and the cursor of the page after it. */
  id: string
  account: AccountKind
  currency: Currency
  /** Signed: negative when money left (or is held from) the account. */
  amount: string
  /**
   * The account's available balance after the line (its balance less what withdrawals hold):
   * the line before's plus this line's amount. A reservation lowers it when it is made, its
   * refund raises it back, and its payout leaves it as it is.
   */
  balanceAfter: string
  /** A withdrawal's amount and every refund are 1 (withdrawal and refund); a reserved fee is 14. */
  logType: LogType
  status: AccountLogStatus
  /** Which part of a withdrawal the line is; null for every other line. */
  withdrawal: WithdrawalPart | null
  /** The other user of an internal transfer, when there is one. */
  counterparty: string | null
  createdAt: string
}

export interface AccountLogPage {
  list: AccountLogEntry[]
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: string | null
}

export interface EnabledCoin {
  currency: Currency
  decimals: number
  accounts: AccountKind[]
  /** Smallest amount of an internal transfer. */
  minTransfer: string
  transferFeeFixed: string
  transferFeeRate: string
  /** Withdrawals to the chain (USDT only; '0' for other currencies). */
  minWithdraw: string
  withdrawFeeFixed: string
  withdrawFeeRate: string
}

export const TransferParams = z.object({
  address: z.string({ error: 'address_required' }).trim().min(1, 'address_required').pipe(Address),
  amount: amountOf('USDT'),
  /** Chosen by the client once per confirmation: a double tap moves money once. */
  idempotencyKey: IdempotencyKey,
  /** The wallet's signature of this transfer (see outflow.ts): always required. */
  ...OutflowSignatureFields,
})
export type TransferParams = z.input<typeof TransferParams>

export interface TransferResult {
  transferId: string
  amount: string
  fee: string
  to: string
  /** True when this key had already moved the money: nothing moved again. */
  replayed: boolean
}

/** `userAccount/checkAddress`: where an address stands for a transfer, read before any money moves. */
export const CheckAddressParams = z.object({
  address: z.string({ error: 'address_required' }).trim().min(1, 'address_required').pipe(Address),
})
export type CheckAddressParams = z.input<typeof CheckAddressParams>

/**
 * What the sender may do with an address: a transfer needs `registered && inDownline`.
 * @example { registered: true, self: false, inDownline: true }
 */
export interface AddressCheck {
  registered: boolean
  /** The sender's own address (never in the own downline). */
  self: boolean
  inDownline: boolean
}

/** `userAccount/collect`: move a node or shareholder balance into the own USDT account (log 9). */
export const CollectParams = z.object({
  account: z.enum(['node', 'shareholder'], { error: 'invalid_params' }),
  amount: amountOf('USDT'),
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
})
export type CollectParams = z.input<typeof CollectParams>

export interface CollectResult {
  transferId: string
  account: 'node' | 'shareholder'
  amount: string
  replayed: boolean
}

/** Where and how to recharge: the platform's deposit address for the configured token. */
export interface DepositAddress {
  chainId: number
  depositAddress: string
  tokenAddress: string
  tokenDecimals: number
  /**
   * The official proof-of-liabilities registry (settings); empty until operators set one. The
   * verifier is pinned to it and to `tokenAddress`, never to what a proof file names.
   */
  porRegistryAddress: string
  confirmations: number
  /** Explorer link for a transaction, `{hash}` to be replaced; empty when there is none. */
  explorerTxUrl: string
  /**
   * How a wallet that lacks the chain adds it (`wallet_addEthereumChain`, EIP-3085), from
   * settings; null when operators have named no public RPC URL for it.
   */
  chain: ChainDescription | null
}

export interface ChainDescription {
  name: string
  rpcUrls: string[]
  nativeCurrency: { name: string; symbol: string; decimals: number }
  blockExplorerUrls: string[]
}
