import type { OutflowTypedData } from '@hope/api'
import type { Hex } from 'viem'
import { injectedProvider } from './eip1193.ts'

/**
 * Asks the wallet to sign UTF-8 text. Loads the wagmi module on first use.
 * Rejects when the user refuses or no wallet is present.
 */
export async function signWithWallet(address: `0x${string}`, message: string): Promise<Hex> {
  const provider = injectedProvider()
  if (!provider) throw new Error('no wallet')
  const { signText } = await import('./wagmi.ts')
  return signText(provider, address, message)
}

/**
 * Asks the wallet to sign an outflow's EIP-712 typed data, on the chain its domain names (the
 * wallet refuses typed data of another chain than its own). Rejects when the user refuses.
 */
export async function signTypedDataWithWallet(
  address: `0x${string}`,
  typed: OutflowTypedData,
): Promise<Hex> {
  const provider = injectedProvider()
  if (!provider) throw new Error('no wallet')
  const [{ switchChain }, { signTyped }] = await Promise.all([
    import('./switch-chain.ts'),
    import('./wagmi.ts'),
  ])
  await switchChain(provider, typed.domain.chainId)
  return signTyped(provider, address, typed)
}
