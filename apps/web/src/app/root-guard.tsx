import {
  lazy,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, Outlet, useLocation } from 'react-router'
import { useSessionCheck, type SessionOutcome } from '../features/auth/index.ts'
import { usePriceSync } from '../lib/api/prices.ts'
import { Icon } from '../lib/ui/icons.tsx'
import { selectSignedIn, selectTokenForWallet, useSession } from '../lib/store.ts'
import { readUrlParam } from '../lib/url.ts'
import {
  findWallets,
  pickWallet,
  rememberWallet,
  watchWallets,
  type FoundWallet,
} from '../lib/wallet/discover.ts'
import {
  readChainId,
  requestAddress,
  setActiveProvider,
  watchWallet,
} from '../lib/wallet/eip1193.ts'
import { startScreenLoaded } from './start-screen.ts'

type WalletPhase = 'waiting' | 'missing' | 'choosing' | 'refused' | 'connected'

// Shown only off the usual path (several wallets, or none), so they load when needed.
const WalletChooser = lazy(() => import('./wallet-chooser.tsx'))
const NoWalletHelp = lazy(() => import('./no-wallet-help.tsx'))
type SessionPhase = 'idle' | 'checking' | SessionOutcome

/** If `location.reload()` did nothing (some in-app browsers), reset in place after this long. */
const RELOAD_FALLBACK_MS = 1500
/** How long after the screens show the quiet daily proof check starts (features/por). */
const DAILY_CHECK_DELAY_MS = 10_000
const noop = () => {}

/** While screens are open: the session's prices kept fresh, and the daily proof check. */
function WhileScreensOpen() {
  usePriceSync()
  useEffect(() => {
    // Once the home has settled; the check, the verifier and viem load only then.
    const timer = setTimeout(
      () => void import('../features/por/index.ts').then((m) => m.startDailyCheck(), noop),
      DAILY_CHECK_DELAY_MS,
    )
    return () => clearTimeout(timer)
  }, [])
  return null
}

/**
 * A ring turning in the primary colour, drawn as in index.html, which shows it before the
 * scripts run (antd-mobile's SpinLoading would bring react-spring, ~17 KB gzip, which the
 * first screen does not otherwise need).
 */
export function GuardSpinner() {
  return (
    <div className="guard-center" data-testid="guard-spinner" aria-busy="true">
      <svg className="guard-ring" viewBox="0 0 32 32" aria-hidden="true">
        <circle className="guard-ring__track" cx="16" cy="16" r="15" />
        <circle className="guard-ring__arc" cx="16" cy="16" r="15" />
      </svg>
    </div>
  )
}

function GuardNotice({
  testId,
  title,
  hint,
  action,
  onRetry,
  children,
}: {
  testId: string
  title: string
  hint: string
  action: string
  onRetry: () => void
  children?: ReactNode
}) {
  return (
    // The page's main landmark; said at once by a screen reader when it replaces the spinner.
    <main className="guard-center guard-notice" data-testid={testId} aria-live="assertive">
      <span className="guard-notice__icon">
        <Icon name="wallet" />
      </span>
      <h1 className="guard-notice__title">{title}</h1>
      <p className="guard-notice__hint">{hint}</p>
      <button type="button" className="guard-button" onClick={onRetry} data-testid="guard-retry">
        {action}
      </button>
      {children}
    </main>
  )
}

/**
 * Joins a run still in flight for the same key instead of starting another: React may run an
 * effect twice (StrictMode), and a second wallet prompt or signature request would reach the
 * user. A finished run does not count, so the same step can run again later.
 */
function useSingleFlight() {
  const current = useRef<{ key: string; promise: Promise<unknown> } | null>(null)
  return useCallback(<T,>(key: string, task: () => Promise<T>): Promise<T> => {
    if (current.current?.key === key) return current.current.promise as Promise<T>
    const promise = task().finally(() => {
      if (current.current?.promise === promise) current.current = null
    })
    current.current = { key, promise }
    return promise
  }, [])
}

/**
 * The root guard (spec §2, §4): stores the inviter from the URL, waits for the wallet
 * address, then keeps a spinner up until the user has a token or sends them to /invite.
 * A stored token issued to this wallet's address counts at once (spec §6), while
 * `getUserInfo` confirms it; any other stored token is confirmed first.
 */
