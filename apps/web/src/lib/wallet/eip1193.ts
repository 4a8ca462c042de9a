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
const USER_REJECTED = 4001

/** The wallet the guard connected to (discover.ts); it may have no `window.ethereum`. */
let active: Eip1193Provider | null = null

/** Makes `provider` the one every wallet call of the app goes to. */
export function setActiveProvider(provider: Eip1193Provider | null): void {
  active = provider
}

/** The wallet the app talks to: the one the guard connected, else `window.ethereum`. */
export function injectedProvider(win: Window = window): Eip1193Provider | null {
  return active ?? (win as WalletWindow).ethereum ?? null
}

/** Where the address chosen on the login-by-account screen is kept (localStorage). */
export const PREFERRED_ACCOUNT_KEY = 'account'

function readPreferred(): string | null {
  try {
    return window.localStorage.getItem(PREFERRED_ACCOUNT_KEY)
  } catch {
    return null
  }
}

/** Remembers which of the wallet's addresses to sign in with (null: the wallet's first). */
export function setPreferredAccount(address: string | null): void {
  try {
    if (address) window.localStorage.setItem(PREFERRED_ACCOUNT_KEY, address.toLowerCase())
    else window.localStorage.removeItem(PREFERRED_ACCOUNT_KEY)
  } catch (error) {
    console.error(error)
  }
}

/** The well-formed addresses of an accounts answer, lower-cased, in the wallet's order. */
export function accountList(accounts: unknown): Address[] {
  if (!Array.isArray(accounts)) return []
  return accounts
    .filter((a): a is string => typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a))
    .map((a) => a.toLowerCase() as Address)
}

/**
 * The address the app uses: the one chosen on the login-by-account screen while the wallet
 * still exposes it, else the wallet's first (its selected account).
 */
export function pickAddress(accounts: unknown, preferred = readPreferred()): Address | null {
  const list = accountList(accounts)
  return list.find((a) => a === preferred) ?? list[0] ?? null
}

/** Every address the wallet exposes to this page (`eth_accounts`); empty on any failure. */
export async function listAccounts(provider: Eip1193Provider): Promise<Address[]> {
  try {
    return accountList(await provider.request({ method: 'eth_accounts' }))
  } catch (error) {
    console.error(error)
    return []
  }
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
    const known = pickAddress(await provider.request({ method: 'eth_accounts' }))
    if (known) return known
    return pickAddress(await provider.request({ method: 'eth_requestAccounts' }))
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
    const next = pickAddress(accounts)
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
