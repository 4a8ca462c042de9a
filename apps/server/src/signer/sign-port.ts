import { parseSignature, type Address, type Hex, type Signature } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/**
 * Where a key signs: a 32-byte digest in, a secp256k1 signature out. The signer process holds
 * the only implementations; a KMS (docs/deployment.md) is another one, with the key never
 * leaving it.
 */
export interface SignPort {
  readonly address: Address
  sign(digest: Hex): Promise<Signature>
}

/** A key held in this process's memory (the signer process's, and tests'). */
export function localKeyPort(privateKey: Hex): SignPort {
  const account = privateKeyToAccount(privateKey)
  return {
    address: account.address,
    sign: async (digest) => parseSignature(await account.sign({ hash: digest })),
  }
}
