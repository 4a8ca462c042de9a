import type { Eip1193Provider } from '../lib/wallet/eip1193.ts'
import { walletEvents } from './wallet-events.ts'

export interface RpcCall {
  method: string
  params: unknown[]
}

/** Throws like a wallet does: an Error with an EIP-1193 `code` (and `data` when given). */
export const rpcError = (code: number, message: string, data?: unknown) =>
  Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) })

export interface FakeChainWallet extends Eip1193Provider {
  address: `0x${string}`
  calls: RpcCall[]
  /** Hex chain id the wallet is on. */
  chainId: string
  /** Chains the wallet knows (can switch to without adding). */
  chains: Set<string>
  /** Token balance in smallest units, per token contract (lower-case). */
  tokenBalances: Map<string, bigint>
  /** Native coin balance in wei. */
  nativeBalance: bigint
  /** Replaces the switch's answer; by default it switches to a known chain or throws 4902. */
  onSwitch?: (chainId: string) => unknown
  /** Replaces the answer to eth_sendTransaction; by default a fixed hash. */
  onSend?: (tx: Record<string, string>) => unknown
  sent: Record<string, string>[]
  emit(event: string, ...args: unknown[]): void
  callsTo(method: string): RpcCall[]
}

export const FAKE_TX_HASH = `0x${'ab'.repeat(32)}` as const

const hex = (value: bigint) => `0x${value.toString(16)}`
const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`

/**
 * A wallet's EIP-1193 provider on a pretend chain, enough for the recharge flow: accounts,
 * chain id, switch and add chain, `balanceOf` through eth_call, eth_getBalance and
 * eth_sendTransaction (recorded, never executed).
 */
export function createFakeChainWallet(
  init: {
    address?: `0x${string}`
    chainId?: string
    token?: string
    tokenBalance?: bigint
    nativeBalance?: bigint
  } = {},
): FakeChainWallet {
  const chainId = init.chainId ?? '0x7a69'
  const wallet: FakeChainWallet = {
    address: init.address ?? '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    calls: [],
    chainId,
    chains: new Set([chainId]),
    tokenBalances: new Map(init.token ? [[init.token.toLowerCase(), init.tokenBalance ?? 0n]] : []),
    nativeBalance: init.nativeBalance ?? 10n ** 18n,
    sent: [],
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      wallet.calls.push({ method, params: list })
      switch (method) {
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return [wallet.address]
        case 'eth_chainId':
          return wallet.chainId
        case 'wallet_switchEthereumChain': {
          const target = String((list[0] as { chainId?: string } | undefined)?.chainId)
          if (wallet.onSwitch) return wallet.onSwitch(target)
          if (!wallet.chains.has(target)) throw rpcError(4902, `Unrecognized chain ID "${target}"`)
          wallet.chainId = target
          wallet.emit('chainChanged', target)
          return null
        }
        case 'wallet_addEthereumChain': {
          const target = String((list[0] as { chainId?: string } | undefined)?.chainId)
          wallet.chains.add(target)
          return null
        }
        case 'eth_call': {
          const { to = '', data = '' } = (list[0] ?? {}) as { to?: string; data?: string }
          if (!data.startsWith('0x70a08231')) throw rpcError(-32000, 'execution reverted')
          return word(wallet.tokenBalances.get(to.toLowerCase()) ?? 0n)
        }
        case 'eth_getBalance':
          return hex(wallet.nativeBalance)
        case 'eth_sendTransaction': {
          const tx = (list[0] ?? {}) as Record<string, string>
          wallet.sent.push(tx)
          if (wallet.onSend) return wallet.onSend(tx)
          return FAKE_TX_HASH
        }
        default:
          throw rpcError(4200, `unsupported ${method}`)
      }
    },
    ...walletEvents(),
    callsTo: (method) => wallet.calls.filter((call) => call.method === method),
  }
  return wallet
}

export function installChainWallet(wallet: FakeChainWallet | undefined): void {
  Object.defineProperty(window, 'ethereum', { value: wallet, configurable: true, writable: true })
}
