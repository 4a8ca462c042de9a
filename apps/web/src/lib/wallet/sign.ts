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
 * How a wallet that lacks the app's chain adds it: as the server describes the chain
 * (`userAccount/getAddress`), else as the app knows it. Asked only after a 4902.
 */
async function addAppChain(chainId: number) {
  const [{ fetchDepositAddress }, { chainAdder }] = await Promise.all([
    import('../api/deposit-address.ts'),
    import('./switch-chain.ts'),
  ])
  const described = await fetchDepositAddress().then(
    (deposit) => deposit.chain,
    () => null,
  )
  return chainAdder(described)(chainId)
}

/**
 * Asks the wallet to sign an outflow's EIP-712 typed data, on the chain its domain names (the
 * wallet refuses typed data of another chain than its own): the wallet is put there as for a
 * recharge (switch, on 4902 add the chain, switch). Rejects with a SwitchChainError when the
 * wallet stays elsewhere, with the wallet's error when it does not sign.
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
  await switchChain(provider, typed.domain.chainId, { addChain: addAppChain })
  return signTyped(provider, address, typed)
}
