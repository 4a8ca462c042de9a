import type { z } from 'zod'
import {
  BalanceDetailParams,
  CollectParams,
  TransferParams,
  type CollectResult,
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
  FlagRobotParams,
  GrantShareholderParams,
  type MemberFlags,
  OperatorLoginParams,
  type BalanceAdjustResult,
  type OperatorRole,
  type OperatorSession,
} from './operator.ts'
import { NewsParams, type NewsItem } from './news.ts'
import {
  ActivateParams,
  BuyNodeParams,
  ChangeParams,
  GroupZtParams,
  UpgradeParams,
  type DirectMember,
  type Earnings,
  type PurchaseResult,
  type TeamStats,
  type VipInfo,
  SettlementDayParams,
  SettlementRunParams,
  SqChangeParams,
  StakeListParams,
  type ChangeResult,
  type GameInfo,
  type PledgeItem,
  type SettlementRun,
  type SqChangeResult,
  type StakePosition,
} from './game.ts'
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
  'userAccount/collect': route<typeof CollectParams, CollectResult>({
    params: CollectParams,
    auth: true,
    summary:
      'A node or shareholder balance into the own USDT account (log type 9); idempotent per key',
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
  'game/info': route<typeof EmptyParams, GameInfo>({
    params: EmptyParams,
    auth: true,
    summary: 'Sale stage, HOPE price, the rules of consensus entry and redemption, my summary',
  }),
  'game/change': route<typeof ChangeParams, ChangeResult>({
    params: ChangeParams,
    auth: true,
    summary:
      'Consensus entry: pay USDT, buy HOPE at the stage price (split across stages) into a position',
  }),
  'game/myStake': route<typeof StakeListParams, Page<StakePosition>>({
    params: StakeListParams,
    auth: true,
    summary: 'My consensus positions, newest first',
  }),
  'game/sqChange': route<typeof SqChangeParams, SqChangeResult>({
    params: SqChangeParams,
    auth: true,
    summary:
      'Redeem community HOPE: 80% into USDT at the redemption price less the fee, 20% pledged',
  }),
  'game/stakeList': route<typeof StakeListParams, Page<PledgeItem>>({
    params: StakeListParams,
    auth: true,
    summary: 'My pledge items (the pledged part of redemptions), newest first',
  }),
  'game/groupTj': route<typeof EmptyParams, TeamStats>({
    params: EmptyParams,
    auth: true,
    summary: 'My team: people and consensus / community performance by partition, and my rank',
  }),
  'game/groupZt': route<typeof GroupZtParams, Page<DirectMember>>({
    params: GroupZtParams,
    auth: true,
    summary: 'The members I invited directly, newest first',
  }),
  'game/earnings': route<typeof EmptyParams, Earnings>({
    params: EmptyParams,
    auth: true,
    summary: 'Rewards received by log type, in all and on the current settlement day',
  }),
  'game/vipInfo': route<typeof EmptyParams, VipInfo>({
    params: EmptyParams,
    auth: true,
    summary: 'My membership level, nodes and split HOPE, with level and node prices',
  }),
  'game/upgrade': route<typeof UpgradeParams, PurchaseResult>({
    params: UpgradeParams,
    auth: true,
    summary: 'Buy a higher membership level: pay the difference, buy HOPE into the split account',
  }),
  'game/buyNode': route<typeof BuyNodeParams, PurchaseResult>({
    params: BuyNodeParams,
    auth: true,
    summary: 'Activate a node (shareholder, guarding, director) for its price in USDT',
  }),
  'game/activate': route<typeof ActivateParams, PurchaseResult>({
    params: ActivateParams,
    auth: true,
    summary: 'Activate a downline member: pay their membership level, optionally place them',
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
  'admin/grantShareholder': route<typeof GrantShareholderParams, MemberFlags>({
    params: GrantShareholderParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Grant a shareholder tier (node type 1..3) after the e-mail application; audited',
  }),
  'admin/flagRobot': route<typeof FlagRobotParams, MemberFlags>({
    params: FlagRobotParams,
    auth: 'operator',
    roles: ['admin', 'support'],
    summary: 'Flag or unflag a robot account (robots earn no rewards); audited',
  }),
  'admin/settle': route<typeof SettlementDayParams, SettlementRun>({
    params: SettlementDayParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Run (or resume) the daily settlement of a day; nothing is paid twice',
  }),
  'admin/settlementRun': route<typeof SettlementRunParams, SettlementRun>({
    params: SettlementRunParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'A settlement run with its progress and totals',
  }),
} as const

export type RoutePath = keyof typeof ROUTES
export type RouteParams<P extends RoutePath> = z.input<(typeof ROUTES)[P]['params']>
export type RouteData<P extends RoutePath> = Exclude<(typeof ROUTES)[P]['data'], undefined>
