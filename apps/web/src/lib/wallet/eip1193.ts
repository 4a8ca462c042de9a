/**
 * The thin EIP-1193 reader used before any signing: it finds the injected wallet and reads
 * its accounts and chain. It loads nothing from wagmi or viem, so it stays in the first bundle.
 */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>
  on?(event: string, listener: (...args: unknown[]) => void): void
  removeListener?(event: string, listener: (...args: unknown[]) => void): void
}

type Address = `0x${string}`
type WalletWindow = Window & { ethereum?: Eip1193Provider }

/** How long the spec lets a late wallet take to inject itself (§5). */
export const WALLET_WAIT_MS = 1500
const POLL_MS = 100
const USER_REJECTED = 4001

export function injectedProvider(win: Window = window): Eip1193Provider | null {
  return (win as WalletWindow).ethereum ?? null
}

/**
 * Resolves the injected `window.ethereum`, waiting up to 1.5 s for a late injection (polling,
 * and listening for `ethereum#initialized`). Resolves null when no wallet shows up.
 */
export function waitForProvider(
  timeoutMs = WALLET_WAIT_MS,
  win: Window = window,
): Promise<Eip1193Provider | null> {
  const found = injectedProvider(win)
  if (found) return Promise.resolve(found)
  return new Promise((resolve) => {
    const finish = () => {
      clearInterval(poll)
      clearTimeout(timer)
      win.removeEventListener('ethereum#initialized', check)
      resolve(injectedProvider(win))
    }
    const check = () => {
      if (injectedProvider(win)) finish()
    }
    const poll = setInterval(check, POLL_MS)
    const timer = setTimeout(finish, timeoutMs)
    win.addEventListener('ethereum#initialized', check, { once: true })
  })
}

function firstAddress(accounts: unknown): Address | null {
  if (!Array.isArray(accounts)) return null
  const [first] = accounts
  return typeof first === 'string' && /^0x[0-9a-fA-F]{40}$/.test(first)
    ? (first.toLowerCase() as Address)
    : null
}

function errorCode(error: unknown): unknown {
  return error && typeof error === 'object' && 'code' in error ? error.code : undefined
}

/**
 * The wallet's current address (lower-cased): `eth_accounts`, else `eth_requestAccounts`.
 * A refusal (4001) is logged as the spec says; other wallet errors are logged too.
 */
export async function requestAddress(provider: Eip1193Provider): Promise<Address | null> {
  try {
    const known = firstAddress(await provider.request({ method: 'eth_accounts' }))
    if (known) return known
    return firstAddress(await provider.request({ method: 'eth_requestAccounts' }))
  } catch (error) {
    if (errorCode(error) === USER_REJECTED) console.warn('Please connect to MetaMask')
    else console.error(error)
    return null
  }
}

/** A chain id as lower-case hex, whatever form the wallet reports it in. */
export function normalizeChainId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return `0x${value.toString(16)}`
  if (typeof value !== 'string') return null
  const text = value.trim().toLowerCase()
  if (/^0x[0-9a-f]+$/.test(text)) return `0x${BigInt(text).toString(16)}`
  if (/^\d+$/.test(text)) return `0x${BigInt(text).toString(16)}`
  return null
}

export async function readChainId(provider: Eip1193Provider): Promise<string | null> {
  try {
    return normalizeChainId(await provider.request({ method: 'eth_chainId' }))
  } catch (error) {
    console.error(error)
    return null
  }
}

/** The chain the app itself asked the wallet to move to (see switch-chain.ts). */
let expectedChain: string | null = null

/**
 * Announces a chain switch the app is about to ask for, so that the wallet's `chainChanged`
 * for it does not reload the page in the middle of a recharge. Returns the way to take the
 * announcement back when the switch fails.
 */
export function expectChainChange(chainId: string): () => void {
  expectedChain = chainId
  return () => {
    if (expectedChain === chainId) expectedChain = null
  }
}

export interface WalletWatchers {
  /** Another account or chain (not one the app asked for): the spec reloads the page. */
  onSwitch(): void
  /** The wallet was closed (no accounts, or disconnect). */
  onClose(): void
}

/**
 * Follows the wallet's events (DESIGN §3a). Several wallets fire `accountsChanged` and
 * `chainChanged` on load with the values they already had, so only a real change counts.
 * Returns the unsubscribe.
 */
export function watchWallet(
  provider: Eip1193Provider,
  known: { address: string | null; chainId: string | null },
  watchers: WalletWatchers,
): () => void {
  const last = { address: known.address?.toLowerCase() ?? null, chainId: known.chainId }
  const onAccounts = (accounts: unknown) => {
    const next = firstAddress(accounts)
    if (!next) {
      last.address = null
      watchers.onClose()
      return
    }
    if (next === last.address) return
    last.address = next
    watchers.onSwitch()
  }
  const onChain = (chainId: unknown) => {
    const next = normalizeChainId(chainId)
    if (!next || next === last.chainId) return
    const first = last.chainId === null
    last.chainId = next
    if (next === expectedChain) expectedChain = null
    else if (!first) watchers.onSwitch()
  }
  const onDisconnect = () => {
    last.address = null
    watchers.onClose()
  }
  provider.on?.('accountsChanged', onAccounts)
  provider.on?.('chainChanged', onChain)
  provider.on?.('disconnect', onDisconnect)
  return () => {
    provider.removeListener?.('accountsChanged', onAccounts)
    provider.removeListener?.('chainChanged', onChain)
    provider.removeListener?.('disconnect', onDisconnect)
  }
}
