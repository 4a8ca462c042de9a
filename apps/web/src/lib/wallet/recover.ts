import { recoverMessageAddress, type Hex } from 'viem'

/** The address that signed a UTF-8 message (personal_sign). */
export async function recoverSigner(message: string, signature: Hex): Promise<string> {
  return recoverMessageAddress({ message, signature })
}
