import type { Page } from 'playwright-core'
import type { PrivateKeyAccount } from 'viem/accounts'

export interface TestWallet {
  address: `0x${string}`
  /** How many times the page asked the wallet to sign. */
  signCalls: number
}

/**
 * Injects an EIP-1193 provider as `window.ethereum` (also announced by EIP-6963) that signs
 * for real with the given viem account, as a wallet's in-app browser would.
 */
export async function installWallet(
  page: Page,
  account: PrivateKeyAccount,
  chainId = 1,
): Promise<TestWallet> {
  const wallet: TestWallet = { address: account.address, signCalls: 0 }
  await page.exposeFunction('__hopeWalletSign', async (data: string) => {
    wallet.signCalls += 1
    const message = /^0x[0-9a-fA-F]*$/.test(data) ? { raw: data as `0x${string}` } : data
    return account.signMessage({ message })
  })
  await page.addInitScript(
    ({ address, chainId }) => {
      type Listener = (...args: unknown[]) => void
      const listeners = new Map<string, Set<Listener>>()
      let chain = chainId
      const emit = (event: string, value: unknown) =>
        listeners.get(event)?.forEach((fn) => fn(value))
      const rpcError = (code: number, message: string) =>
        Object.assign(new Error(message), { code })
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case 'eth_accounts':
            case 'eth_requestAccounts':
              return [address]
            case 'eth_chainId':
              return `0x${chain.toString(16)}`
            case 'net_version':
              return String(chain)
            case 'personal_sign': {
              const [data, from] = (params ?? []) as string[]
              if (String(from).toLowerCase() !== address.toLowerCase())
                throw rpcError(4100, 'unknown account')
              const sign = (
                window as unknown as { __hopeWalletSign: (d: string) => Promise<string> }
              ).__hopeWalletSign
              return sign(String(data))
            }
            case 'wallet_switchEthereumChain': {
              const next = ((params ?? [])[0] as { chainId?: string } | undefined)?.chainId ?? '0x1'
              chain = Number(next)
              emit('chainChanged', next)
              return null
            }
            case 'wallet_addEthereumChain':
            case 'wallet_requestPermissions':
              return null
            case 'wallet_getPermissions':
              return [{ parentCapability: 'eth_accounts' }]
            default:
              throw rpcError(4200, `unsupported method ${method}`)
          }
        },
        on(event: string, fn: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set())
          listeners.get(event)!.add(fn)
          return provider
        },
        removeListener(event: string, fn: Listener) {
          listeners.get(event)?.delete(fn)
          return provider
        },
      }
      Object.defineProperty(window, 'ethereum', { value: provider, configurable: true })
      const info = {
        uuid: '7f0c2b1e-6a3d-4b8e-9c61-2f7a1d9e4b10',
        name: 'HOPE Test Wallet',
        icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E',
        rdns: 'app.hope.testwallet',
      }
      const announce = () =>
        window.dispatchEvent(
          new CustomEvent('eip6963:announceProvider', {
            detail: Object.freeze({ info, provider }),
          }),
        )
      window.addEventListener('eip6963:requestProvider', announce)
      announce()
      window.dispatchEvent(new Event('ethereum#initialized'))
    },
    { address: account.address, chainId },
  )
  return wallet
}
