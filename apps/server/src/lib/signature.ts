import { recoverMessageAddress, type PublicClient } from 'viem'

export type SignatureVerifier = (
  address: `0x${string}`,
  message: string,
  signature: `0x${string}`,
) => Promise<boolean>

/**
 * Verifies a personal_sign signature. With a chain client, contract wallets (EIP-1271) are
 * checked through the chain; without one, the signer is recovered (EOA only).
 */
export function createSignatureVerifier(chain?: PublicClient): SignatureVerifier {
  return async (address, message, signature) => {
    try {
      if (chain) return await chain.verifyMessage({ address, message, signature })
      const signer = await recoverMessageAddress({ message, signature })
      return signer.toLowerCase() === address.toLowerCase()
    } catch {
      return false
    }
  }
}
