import { DEFAULT_LANG, normalizeLang } from '@hope/api'
import {
  isValidElement,
  lazy,
  useEffect,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react'
import {
  HashRouter,
  matchRoutes,
  Navigate,
  useLocation,
  useRoutes,
  type RouteObject,
} from 'react-router'
import { HomePage, prefetchHomeReads } from '../features/home/index.ts'
import { prefetchInviter } from '../features/invite/inviter.ts'
import { NoticeBell } from '../features/notices/notice-bell.tsx'
import { prefetchBalance } from '../lib/api/balance.ts'
import { BlankScreen } from '../features/screen/index.ts'
import { i18n, loadNamespace, type LazyNamespace } from '../lib/i18n/i18n.ts'
import { clearToastOnNavigation } from '../lib/ui/toast.ts'
import { ScreenFrame } from './layout/screen-frame.tsx'
import { RootGuard } from './root-guard.tsx'
import { useScrollRestoration } from './scroll-restoration.ts'
import { setStartScreen } from './start-screen.ts'
import type { Companion, ScreenHandle, TitleKey } from './screen-handle.ts'

/**
 * antd-mobile's texts in the app's language, loaded with the first lazy screen. Its built-in
 * texts are Chinese, the same as the app's: a Chinese screen does not wait for them.
 */
function loadAntdTexts(): Promise<void> | null {
  const loading = import('../lib/ui/antd-texts.ts').then((texts) => texts.loadAntdTexts())
  if (normalizeLang(i18n.language) !== DEFAULT_LANG) return loading
  loading.catch(() => undefined)
  return null
}

/** A screen whose code (or data) can start loading before it renders. */
type Preloadable = { preload?: () => Promise<unknown> }

/**
 * A screen loaded on first visit, together with the query cache around it (see QueryScope)
 * and the texts it needs beyond the first bundle's (antd-mobile's own among them): lazy screens
 * are the ones that fetch.
 * `preload` starts that loading early (see preloadScreen). A screen the app opens at that reads
 * only through first reads (lib/api/first-read.ts) says `firstReads`: it goes without the cache
 * and TanStack Query, one chunk less to wait for before it shows.
 */
function lazyScreen(
  load: () => Promise<ComponentType>,
  texts: LazyNamespace[] = [],
  { firstReads = false } = {},
) {
  let loading: Promise<{ default: ComponentType }> | undefined
  /** The screen once loaded: rendered as it is, without suspending (see `Screen`). */
  let ready: ComponentType | undefined
  const start = () =>
    (loading ??= Promise.all([
      load(),
      firstReads ? null : import('../lib/api/query-scope.tsx'),
      ...texts.map(loadNamespace),
      loadAntdTexts(),
    ]).then(([Loaded, scope]) => {
      ready = scope
        ? () => (
            <scope.QueryScope>
              <Loaded />
            </scope.QueryScope>
          )
        : Loaded
      return { default: ready }
    }))
  const LazyScreen = lazy(start)
  /**
   * Preloaded in time (the app opened at this screen), the screen shows in the same commit as
   * the frame around it: a `lazy` one suspends at least once, and React holds back what it
   * reveals after a fallback for ~300 ms. Chosen once per mount, so that the screen keeps its
   * state when the load finishes under it.
   */
  const Screen: ComponentType & Preloadable = () => {
    const [Loaded] = useState(() => ready ?? LazyScreen)
    return <Loaded />
  }
  Screen.preload = () => start().catch(() => undefined)
  return Screen
}

const InvitePage = lazyScreen(
  async () => (await import('../features/invite/index.ts')).InvitePage,
  ['invite'],
  { firstReads: true },
)
const AccountPage = lazyScreen(
  async () => (await import('../features/account/index.ts')).AccountPage,
)
/** The exchange's records: the pledges its redemptions made. */
const PLEDGES = '/pledgeRecord?tab=pledges'
const news = () => import('../features/news/index.ts')
const school = () => import('../features/school/index.ts')
const NewsPage = lazyScreen(async () => (await news()).NewsPage, ['content'])
const NewsDetailPage = lazyScreen(async () => (await news()).NewsDetailPage, ['content'])
const SchoolPage = lazyScreen(async () => (await school()).SchoolPage, ['content'])
const SchoolDetailPage = lazyScreen(async () => (await school()).SchoolDetailPage, ['content'])
const AssetsPage = lazyScreen(
  async () => (await import('../features/assets/index.ts')).AssetsPage,
  ['money'],
  { firstReads: true },
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
const RechargePage = lazyScreen(async () => (await recharge()).RechargePage, ['chain', 'money'])
const RechargeRecordPage = lazyScreen(async () => (await recharge()).RechargeRecordPage, ['chain'])
const WithdrawPage = lazyScreen(async () => (await withdraw()).WithdrawPage, ['chain', 'money'])
const WithdrawRecordPage = lazyScreen(async () => (await withdraw()).WithdrawRecordPage, ['chain'])
const StakePage = lazyScreen(async () => (await stake()).StakePage, ['game', 'money'])
const ExchangePage = lazyScreen(async () => (await stake()).ExchangePage, ['game', 'money'])
const PledgeRecordPage = lazyScreen(async () => (await stake()).PledgeRecordPage, ['game'])
const CommunityPage = lazyScreen(async () => (await team()).CommunityPage, ['team', 'money'])
const TeamPage = lazyScreen(async () => (await team()).TeamPage, ['team', 'invite'])
const VipPage = lazyScreen(async () => (await vip()).VipPage, ['vip', 'money'])
const SplitPage = lazyScreen(async () => (await vip()).SplitPage, ['vip', 'money'])
const HolderPage = lazyScreen(async () => (await holder()).HolderPage, ['holder', 'money'])
const ActivePage = lazyScreen(
  async () => (await holder()).ActivePage,
  ['holder', 'money', 'invite'],
)
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
const NoticesPage = lazyScreen(
  async () => (await import('../features/notices/index.ts')).NoticesPage,
  ['notices'],
)
/** Verify my balance: the proof verifier and viem load with this screen only. */
const VerifyPage = lazyScreen(
  async () => (await import('../features/por/index.ts')).VerifyPage,
  ['por'],
)

/** What each route path starts loading ahead of its first render; resolves when its code has. */
const preloads = new Map<string, () => unknown>()

function preloadOf(body: ReactNode): (() => unknown) | undefined {
  return isValidElement(body) ? (body.type as Preloadable).preload : undefined
}

const screen = (
  path: string,
  handle: ScreenHandle,
  body: ReactNode,
  preload = preloadOf(body),
): RouteObject => {
  if (preload) preloads.set(path, preload)
  return { path, element: <ScreenFrame {...handle}>{body}</ScreenFrame> }
}

/** A screen with its title in the back bar, at the path of its name; empty while not built. */
const backScreen = (
  name: TitleKey,
  body: ReactNode = <BlankScreen name={name} />,
  companion?: Companion,
) => screen(`/${name}`, { title: name, bar: 'back', companion }, body)

/** Every screen sits under the root guard (spec §2); any other path goes to `/`. */
export const routes: RouteObject[] = [
  {
    element: <RootGuard />,
    children: [
      screen(
        '/',
        { bar: 'none', tabs: true },
        <HomePage headerEnd={<NoticeBell />} />,
        prefetchHomeReads,
      ),
      screen('/assets', { title: 'assets', bar: 'header', tabs: true }, <AssetsPage />, () => {
        prefetchBalance()
        return AssetsPage.preload?.()
      }),
      screen(
        '/stake',
        {
          title: 'stake',
          bar: 'header',
          tabs: true,
          companion: { to: '/pledgeRecord', title: 'pledgeRecord' },
        },
        <StakePage />,
      ),
      screen('/community', { title: 'community', bar: 'header', tabs: true }, <CommunityPage />),
      screen('/invite', { bar: 'none' }, <InvitePage />, () => {
        prefetchInviter()
        return InvitePage.preload?.()
      }),
      screen('/account', { title: 'account', bar: 'back' }, <AccountPage />),
      screen('/news', { title: 'news', bar: 'back' }, <NewsPage />),
      screen('/news/:id', { title: 'newsDetail', bar: 'back' }, <NewsDetailPage />),
      screen('/school', { title: 'school', bar: 'back' }, <SchoolPage />),
      screen('/school/:id', { title: 'schoolDetail', bar: 'back' }, <SchoolDetailPage />),
      screen(
        '/transfer',
        {
          title: 'transfer',
          bar: 'back',
          companion: { to: '/accountLog?account=usdt', title: 'accountLog' },
        },
        <TransferPage />,
      ),
      screen('/accountLog', { title: 'accountLog', bar: 'back' }, <AccountLogPage />),
      backScreen('recharge', <RechargePage />, { to: '/rechargeRecord', title: 'rechargeRecord' }),
      backScreen('rechargeRecord', <RechargeRecordPage />),
      backScreen('withdraw', <WithdrawPage />, { to: '/withdrawRecord', title: 'withdrawRecord' }),
      backScreen('withdrawRecord', <WithdrawRecordPage />),
      backScreen('exchange', <ExchangePage />, { to: PLEDGES, title: 'pledgeRecord' }),
      backScreen('pledgeRecord', <PledgeRecordPage />),
      backScreen('vip', <VipPage />),
      backScreen('split', <SplitPage />, { to: '/accountLog?account=split', title: 'accountLog' }),
      backScreen('team', <TeamPage />),
      backScreen('holder', <HolderPage />),
      backScreen('active', <ActivePage />),
      backScreen('quotes', <QuotesPage />),
      backScreen('ranking', <RankingPage />),
      backScreen('chat', <ChatPage />),
      backScreen('contact', <ContactPage />),
      backScreen('swap', <ExchangePage />, { to: PLEDGES, title: 'pledgeRecord' }),
      backScreen('share', <SharePage />),
      backScreen('loginAccount', <LoginAccountPage />),
      backScreen('verify', <VerifyPage />),
      backScreen('notices', <NoticesPage />),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]

/**
 * Starts loading the screen at `pathname` (its chunk and texts, the reads it opens with) at
 * once, instead of after the guard has checked the wallet and the session.
 */
export function preloadScreen(pathname: string): void {
  const path = matchRoutes(routes, pathname)?.at(-1)?.route.path
  if (path === undefined) return
  const preload = preloads.get(path)
  if (preload) setStartScreen(Promise.resolve(preload()))
}

export function AppRoutes() {
  useScrollRestoration()
  const { pathname } = useLocation()
  useEffect(() => clearToastOnNavigation(), [pathname])
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
