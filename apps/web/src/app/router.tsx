import { lazy, type ComponentType, type ReactNode } from 'react'
import { HashRouter, Navigate, useRoutes, type RouteObject } from 'react-router'
import { HomePage } from '../features/home/index.ts'
import { BlankScreen } from '../features/screen/index.ts'
import { loadNamespace, type LazyNamespace } from '../lib/i18n.ts'
import { ScreenFrame } from './layout/screen-frame.tsx'
import { RootGuard } from './root-guard.tsx'
import type { ScreenHandle, TitleKey } from './screen-handle.ts'

/**
 * A screen loaded on first visit, together with the query cache around it (see QueryScope)
 * and the texts it needs beyond the first bundle's: lazy screens are the ones that fetch.
 */
function lazyScreen(load: () => Promise<ComponentType>, texts: LazyNamespace[] = []) {
  return lazy(async () => {
    const [Screen, { QueryScope }] = await Promise.all([
      load(),
      import('../lib/query-scope.tsx'),
      ...texts.map(loadNamespace),
    ])
    return {
      default: () => (
        <QueryScope>
          <Screen />
        </QueryScope>
      ),
    }
  })
}

const InvitePage = lazyScreen(async () => (await import('../features/invite/index.ts')).InvitePage)
const AccountPage = lazyScreen(
  async () => (await import('../features/account/index.ts')).AccountPage,
)
const news = () => import('../features/news/index.ts')
const school = () => import('../features/school/index.ts')
const NewsPage = lazyScreen(async () => (await news()).NewsPage, ['content'])
const NewsDetailPage = lazyScreen(async () => (await news()).NewsDetailPage, ['content'])
const SchoolPage = lazyScreen(async () => (await school()).SchoolPage, ['content'])
const SchoolDetailPage = lazyScreen(async () => (await school()).SchoolDetailPage, ['content'])
const AssetsPage = lazyScreen(
  async () => (await import('../features/assets/index.ts')).AssetsPage,
  ['money'],
)
const AccountLogPage = lazyScreen(
  async () => (await import('../features/account-log/index.ts')).AccountLogPage,
  ['money'],
)
const TransferPage = lazyScreen(
  async () => (await import('../features/transfer/index.ts')).TransferPage,
  ['money'],
)
/** One chunk per feature: its screens load together, through one import. */
const recharge = () => import('../features/recharge/index.ts')
const withdraw = () => import('../features/withdraw/index.ts')
const stake = () => import('../features/stake/index.ts')
const team = () => import('../features/team/index.ts')
const vip = () => import('../features/vip/index.ts')
const holder = () => import('../features/holder/index.ts')
const chat = () => import('../features/chat/index.ts')
const RechargePage = lazyScreen(async () => (await recharge()).RechargePage, ['chain'])
const RechargeRecordPage = lazyScreen(async () => (await recharge()).RechargeRecordPage, ['chain'])
const WithdrawPage = lazyScreen(async () => (await withdraw()).WithdrawPage, ['chain'])
const WithdrawRecordPage = lazyScreen(async () => (await withdraw()).WithdrawRecordPage, ['chain'])
const StakePage = lazyScreen(async () => (await stake()).StakePage, ['game'])
const ExchangePage = lazyScreen(async () => (await stake()).ExchangePage, ['game'])
const PledgeRecordPage = lazyScreen(async () => (await stake()).PledgeRecordPage, ['game'])
const CommunityPage = lazyScreen(async () => (await team()).CommunityPage, ['team', 'money'])
const TeamPage = lazyScreen(async () => (await team()).TeamPage, ['team'])
const VipPage = lazyScreen(async () => (await vip()).VipPage, ['vip'])
const SplitPage = lazyScreen(async () => (await vip()).SplitPage, ['vip', 'money'])
const HolderPage = lazyScreen(async () => (await holder()).HolderPage, ['holder'])
const ActivePage = lazyScreen(async () => (await holder()).ActivePage, ['holder'])
const QuotesPage = lazyScreen(
  async () => (await import('../features/quotes/index.ts')).QuotesPage,
  ['quotes'],
)
const RankingPage = lazyScreen(
  async () => (await import('../features/ranking/index.ts')).RankingPage,
  ['ranking'],
)
const ChatPage = lazyScreen(async () => (await chat()).ChatPage, ['chat'])
const ContactPage = lazyScreen(async () => (await chat()).ContactPage, ['chat'])
const LoginAccountPage = lazyScreen(
  async () => (await import('../features/login-account/index.ts')).LoginAccountPage,
  ['login'],
)
const SharePage = lazyScreen(
  async () => (await import('../features/share/index.ts')).SharePage,
  ['share'],
)

const screen = (path: string, handle: ScreenHandle, body: ReactNode): RouteObject => ({
  path,
  element: <ScreenFrame {...handle}>{body}</ScreenFrame>,
})

/** A screen with its title in the back bar, at the path of its name; empty while not built. */
const backScreen = (name: TitleKey, body: ReactNode = <BlankScreen name={name} />) =>
  screen(`/${name}`, { title: name, bar: 'back' }, body)

/** Every screen sits under the root guard (spec §2); any other path goes to `/`. */
export const routes: RouteObject[] = [
  {
    element: <RootGuard />,
    children: [
      screen('/', { bar: 'none', tabs: true }, <HomePage />),
      screen('/assets', { title: 'assets', bar: 'header', tabs: true }, <AssetsPage />),
      screen('/stake', { title: 'stake', bar: 'header', tabs: true }, <StakePage />),
      screen('/community', { title: 'community', bar: 'header', tabs: true }, <CommunityPage />),
      screen('/invite', { bar: 'none' }, <InvitePage />),
      screen('/account', { title: 'account', bar: 'back' }, <AccountPage />),
      screen('/news', { title: 'news', bar: 'back' }, <NewsPage />),
      screen('/news/:id', { title: 'newsDetail', bar: 'back' }, <NewsDetailPage />),
      screen('/school', { title: 'school', bar: 'back' }, <SchoolPage />),
      screen('/school/:id', { title: 'schoolDetail', bar: 'back' }, <SchoolDetailPage />),
      screen('/transfer', { title: 'transfer', bar: 'back' }, <TransferPage />),
      screen('/accountLog', { title: 'accountLog', bar: 'back' }, <AccountLogPage />),
      backScreen('recharge', <RechargePage />),
      backScreen('rechargeRecord', <RechargeRecordPage />),
      backScreen('withdraw', <WithdrawPage />),
      backScreen('withdrawRecord', <WithdrawRecordPage />),
      backScreen('exchange', <ExchangePage />),
      backScreen('pledgeRecord', <PledgeRecordPage />),
      backScreen('vip', <VipPage />),
      backScreen('split', <SplitPage />),
      backScreen('team', <TeamPage />),
      backScreen('holder', <HolderPage />),
      backScreen('active', <ActivePage />),
      backScreen('quotes', <QuotesPage />),
      backScreen('ranking', <RankingPage />),
      backScreen('chat', <ChatPage />),
      backScreen('contact', <ContactPage />),
      backScreen('swap', <ExchangePage />),
      backScreen('share', <SharePage />),
      backScreen('loginAccount', <LoginAccountPage />),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]

export function AppRoutes() {
  return useRoutes(routes)
}

/** Hash routes (spec §2: locations are carried in the URL fragment). */
export function AppRouter() {
  return (
    <HashRouter>
      <AppRoutes />
    </HashRouter>
  )
}
