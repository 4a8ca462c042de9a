import type { z } from 'zod'
import {
  BalanceDetailParams,
  TransferParams,
  type AccountLogPage,
  type BalanceResult,
  type DepositAddress,
  type EnabledCoin,
  type TransferResult,
} from './accounts.ts'
import type { Page } from './common.ts'
import { MyRechargesParams, RechargeParams, type Recharge } from './recharge.ts'
import {
  MyWithdrawalsParams,
  ReviewWithdrawalParams,
  WithdrawParams,
  WithdrawalIdParams,
  type Withdrawal,
} from './withdraw.ts'
import {
  BalanceAdjustParams,
  OperatorLoginParams,
  type BalanceAdjustResult,
  type OperatorRole,
  type OperatorSession,
} from './operator.ts'
import { NewsParams, type NewsItem } from './news.ts'
import {
  EmptyParams,
  LoginParams,
  RegisterParams,
  UserNameParams,
  type LoginResult,
  type PublicUser,
  type UserInfo,
} from './user.ts'

interface RouteDef<P extends z.ZodType, D> {
  params: P
  /** true: a user's `token` header; 'operator': an operator's, with one of `roles`. */
  auth: boolean | 'operator'
  roles?: readonly OperatorRole[]
  summary: string
  /** Type carrier for the response data; never read at run time. */
  data?: D
}

const route = <P extends z.ZodType, D>(def: Omit<RouteDef<P, D>, 'data'>): RouteDef<P, D> => def

/**
 * Every endpoint: `POST /api/<path>` with the params in the query string. The server registers
 * exactly these, the web client is typed by them, and `/api/docs` is generated from them.
 */
export const ROUTES = {
  'user/getUserInfoByName': route<typeof UserNameParams, PublicUser>({
    params: UserNameParams,
    auth: false,
    summary: 'Registered check: the public profile of a username, 404 not_registered otherwise',
  }),
  'user/register': route<typeof RegisterParams, LoginResult>({
    params: RegisterParams,
    auth: false,
    summary: 'Register a wallet address under an inviter (pusername or invitation code)',
  }),
  'user/logining': route<typeof LoginParams, LoginResult>({
    params: LoginParams,
    auth: false,
    summary: 'Log in with a signed "HOPE Login<ms>" message',
  }),
  'user/getUserInfo': route<typeof EmptyParams, UserInfo>({
    params: EmptyParams,
    auth: true,
    summary: 'The signed-in user',
  }),
  'user/logout': route<typeof EmptyParams, null>({
    params: EmptyParams,
    auth: true,
    summary: 'Revoke the current session token',
  }),
  'userAccount/balance': route<typeof EmptyParams, BalanceResult>({
    params: EmptyParams,
    auth: true,
    summary: 'The five accounts: balance, available, pending and value in USDT',
  }),
  'userAccount/balanceDetail': route<typeof BalanceDetailParams, AccountLogPage>({
    params: BalanceDetailParams,
    auth: true,
    summary: 'Account log, newest first, keyset-paged (cursor), filter by account and log type',
  }),
  'userAccount/enableCoins': route<typeof EmptyParams, EnabledCoin[]>({
    params: EmptyParams,
    auth: true,
    summary: 'Currencies, the accounts holding them, decimals, transfer minimum and fee',
  }),
  'userAccount/transfer': route<typeof TransferParams, TransferResult>({
    params: TransferParams,
    auth: true,
    summary: 'USDT to an address in the sender’s own downline (log type 9); idempotent per key',
  }),
  'userAccount/getAddress': route<typeof EmptyParams, DepositAddress>({
    params: EmptyParams,
    auth: true,
    summary: 'The deposit address and token of the configured chain, for a recharge',
  }),
  'userAccount/recharge': route<typeof RechargeParams, Recharge>({
    params: RechargeParams,
    auth: true,
    summary: 'Record the hash of a USDT transfer the wallet sent to the deposit address',
  }),
  'userAccount/myRecharge': route<typeof MyRechargesParams, Page<Recharge>>({
    params: MyRechargesParams,
    auth: true,
    summary: 'The user’s recharges, app-initiated or plain wallet transfers, newest first',
  }),
  'userAccount/withdraw': route<typeof WithdrawParams, Withdrawal>({
    params: WithdrawParams,
    auth: true,
    summary: 'Request a USDT withdrawal: amount + fee are reserved at once; idempotent per key',
  }),
  'userAccount/myWithDraw': route<typeof MyWithdrawalsParams, Page<Withdrawal>>({
    params: MyWithdrawalsParams,
    auth: true,
    summary: 'The user’s withdrawals, newest first',
  }),
  'userAccount/cancelWithdraw': route<typeof WithdrawalIdParams, Withdrawal>({
    params: WithdrawalIdParams,
    auth: true,
    summary: 'Cancel a withdrawal still pending review; the reserved money returns',
  }),
  'main/getETLDPrice': route<typeof EmptyParams, string>({
    params: EmptyParams,
    auth: false,
    summary: 'Real-time HOPE price in USDT (the current sale stage price)',
  }),
  'main/news': route<typeof NewsParams, Page<NewsItem>>({
    params: NewsParams,
    auth: false,
    summary: 'Published news, newest first',
  }),
  'admin/login': route<typeof OperatorLoginParams, OperatorSession>({
    params: OperatorLoginParams,
    auth: false,
    summary: 'Operator sign-in with username and password',
  }),
  'admin/credit': route<typeof BalanceAdjustParams, BalanceAdjustResult>({
    params: BalanceAdjustParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Backend recharge (log 5) of a user account from the treasury, with a reason; audited',
  }),
  'admin/debit': route<typeof BalanceAdjustParams, BalanceAdjustResult>({
    params: BalanceAdjustParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Backend debit (log 6) of a user account to the treasury, with a reason; audited',
  }),
  'admin/reviewWithdraw': route<typeof ReviewWithdrawalParams, Withdrawal>({
    params: ReviewWithdrawalParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Approve (the hot wallet pays out) or reject (refund) a withdrawal pending review',
  }),
} as const

export type RoutePath = keyof typeof ROUTES
export type RouteParams<P extends RoutePath> = z.input<(typeof ROUTES)[P]['params']>
export type RouteData<P extends RoutePath> = Exclude<(typeof ROUTES)[P]['data'], undefined>