export function RootGuard() {
  const { t } = useTranslation()
  const { pathname, search } = useLocation()
  const address = useSession((s) => s.address)
  const signedIn = useSession(selectSignedIn)
  const tokenForWallet = useSession(selectTokenForWallet)
  const signedOut = useSession((s) => s.signedOut)
  // After a sign-out the login steps wait for the user's "sign in" (spec §4 runs them at once).
  const [signInAsked, setSignInAsked] = useState(false)
  const waitsForSignIn = signedOut && !signInAsked
  const [walletPhase, setWalletPhase] = useState<WalletPhase>('waiting')
  const [wallets, setWallets] = useState<FoundWallet[]>([])
  const [sessionPhase, setSessionPhase] = useState<SessionPhase>('idle')
  const [walletAttempt, setWalletAttempt] = useState(0)
  const [sessionAttempt, setSessionAttempt] = useState(0)
  const checkSession = useSessionCheck()
  const walletOnce = useSingleFlight()
  const sessionOnce = useSingleFlight()
  const onInvite = pathname === '/invite'
  // A stored token issued to this wallet shows the screens at once; the check still runs.
  const screensAllowed =
    walletPhase === 'connected' && address !== null && (signedIn || onInvite || tokenForWallet)
  // The screens are first drawn in a render React may pause between components, so drawing
  // a whole screen never holds the page for one long task; they go as soon as not allowed.
  const screensDrawn = useDeferredValue(screensAllowed, false)

  useEffect(() => {
    const pusername = readUrlParam('pusername')
    if (pusername) useSession.getState().setPusername(pusername)
  }, [search])

  useEffect(() => {
    let active = true
    let unwatch = () => {}
    const reloadApp = () => {
      window.location.reload()
      setTimeout(() => {
        if (!active) return
        useSession.getState().closeWallet()
        setWalletAttempt((n) => n + 1)
      }, RELOAD_FALLBACK_MS)
    }
    const retry = () => setWalletAttempt((n) => n + 1)
    setWalletPhase('waiting')
    void Promise.all([
      walletOnce(`wallet:${walletAttempt}`, async () => {
        const found = await findWallets()
        const wallet = pickWallet(found)
        if (!wallet) return { found, provider: null, address: null, chainId: null }
        const { provider } = wallet
        const address = await requestAddress(provider)
        const chainId = address ? await readChainId(provider) : null
        return { found, provider, address, chainId }
      }),
      startScreenLoaded(),
    ]).then(([{ found, provider, address: connected, chainId }]) => {
      if (!active) return
      setWallets(found)
      if (!found.length) {
        setWalletPhase('missing')
        // A wallet injected after the wait still counts: go on as soon as it shows up.
        unwatch = watchWallets((late) => {
          if (late.length) retry()
        })
        return
      }
      if (!provider) return setWalletPhase('choosing')
      setActiveProvider(provider)
      if (!connected) return setWalletPhase('refused')
      useSession.getState().setAddress(connected)
      setWalletPhase('connected')
      unwatch = watchWallet(
        provider,
        { address: connected, chainId },
        { onSwitch: reloadApp, onClose: () => useSession.getState().closeWallet() },
      )
    })
    return () => {
      active = false
      unwatch()
    }
  }, [walletAttempt, walletOnce])

  useEffect(() => {
    if (!address || signedIn || waitsForSignIn) return
    let active = true
    setSessionPhase('checking')
    void sessionOnce(`session:${address}:${sessionAttempt}`, checkSession).then((outcome) => {
      if (!active) return
      setSessionPhase(outcome)
    })
    return () => {
      active = false
    }
  }, [address, signedIn, waitsForSignIn, sessionAttempt, checkSession, sessionOnce])

  if (walletPhase === 'waiting') return <GuardSpinner />
  if (walletPhase === 'missing')
    return (
      <GuardNotice
        testId="guard-no-wallet"
        title={t('guard.noWallet')}
        hint={t('guard.noWalletHint')}
        action={t('common.retry')}
        onRetry={() => setWalletAttempt((n) => n + 1)}
      >
        <Suspense fallback={null}>
          <NoWalletHelp />
        </Suspense>
      </GuardNotice>
    )
  if (walletPhase === 'choosing')
    return (
      <Suspense fallback={<GuardSpinner />}>
        <WalletChooser
          wallets={wallets}
          onPick={(wallet) => {
            rememberWallet(wallet)
            setWalletAttempt((n) => n + 1)
          }}
        />
      </Suspense>
    )
  if (walletPhase === 'refused' || !address)
    return (
      <GuardNotice
        testId="guard-connect"
        title={t('guard.connect')}
        hint={t('guard.connectHint')}
        action={t('common.retry')}
        onRetry={() => setWalletAttempt((n) => n + 1)}
      />
    )
  if (screensAllowed)
    return screensDrawn ? (
      <>
        <WhileScreensOpen />
        <Outlet />
      </>
    ) : (
      <GuardSpinner />
    )
  if (waitsForSignIn)
    return (
      <GuardNotice
        testId="guard-signed-out"
        title={t('guard.signedOut')}
        hint={t('guard.signedOutHint')}
        action={t('guard.signIn')}
        onRetry={() => setSignInAsked(true)}
      />
    )
  if (sessionPhase === 'unregistered') return <Navigate to="/invite" replace />
  if (sessionPhase === 'login-failed')
    return (
      <GuardNotice
        testId="guard-login-failed"
        title={t('guard.loginFailed')}
        hint={t('guard.loginFailedHint')}
        action={t('guard.signAgain')}
        onRetry={() => setSessionAttempt((n) => n + 1)}
      />
    )
  return <GuardSpinner />
}
