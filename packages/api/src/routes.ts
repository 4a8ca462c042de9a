import type { z } from 'zod'
import {
  BalanceDetailParams,
  CheckAddressParams,
  CollectParams,
  TransferParams,
  type AddressCheck,
  type CollectResult,
  type AccountLogPage,
  type BalanceList,
  type DepositAddress,
  type EnabledCoin,
  type TransferResult,
} from './accounts.ts'
import type { AccountFigures } from './account-figures.ts'
import type { Page } from './common.ts'
import { MyRechargesParams, RechargeParams, type Recharge } from './recharge.ts'
import {
  CheckWithdrawAddressParams,
  MyWithdrawalsParams,
  ReviewWithdrawalParams,
  WithdrawParams,
  WithdrawalIdParams,
  type Withdrawal,
  type WithdrawAddressCheck,
} from './withdraw.ts'
import {
  BalanceAdjustParams,
  FlagRobotParams,
  GrantShareholderParams,
  type MemberFlags,
  type BalanceAdjustResult,
  type OperatorRole,
  type OperatorSession,
} from './operator.ts'
import {
  AdminAuditParams,
  AdminBulkReviewParams,
  AdminDepositsParams,
  AdminLoginParams,
  AdminResolveAlarmParams,
  AdminSettingHistoryParams,
  AdminSettlementRunsParams,
  AdminUpdateSettingParams,
  AdminUserTreeParams,
  AdminUsersParams,
  AdminWithdrawalsParams,
  type AdminAuditEntry,
  type AdminBulkReviewResult,
  type AdminDashboard,
  type AdminDeposit,
  type AdminLedgerCheck,
  type AdminMe,
  type AdminResolvedAlarm,
  type AdminSetting,
  type AdminSettingChange,
  type AdminSignInsByDay,
  type AdminUser,
  type AdminUserTree,
  type AdminWithdrawal,
} from './admin.ts'
import {
  AdminNewsListParams,
  NewsInfoParams,
  NewsParams,
  SaveNewsParams,
  type AdminNews,
  type NewsItem,
} from './news.ts'
import {
  AdminSchoolListParams,
  ContentIdParams,
  DeleteTranslationParams,
  SaveBannerParams,
  SaveSchoolParams,
  SchoolInfoParams,
  SchoolParams,
  type AdminBanner,
  type AdminSchoolItem,
  type BannerItem,
  type SchoolItem,
  type UploadedImage,
} from './content.ts'
import {
  AdminChatHistoryParams,
  AdminChatListParams,
  AdminChatReadParams,
  AdminChatReplyParams,
  ChatHistoryParams,
  ChatReadParams,
  ChatSendParams,
  type AdminChatList,
  type AdminChatMessage,
  type ChatHistory,
  type ChatSendResult,
  type ChatUnread,
  type ContactInfo,
} from './chat.ts'
import {
  PriceHistoryParams,
  SetEthPriceParams,
  type EthPriceChange,
  type PriceHistory,
} from './quotes.ts'
import { NoticesParams, type NoticePage, type NoticesRead } from './notice.ts'
import { OutflowTypedDataParams, type OutflowTypedData } from './outflow.ts'
import { RankingParams, type Ranking } from './ranking.ts'
import {
  AdminPorSnapshotsParams,
  PorMyProofParams,
  PorMyStatementParams,
  type AdminPorPublishResult,
  type AdminPorSnapshot,
  type PorLatest,
  type PorProof,
  type PorStatement,
} from './por.ts'
import {
  ActivateParams,
  BuyNodeParams,
  UpgradeParams,
  type PurchaseResult,
  type VipInfo,
} from './membership.ts'
import { RedeemParams, type PledgeItem, type RedeemResult } from './redemption.ts'
import {
  SettlementDayParams,
  SettlementRunParams,
  type SettlementRun,
  type SettlementRuns,
} from './settlement.ts'
import {
  StakeListParams,
  StakeParams,
  type GameInfo,
  type StakePosition,
  type StakeResult,
} from './staking.ts'
import { DirectMembersParams, type DirectMember, type Earnings, type TeamStats } from './team.ts'
import {
  EmptyParams,
  InvitationCodeParams,
  LoginMessageParams,
  LoginParams,
  RegisterParams,
  UserNameParams,
  type LoginMessage,
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
  /** Content types of a raw request body the route reads (only `admin/upload`). */
  body?: readonly string[]
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
  'user/lookup': route<typeof UserNameParams, PublicUser | null>({
    params: UserNameParams,
    auth: false,
    summary:
      "The public profile of a username, or null when no one registered it: the app's own registered check, answered 200 either way",
  }),
  'user/checkInvitationCode': route<typeof InvitationCodeParams, null>({
    params: InvitationCodeParams,
    auth: false,
    summary:
      'Checks an invitation code before the wallet signs a registration: 400 invitation_code_unknown when no member gave it out',
  }),
  'user/register': route<typeof RegisterParams, LoginResult>({
    params: RegisterParams,
    auth: false,
    summary: 'Register a wallet address under an inviter (pusername or invitation code)',
  }),
  'user/loginMessage': route<typeof LoginMessageParams, LoginMessage>({
    params: LoginMessageParams,
    auth: false,
    summary:
      'A Sign-In with Ethereum (EIP-4361) message for this site and address, with a single-use nonce, to sign for user/logining or user/register',
  }),
  'user/logining': route<typeof LoginParams, LoginResult>({
    params: LoginParams,
    auth: false,
    summary:
      'Log in with a signed Sign-In with Ethereum message from user/loginMessage (or, while legacyLoginMessage is on, "HOPE Login<ms>")',
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
  'userAccount/balance': route<typeof EmptyParams, BalanceList>({
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
  'userAccount/notices': route<typeof NoticesParams, NoticePage>({
    params: NoticesParams,
    auth: true,
    summary:
      'Security notices, newest first: new device sign-ins, new withdrawal addresses, withdrawals requested and paid, limits reached; with the unread count',
  }),
  'userAccount/readNotices': route<typeof EmptyParams, NoticesRead>({
    params: EmptyParams,
    auth: true,
    summary: 'Marks every security notice of the user read',
  }),
  'userAccount/outflowTypedData': route<typeof OutflowTypedDataParams, OutflowTypedData>({
    params: OutflowTypedDataParams,
    auth: true,
    summary:
      'EIP-712 typed data of a withdrawal, transfer or activation of another member (its price written by the server) for the wallet to sign (eth_signTypedData_v4); valid 10 minutes',
  }),
  'userAccount/checkAddress': route<typeof CheckAddressParams, AddressCheck>({
    params: CheckAddressParams,
    auth: true,
    summary: 'Whether an address is registered, the caller’s own, or in the caller’s downline',
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
  'userAccount/figures': route<typeof EmptyParams, AccountFigures>({
    params: EmptyParams,
    auth: true,
    summary:
      'Rate of return of the consensus positions, trading volume and total volume of the USDT account, as of when',
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
  'userAccount/checkWithdrawAddress': route<
    typeof CheckWithdrawAddressParams,
    WithdrawAddressCheck
  >({
    params: CheckWithdrawAddressParams,
    auth: true,
    summary:
      'Whether a withdrawal destination is refused (the zero address, a platform address) or holds contract code',
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
  'main/getETHPrice': route<typeof EmptyParams, string>({
    params: EmptyParams,
    auth: false,
    summary: 'ETH price in USD: the configured price feed, or the price operators set',
  }),
  'main/priceHistory': route<typeof PriceHistoryParams, PriceHistory>({
    params: PriceHistoryParams,
    auth: false,
    summary: 'ETH or HOPE: current price, change over 24 hours and the chart of 24h, 7d or 30d',
  }),
  'main/ranking': route<typeof RankingParams, Ranking>({
    params: RankingParams,
    auth: true,
    summary: 'The day’s top inviters or team performance, addresses masked, my place marked',
  }),
  'game/info': route<typeof EmptyParams, GameInfo>({
    params: EmptyParams,
    auth: true,
    summary: 'Sale stage, HOPE price, the rules of consensus entry and redemption, my summary',
  }),
  'game/change': route<typeof StakeParams, StakeResult>({
    params: StakeParams,
    auth: true,
    summary:
      'Consensus entry: pay USDT, buy HOPE at the stage price (split across stages) into a position',
  }),
  'game/myStake': route<typeof StakeListParams, Page<StakePosition>>({
    params: StakeListParams,
    auth: true,
    summary: 'My consensus positions, newest first',
  }),
  'game/sqChange': route<typeof RedeemParams, RedeemResult>({
    params: RedeemParams,
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
  'game/groupZt': route<typeof DirectMembersParams, Page<DirectMember>>({
    params: DirectMembersParams,
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
    summary:
      'Activate a downline member: pay their membership level, optionally place them; signed by the wallet (an outflow)',
  }),
  'main/news': route<typeof NewsParams, Page<NewsItem>>({
    params: NewsParams,
    auth: false,
    summary: 'Published news of a type (or all), newest first, in the `lan` language or Chinese',
  }),
  'main/newInfo': route<typeof NewsInfoParams, NewsItem>({
    params: NewsInfoParams,
    auth: false,
    summary: 'One published article in the `lan` language or Chinese; 404 not_found otherwise',
  }),
  'main/bannnerInfo': route<typeof EmptyParams, BannerItem[]>({
    params: EmptyParams,
    auth: false,
    summary: 'Published home banners in display order, each in the `lan` language or Chinese',
  }),
  'main/school': route<typeof SchoolParams, Page<SchoolItem>>({
    params: SchoolParams,
    auth: false,
    summary: 'Published business school articles and videos, newest first, `lan` or Chinese',
  }),
  'main/schoolInfo': route<typeof SchoolInfoParams, SchoolItem>({
    params: SchoolInfoParams,
    auth: false,
    summary: 'One published business school item; 404 not_found otherwise',
  }),
  'main/contact': route<typeof EmptyParams, ContactInfo>({
    params: EmptyParams,
    auth: false,
    summary: 'Support e-mail and opening hours (settings), for the contact screen',
  }),
  'chat/history': route<typeof ChatHistoryParams, ChatHistory>({
    params: ChatHistoryParams,
    auth: true,
    summary: 'My support conversation, newest first, keyset-paged by message id (beforeId)',
  }),
  'chat/send': route<typeof ChatSendParams, ChatSendResult>({
    params: ChatSendParams,
    auth: true,
    summary:
      'Send a support message when the chat socket is down; a repeated clientId is stored once',
  }),
  'chat/read': route<typeof ChatReadParams, ChatUnread>({
    params: ChatReadParams,
    auth: true,
    summary: 'Mark the conversation read up to a message id; answers the unread count left',
  }),
  'chat/unread': route<typeof EmptyParams, ChatUnread>({
    params: EmptyParams,
    auth: true,
    summary: 'Support messages not yet read',
  }),
  'admin/chatList': route<typeof AdminChatListParams, AdminChatList>({
    params: AdminChatListParams,
    auth: 'operator',
    roles: ['admin', 'support'],
    summary: 'Support conversations, latest first, with the last message and the unread count',
  }),
  'admin/chatHistory': route<typeof AdminChatHistoryParams, ChatHistory<AdminChatMessage>>({
    params: AdminChatHistoryParams,
    auth: 'operator',
    roles: ['admin', 'support'],
    summary: 'One user’s support conversation, newest first, keyset-paged by message id',
  }),
  'admin/chatReply': route<typeof AdminChatReplyParams, ChatSendResult<AdminChatMessage>>({
    params: AdminChatReplyParams,
    auth: 'operator',
    roles: ['admin', 'support'],
    summary: 'Answer a user in the support chat (live on their socket); audited',
  }),
  'admin/chatRead': route<typeof AdminChatReadParams, ChatUnread>({
    params: AdminChatReadParams,
    auth: 'operator',
    roles: ['admin', 'support'],
    summary: 'Mark a user’s conversation read by operators up to a message id',
  }),
  'admin/banners': route<typeof EmptyParams, AdminBanner[]>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Every banner with all its language versions, published or not',
  }),
  'admin/saveBanner': route<typeof SaveBannerParams, AdminBanner>({
    params: SaveBannerParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Create a banner (Chinese title + image) or change one; texts in `lang`; audited',
  }),
  'admin/deleteBanner': route<typeof ContentIdParams, AdminBanner>({
    params: ContentIdParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Delete a banner with all its language versions; audited',
  }),
  'admin/newsList': route<typeof AdminNewsListParams, Page<AdminNews>>({
    params: AdminNewsListParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Every article with all its language versions, published or not, newest first',
  }),
  'admin/saveNews': route<typeof SaveNewsParams, AdminNews>({
    params: SaveNewsParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Create an article (Chinese version first) or change one; texts in `lang`; audited',
  }),
  'admin/deleteNews': route<typeof ContentIdParams, AdminNews>({
    params: ContentIdParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Delete an article with all its language versions; audited',
  }),
  'admin/schoolList': route<typeof AdminSchoolListParams, Page<AdminSchoolItem>>({
    params: AdminSchoolListParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Every business school item with all its language versions, newest first',
  }),
  'admin/saveSchool': route<typeof SaveSchoolParams, AdminSchoolItem>({
    params: SaveSchoolParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Create a business school article or video, or change one; texts in `lang`; audited',
  }),
  'admin/deleteSchool': route<typeof ContentIdParams, AdminSchoolItem>({
    params: ContentIdParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Delete a business school item with all its language versions; audited',
  }),
  'admin/deleteTranslation': route<typeof DeleteTranslationParams, null>({
    params: DeleteTranslationParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    summary: 'Remove one non-Chinese language version of a banner, article or school item; audited',
  }),
  'admin/upload': route<typeof EmptyParams, UploadedImage>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin', 'content'],
    body: ['image/png', 'image/jpeg', 'image/webp'],
    summary:
      'Store an image sent as the raw body (PNG, JPEG or WebP, at most 2 MB) by its hash, with 375w and 750w copies; audited',
  }),
  'admin/login': route<typeof AdminLoginParams, OperatorSession>({
    params: AdminLoginParams,
    auth: false,
    summary:
      'Operator sign-in: username, password and the authenticator’s 6-digit code (each code works once)',
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
  'admin/setEthPrice': route<typeof SetEthPriceParams, EthPriceChange>({
    params: SetEthPriceParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Set the ETH price in USD (kept in the price history); audited',
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
  'admin/me': route<typeof EmptyParams, AdminMe>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin', 'finance', 'content', 'support'],
    summary: 'The signed-in operator and their role',
  }),
  'admin/logout': route<typeof EmptyParams, null>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin', 'finance', 'content', 'support'],
    summary: 'Revoke the current operator session token',
  }),
  'admin/dashboard': route<typeof EmptyParams, AdminDashboard>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin', 'finance', 'content', 'support'],
    summary: 'Users, deposits, withdrawals, the last settlement and the latest ledger check',
  }),
  'admin/signInsByDay': route<typeof EmptyParams, AdminSignInsByDay>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin', 'finance', 'content', 'support'],
    summary:
      'Sign-ins per day of the last 30 days by message (EIP-4361 or the legacy HOPE Login<ms>), with the legacy share',
  }),
  'admin/resolveAlarm': route<typeof AdminResolveAlarmParams, AdminResolvedAlarm>({
    params: AdminResolveAlarmParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary:
      'Close an open alarm with a reason (the chain scan’s stay open until then); audited; 409 already_resolved once closed',
  }),
  'admin/checkLedger': route<typeof EmptyParams, AdminLedgerCheck>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin'],
    summary: 'Run the ledger check (the `ledger:verify` invariants) now and keep its result',
  }),
  'admin/users': route<typeof AdminUsersParams, Page<AdminUser>>({
    params: AdminUsersParams,
    auth: 'operator',
    roles: ['admin', 'finance', 'support'],
    summary: 'Members by address prefix, nickname or referral code, newest first, with balances',
  }),
  'admin/userTree': route<typeof AdminUserTreeParams, AdminUserTree>({
    params: AdminUserTreeParams,
    auth: 'operator',
    roles: ['admin', 'finance', 'support'],
    summary: 'A member and the members they invited directly (one level of the tree)',
  }),
  'admin/withdrawals': route<typeof AdminWithdrawalsParams, Page<AdminWithdrawal>>({
    params: AdminWithdrawalsParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Withdrawals, newest first, by status and member or destination address',
  }),
  'admin/bulkReviewWithdraw': route<typeof AdminBulkReviewParams, AdminBulkReviewResult>({
    params: AdminBulkReviewParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Approve or reject up to 100 withdrawals; those not pending are skipped; audited',
  }),
  'admin/deposits': route<typeof AdminDepositsParams, Page<AdminDeposit>>({
    params: AdminDepositsParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Chain deposits seen by the watcher, newest first, by transaction hash or address',
  }),
  'admin/settings': route<typeof EmptyParams, AdminSetting[]>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin'],
    summary: 'Every setting with its value, default and last change',
  }),
  'admin/updateSetting': route<typeof AdminUpdateSettingParams, AdminSetting>({
    params: AdminUpdateSettingParams,
    auth: 'operator',
    roles: ['admin'],
    summary: 'Change a setting (checked against its rules), with a reason; recorded and audited',
  }),
  'admin/settingHistory': route<typeof AdminSettingHistoryParams, Page<AdminSettingChange>>({
    params: AdminSettingHistoryParams,
    auth: 'operator',
    roles: ['admin'],
    summary: 'The changes of one setting, newest first',
  }),
  'admin/settlementRuns': route<typeof AdminSettlementRunsParams, SettlementRuns>({
    params: AdminSettlementRunsParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Daily settlement runs, newest first',
  }),
  'por/latest': route<typeof EmptyParams, PorLatest>({
    params: EmptyParams,
    auth: false,
    summary:
      'The newest published proof-of-liabilities snapshot: root, totals, block, registry, reserves',
  }),
  'por/myProof': route<typeof PorMyProofParams, PorProof | null>({
    params: PorMyProofParams,
    auth: true,
    summary:
      'My proof file for the newest snapshot, or a past one (snapshotId) within retention; null when I am not in a published one yet',
  }),
  'por/myStatement': route<typeof PorMyStatementParams, PorStatement | null>({
    params: PorMyStatementParams,
    auth: true,
    summary:
      'My balances as my account log showed them at the snapshot’s cut (its ledger position, or the one given: the cut the registry anchored on chain), to compare with my proof; null before a snapshot with a cut is published',
  }),
  'admin/porSnapshots': route<typeof AdminPorSnapshotsParams, Page<AdminPorSnapshot>>({
    params: AdminPorSnapshotsParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Proof-of-liabilities snapshots, newest first, with reserves and coverage',
  }),
  'admin/porPublish': route<typeof EmptyParams, AdminPorPublishResult>({
    params: EmptyParams,
    auth: 'operator',
    roles: ['admin', 'finance'],
    summary: 'Take and publish a proof-of-liabilities snapshot now (on the job’s next tick)',
  }),
  'admin/audit': route<typeof AdminAuditParams, Page<AdminAuditEntry>>({
    params: AdminAuditParams,
    auth: 'operator',
    roles: ['admin'],
    summary: 'What operators did, newest first, optionally of one action',
  }),
} as const

export type RoutePath = keyof typeof ROUTES
export type RouteParams<P extends RoutePath> = z.input<(typeof ROUTES)[P]['params']>
export type RouteData<P extends RoutePath> = Exclude<(typeof ROUTES)[P]['data'], undefined>
