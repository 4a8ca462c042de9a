import type { Page } from 'playwright-core'
import type { LocalAccount } from 'viem/accounts'

export interface TestWallet {
  address: `0x${string}`
  /** How many times the page asked the wallet to sign. */
  signCalls: number
  /** Hashes of the transactions the wallet sent for the page. */
  sentTransactions: string[]
  /** The EIP-712 typed data (JSON) the wallet signed for the page (eth_signTypedData_v4). */
  typedSigned: string[]
}

/** The in-app browser quirks the test wallet can play (DESIGN §3a). */
export interface WalletQuirks {
  /** Announce only through EIP-6963; no `window.ethereum` (as some extensions do). */
  announceOnly6963?: boolean
  /** Inject this long after the page starts, then fire `ethereum#initialized`. */
  injectAfterMs?: number
  /**
   * The only chains the wallet knows: a switch to another answers 4902 until the page adds it
   * (`wallet_addEthereumChain`, kept in `window.__hopeAddedChains`).
   */
  knownChains?: number[]
  /** The user declines every switch and every chain to add (4001). */
  refuseSwitch?: boolean
}

/**
 * Injects an EIP-1193 provider as `window.ethereum` (also announced by EIP-6963) that signs
 * for real with the given viem account, as a wallet's in-app browser would.
 */
export async function installWallet(
  page: Page,
  account: LocalAccount,
  chainId = 1,
  /** A chain the wallet talks to: reads are forwarded, transactions signed and sent there. */
  rpcUrl?: string,
  /** More addresses the wallet exposes after its selected one (each signs for itself). */
  others: LocalAccount[] = [],
  quirks: WalletQuirks = {},
): Promise<TestWallet> {
  const wallet: TestWallet = {
    address: account.address,
    signCalls: 0,
    sentTransactions: [],
    typedSigned: [],
  }
  const signers = [account, ...others]
  await page.exposeFunction('__hopeWalletSign', async (data: string, from: string) => {
    wallet.signCalls += 1
    const signer = signers.find((a) => a.address.toLowerCase() === from.toLowerCase())
    if (!signer) throw Object.assign(new Error('unknown account'), { code: 4100 })
    const message = /^0x[0-9a-fA-F]*$/.test(data) ? { raw: data as `0x${string}` } : data
    return signer.signMessage({ message })
  })
  await page.exposeFunction('__hopeWalletSignTyped', async (from: string, json: string) => {
    wallet.signCalls += 1
    wallet.typedSigned.push(json)
    const signer = signers.find((a) => a.address.toLowerCase() === from.toLowerCase())
    if (!signer) throw Object.assign(new Error('unknown account'), { code: 4100 })
    const typed = JSON.parse(json) as {
      domain: Record<string, unknown>
      types: Record<string, { name: string; type: string }[]>
      primaryType: string
      message: Record<string, unknown>
    }
    const { EIP712Domain: _domain, ...types } = typed.types
    return signer.signTypedData({ ...typed, types })
  })
  await page.exposeFunction('__hopeWalletRpc', async (method: string, params: unknown[]) => {
    if (!rpcUrl) throw Object.assign(new Error(`no chain for ${method}`), { code: 4200 })
    const call = async (m: string, p: unknown[]) => {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: m, params: p }),
      })
      const body = (await res.json()) as {
        result?: unknown
        error?: { message: string; code: number }
      }
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
      return body.result
    }
    if (method !== 'eth_sendTransaction') return call(method, params)
    const tx = params[0] as {
      to: `0x${string}`
      data?: `0x${string}`
      value?: string
      gas?: string
    }
    const nonce = Number(await call('eth_getTransactionCount', [account.address, 'pending']))
    const gasPrice = BigInt((await call('eth_gasPrice', [])) as string)
    const gas = tx.gas
      ? BigInt(tx.gas)
      : BigInt((await call('eth_estimateGas', [{ ...tx, from: account.address }])) as string)
    const raw = await account.signTransaction({
      chainId,
      type: 'eip1559',
      to: tx.to,
      data: tx.data ?? '0x',
      value: tx.value ? BigInt(tx.value) : 0n,
      nonce,
      gas,
      maxFeePerGas: gasPrice * 2n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })
    const hash = (await call('eth_sendRawTransaction', [raw])) as string
    wallet.sentTransactions.push(hash)
    return hash
  })
  await page.addInitScript(
    ({ addresses, chainId, quirks }) => {
      type Listener = (...args: unknown[]) => void
      const listeners = new Map<string, Set<Listener>>()
      let chain = chainId
      const known = quirks.knownChains ? new Set([chainId, ...quirks.knownChains]) : undefined
      const emit = (event: string, value: unknown) =>
        listeners.get(event)?.forEach((fn) => fn(value))
      const rpcError = (code: number, message: string) =>
        Object.assign(new Error(message), { code })
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case 'eth_accounts':
            case 'eth_requestAccounts':
              return addresses
            case 'eth_chainId':
              return `0x${chain.toString(16)}`
            case 'net_version':
              return String(chain)
            case 'personal_sign': {
              const [data, from] = (params ?? []) as string[]
              if (!addresses.some((a) => a.toLowerCase() === String(from).toLowerCase()))
                throw rpcError(4100, 'unknown account')
              const sign = (
                window as unknown as {
                  __hopeWalletSign: (d: string, from: string) => Promise<string>
                }
              ).__hopeWalletSign
              return sign(String(data), String(from))
            }
            case 'eth_signTypedData_v4': {
              const [from, data] = (params ?? []) as string[]
              if (!addresses.some((a) => a.toLowerCase() === String(from).toLowerCase()))
                throw rpcError(4100, 'unknown account')
              const signTyped = (
                window as unknown as {
                  __hopeWalletSignTyped: (from: string, json: string) => Promise<string>
                }
              ).__hopeWalletSignTyped
              return signTyped(String(from), String(data))
            }
            case 'wallet_switchEthereumChain': {
              const next = ((params ?? [])[0] as { chainId?: string } | undefined)?.chainId ?? '0x1'
              if (quirks.refuseSwitch) throw rpcError(4001, 'User rejected the request.')
              if (known && !known.has(Number(next)))
                throw rpcError(4902, `Unrecognized chain ID "${next}"`)
              chain = Number(next)
              emit('chainChanged', next)
              return null
            }
            case 'wallet_addEthereumChain': {
              if (quirks.refuseSwitch) throw rpcError(4001, 'User rejected the request.')
              const added = (params ?? [])[0] as { chainId: string }
              known?.add(Number(added.chainId))
              const store = window as unknown as { __hopeAddedChains?: unknown[] }
              store.__hopeAddedChains = [...(store.__hopeAddedChains ?? []), added]
              return null
            }
            case 'wallet_requestPermissions':
              return null
            case 'wallet_getPermissions':
              return [{ parentCapability: 'eth_accounts' }]
            default: {
              const rpc = (
                window as unknown as {
                  __hopeWalletRpc: (m: string, p: unknown[]) => Promise<unknown>
                }
              ).__hopeWalletRpc
              return rpc(method, params ?? [])
            }
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
      const inject = () => {
        if (!quirks.announceOnly6963)
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
        if (!quirks.announceOnly6963) window.dispatchEvent(new Event('ethereum#initialized'))
      }
      if (quirks.injectAfterMs === undefined) inject()
      else setTimeout(inject, quirks.injectAfterMs)
    },
    { addresses: signers.map((a) => a.address), chainId, quirks },
  )
  return wallet
}
