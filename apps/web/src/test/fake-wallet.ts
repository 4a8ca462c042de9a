import { hexToString, isHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Eip1193Provider } from '../lib/wallet/eip1193.ts'
import { useSession } from '../lib/store.ts'
import { walletEvents } from './wallet-events.ts'

/** Anvil's well-known development keys: never hold value anywhere. */
export const TEST_KEYS = {
  alice: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  bob: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
} as const satisfies Record<string, Hex>

export interface FakeWallet extends Eip1193Provider {
  address: `0x${string}`
  calls: string[]
  emit(event: string, ...args: unknown[]): void
  /** What `eth_accounts` answers before the user connects. */
  connected: boolean
}

/**
 * An injected EIP-1193 wallet like the e2e one: it answers the account and chain calls and
 * signs personal_sign for real with a test key.
 */
export function createFakeWallet(
  key: Hex = TEST_KEYS.alice,
  opts: {
    chainId?: Hex
    signWith?: Hex
    rejectSign?: boolean
    /** The chains the wallet knows: a switch elsewhere answers 4902 until the chain is added. */
    knownChains?: Hex[]
    /** How the wallet answers a switch or an add: the user says no (4001) or it fails. */
    switchAnswer?: 'refuse' | 'fail'
  } = {},
): FakeWallet {
  const account = privateKeyToAccount(key)
  let chain: string = opts.chainId ?? '0x1'
  const known = opts.knownChains ? new Set<string>([chain, ...opts.knownChains]) : undefined
  const signer = privateKeyToAccount(opts.signWith ?? key)
  const wallet: FakeWallet = {
    address: account.address,
    calls: [],
    connected: true,
    async request({ method, params }) {
      wallet.calls.push(method)
      const list = Array.isArray(params) ? params : []
      switch (method) {
        case 'eth_accounts':
          return wallet.connected ? [account.address] : []
        case 'eth_requestAccounts':
          wallet.connected = true
          return [account.address]
        case 'eth_chainId':
          return chain
        case 'net_version':
          return String(Number(chain))
        case 'wallet_switchEthereumChain':
        case 'wallet_addEthereumChain': {
          if (opts.switchAnswer === 'refuse')
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          if (opts.switchAnswer === 'fail')
            throw Object.assign(new Error('Internal error'), { code: -32000 })
          const target = String((list[0] as { chainId?: string } | undefined)?.chainId)
          if (method === 'wallet_addEthereumChain') known?.add(target)
          else if (known && !known.has(target))
            throw Object.assign(new Error(`Unrecognized chain ID "${target}"`), { code: 4902 })
          else chain = target
          return null
        }
        case 'personal_sign': {
          if (opts.rejectSign)
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          const raw = list[0]
          const message = typeof raw === 'string' && isHex(raw) ? hexToString(raw) : String(raw)
          return signer.signMessage({ message })
        }
        case 'eth_signTypedData_v4': {
          if (opts.rejectSign)
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          const typed = JSON.parse(String(list[1])) as {
            domain: Record<string, unknown>
            types: Record<string, { name: string; type: string }[]>
            primaryType: string
            message: Record<string, unknown>
          }
          const { EIP712Domain: _domain, ...types } = typed.types
          return signer.signTypedData({ ...typed, types })
        }
        default:
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 })
      }
    },
    ...walletEvents(),
  }
  return wallet
}

export function installWallet(wallet: FakeWallet | undefined): void {
  Object.defineProperty(window, 'ethereum', { value: wallet, configurable: true, writable: true })
}

/** `wallet` installed and its address signed in (with a token), as after a sign-in. */
export function signInFakeWallet(wallet: FakeWallet = createFakeWallet()): FakeWallet {
  installWallet(wallet)
  useSession.setState({ address: wallet.address.toLowerCase() as `0x${string}`, token: 'tok' })
  return wallet
}

/**
 * Loads the wallet's signing side (it loads on first use) ahead, so that a test waits on what
 * the screen does, not on a module's first load.
 */
export async function preloadWalletSigning(): Promise<void> {
  await Promise.all([import('../lib/wallet/wagmi.ts'), import('../lib/wallet/switch-chain.ts')])
}
