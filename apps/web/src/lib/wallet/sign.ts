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
