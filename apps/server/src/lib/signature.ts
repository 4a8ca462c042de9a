import {
  isErc6492Signature,
  recoverMessageAddress,
  recoverTypedDataAddress,
  type PublicClient,
  type TypedDataDefinition,
} from 'viem'

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

/** What was signed: UTF-8 text (personal_sign) or EIP-712 typed data (eth_signTypedData_v4). */
type Signed = { message: string } | { typedData: TypedDataDefinition }

/** Whether a plain wallet (EOA) at `address` signed it: the signer recovered here. */
async function signedByAccount(
  address: `0x${string}`,
  signed: Signed,
  signature: `0x${string}`,
): Promise<boolean> {
  if (signature.length !== ECDSA_HEX_LENGTH || !hasPlainV(signature)) return false
  const signer =
    'message' in signed
      ? await recoverMessageAddress({ message: signed.message, signature })
      : await recoverTypedDataAddress({ ...signed.typedData, signature })
  return signer.toLowerCase() === address.toLowerCase()
}

/**
 * Verifies a personal_sign signature. A 65-byte signature must be low-s (EIP-2), whoever checks
 * it. A plain wallet's signer is recovered here, with no call to the chain (v as 0/1 or 27/28).
 * Only when that fails and a chain client is given is the signature asked of the chain, for
 * contract wallets: deployed ones (EIP-1271), whose signatures may be longer and whose v
 * follows their own scheme, and ones not deployed yet (EIP-6492), whose signature carries the
 * factory call that would deploy them (simulated, never sent).
 */
export function createSignatureVerifier(chain?: PublicClient): SignatureVerifier {
  const verify = createVerifier(chain)
  return (address, message, signature) => verify(address, { message }, signature)
}

/**
 * Verifies an EIP-712 signature (eth_signTypedData_v4) the same way: a plain wallet's signer
 * recovered here, a contract wallet's (EIP-1271, or EIP-6492 not yet deployed) asked of the
 * chain with a bounded wait.
 */
export function createTypedDataVerifier(chain?: PublicClient): TypedDataVerifier {
  const verify = createVerifier(chain)
  return (address, typedData, signature) => verify(address, { typedData }, signature)
}

export type TypedDataVerifier = (
  address: `0x${string}`,
  typedData: TypedDataDefinition,
  signature: `0x${string}`,
) => Promise<boolean>

function createVerifier(chain?: PublicClient) {
  return async (address: `0x${string}`, signed: Signed, signature: `0x${string}`) => {
    // The chain's ecrecover accepts high s too, so the check comes before either path.
    if (isHighS(signature)) return false
    try {
      if (await signedByAccount(address, signed, signature)) return true
    } catch {
      // Not a recoverable ECDSA signature: perhaps a contract wallet's.
    }
    if (!chain) return false
    // Only an address with code can be a contract wallet, unless the signature carries the
    // wallet's deployment (EIP-6492: a smart wallet not deployed yet); the chain gets a bounded
    // wait, so a slow node never holds a sign-in (or a junk sender's attempt) for long.
    let timer: NodeJS.Timeout | undefined
    const gaveUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), CHAIN_CHECK_MS)
    })
    const asked = (async () => {
      if (!isErc6492Signature(signature)) {
        const code = await chain.getCode({ address })
        if (!code || code === '0x') return false
      }
      return 'message' in signed
        ? chain.verifyMessage({ address, message: signed.message, signature })
        : chain.verifyTypedData({ address, ...signed.typedData, signature })
    })().catch(() => false)
    try {
      return await Promise.race([asked, gaveUp])
    } finally {
      clearTimeout(timer)
    }
  }
}

/** How long a contract wallet's signature may take to check on the chain. */
const CHAIN_CHECK_MS = 5_000
