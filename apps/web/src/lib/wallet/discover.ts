/**
 * Finds the wallets of the page (DESIGN §3a): the injected `window.ethereum` and every wallet
 * that announces itself through EIP-6963 (some only do that, and set no `window.ethereum`).
 * Plain DOM events only, so it stays in the first bundle.
 */
import { WALLET_WAIT_MS, type Eip1193Provider } from './eip1193.ts'

/** What an EIP-6963 wallet says about itself. */
export interface WalletInfo {
  uuid: string
  name: string
  /** A data URI of the wallet's icon. */
  icon: string
  /** Reverse domain name, e.g. `io.metamask`: stable across visits, unlike the uuid. */
  rdns: string
}

export interface FoundWallet {
  provider: Eip1193Provider
  /** null for a bare `window.ethereum` that did not announce itself. */
  info: WalletInfo | null
}

const POLL_MS = 100
/** After the first wallet turns up late, others get this long to announce too. */
const SETTLE_MS = 150
/** Which wallet the user picked when several announced (localStorage; its rdns). */
export const CHOSEN_WALLET_KEY = 'wallet'

type WalletWindow = Window & { ethereum?: Eip1193Provider }

function isAnnouncement(
  detail: unknown,
): detail is { info: WalletInfo; provider: Eip1193Provider } {
  if (!detail || typeof detail !== 'object') return false
  const { info, provider } = detail as { info?: Partial<WalletInfo>; provider?: Eip1193Provider }
  return (
    !!info &&
    typeof info.uuid === 'string' &&
    typeof info.name === 'string' &&
    typeof provider?.request === 'function'
  )
}

/**
 * Follows the page's wallets from now on: asks EIP-6963 wallets to announce, listens for
 * announcements and `ethereum#initialized`, and polls `window.ethereum` (some wallets inject
 * it late without an event). `onChange` gets the list each time it changes: the announced
 * wallets, or the bare `window.ethereum` when none announced. Returns the way to stop.
 */
export function watchWallets(
  onChange: (wallets: FoundWallet[]) => void,
  win: Window = window,
): () => void {
  const announced: FoundWallet[] = []
  let last: FoundWallet[] = []
  const current = (): FoundWallet[] => {
    if (announced.length) return [...announced]
    const injected = (win as WalletWindow).ethereum
    return injected ? [{ provider: injected, info: null }] : []
  }
  const check = () => {
    const next = current()
    const same =
      next.length === last.length && next.every((w, i) => w.provider === last[i]?.provider)
    if (same) return
    last = next
    onChange(next)
  }
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail
    if (!isAnnouncement(detail)) return
    const wallet = { provider: detail.provider, info: { ...detail.info } }
    const at = announced.findIndex((w) => w.info?.uuid === wallet.info.uuid)
    if (at >= 0) announced[at] = wallet
    else announced.push(wallet)
    check()
  }
  win.addEventListener('eip6963:announceProvider', onAnnounce)
  win.addEventListener('ethereum#initialized', check)
  const poll = setInterval(check, POLL_MS)
  win.dispatchEvent(new Event('eip6963:requestProvider'))
  check()
  return () => {
    clearInterval(poll)
    win.removeEventListener('eip6963:announceProvider', onAnnounce)
    win.removeEventListener('ethereum#initialized', check)
  }
}

/**
 * The page's wallets, waiting up to 1.5 s (spec §5) for a late one. Wallets present at once
 * answer at once; one that turns up later gives the others a moment to announce as well.
 * Resolves an empty list when none showed up (the caller may keep watching).
 */
export function findWallets(
  timeoutMs = WALLET_WAIT_MS,
  win: Window = window,
): Promise<FoundWallet[]> {
  return new Promise((resolve) => {
    let found: FoundWallet[] = []
    let settling: ReturnType<typeof setTimeout> | undefined
    let started = false
    const finish = () => {
      clearTimeout(timer)
      clearTimeout(settling)
      stop()
      resolve(found)
    }
    const stop = watchWallets((wallets) => {
      found = wallets
      if (started && wallets.length && settling === undefined)
        settling = setTimeout(finish, SETTLE_MS)
    }, win)
    started = true
    const timer = setTimeout(finish, timeoutMs)
    if (found.length) finish()
  })
}

function readChosen(): string | null {
  try {
    return window.localStorage.getItem(CHOSEN_WALLET_KEY)
  } catch {
    return null
  }
}

const walletKey = (info: WalletInfo) => info.rdns || info.uuid

/** Remembers the wallet the user picked, so the next visit does not ask again. */
export function rememberWallet(wallet: FoundWallet): void {
  try {
    if (wallet.info) window.localStorage.setItem(CHOSEN_WALLET_KEY, walletKey(wallet.info))
  } catch (error) {
    console.error(error)
  }
}

/** The wallet to use: the only one, or the one picked before; null when the user must pick. */
export function pickWallet(wallets: FoundWallet[], chosen = readChosen()): FoundWallet | null {
  if (wallets.length === 1) return wallets[0] ?? null
  return wallets.find((w) => w.info && walletKey(w.info) === chosen) ?? null
}
