import { recoverMessageAddress, type PublicClient } from 'viem'

export type SignatureVerifier = (
  address: `0x${string}`,
  message: string,
  signature: `0x${string}`,
) => Promise<boolean>

/** The order of the secp256k1 group. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const HALF_N = SECP256K1_N / 2n

/** r ‖ s ‖ v: the only length an externally owned account signs with. */
const ECDSA_HEX_LENGTH = 2 + 65 * 2

/**
 * True for a 65-byte signature whose s lies in the upper half of the group. Every such
 * signature has a twin (n − s, v flipped) that recovers the same signer, so accepting both
 * would let anyone who saw one mint the other; EIP-2 keeps the lower one only.
 */
export function isHighS(signature: `0x${string}`): boolean {
  if (signature.length !== ECDSA_HEX_LENGTH) return false
  return BigInt(`0x${signature.slice(66, 130)}`) > HALF_N
}

/** v as wallets send it: 27/28 (most) or 0/1 (some hardware and mobile wallets). */
function hasPlainV(signature: `0x${string}`): boolean {
  const v = Number.parseInt(signature.slice(130, 132), 16)
  return v === 0 || v === 1 || v === 27 || v === 28
}

/**
 * Verifies a personal_sign signature. A 65-byte signature must be low-s (EIP-2), whoever checks
 * it. With a chain client, contract wallets (EIP-1271, whose signatures may be longer and whose
 * v follows their own scheme) are checked through the chain; without one, the signer is
 * recovered (EOA only, v as 0/1 or 27/28).
 */
export function createSignatureVerifier(chain?: PublicClient): SignatureVerifier {
  return async (address, message, signature) => {
    try {
      // The chain's ecrecover accepts high s too, so the check comes before either path.
      if (isHighS(signature)) return false
      if (chain) return await chain.verifyMessage({ address, message, signature })
      if (signature.length !== ECDSA_HEX_LENGTH || !hasPlainV(signature)) return false
      const signer = await recoverMessageAddress({ message, signature })
      return signer.toLowerCase() === address.toLowerCase()
    } catch {
      return false
    }
  }
}
