import type { PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test, vi } from 'vitest'
import { createSignatureVerifier, isHighS } from './signature.ts'

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const message = 'HOPE Login1763779200000'

/** The same signature with v written as `v`. */
function withV(signature: `0x${string}`, v: number): `0x${string}` {
  return `${signature.slice(0, 130)}${v.toString(16).padStart(2, '0')}` as `0x${string}`
}

/** The malleable twin: s → n − s and the recovery bit flipped; it recovers the same signer. */
function twinOf(signature: `0x${string}`): `0x${string}` {
  const s = BigInt(`0x${signature.slice(66, 130)}`)
  const v = Number.parseInt(signature.slice(130), 16)
  const flipped = v === 27 ? 28 : v === 28 ? 27 : v ^ 1
  const sHex = (N - s).toString(16).padStart(64, '0')
  return `${signature.slice(0, 66)}${sHex}${flipped.toString(16).padStart(2, '0')}` as `0x${string}`
}

async function signed() {
  const account = privateKeyToAccount(generatePrivateKey())
  return { address: account.address, signature: await account.signMessage({ message }) }
}

describe('signature verifier', () => {
  const verify = createSignatureVerifier()

  test('accepts the signer with v as 27/28 and as 0/1', async () => {
    const { address, signature } = await signed()
    const v = Number.parseInt(signature.slice(130), 16)
    expect(await verify(address, message, signature)).toBe(true)
    expect(await verify(address, message, withV(signature, v - 27))).toBe(true)
    expect(await verify(address.toLowerCase() as `0x${string}`, message, signature)).toBe(true)
  })

  test('refuses the malleable twin (high s), with v as 27/28 or as 0/1', async () => {
    const { address, signature } = await signed()
    const twin = twinOf(signature)
    expect(isHighS(signature)).toBe(false)
    expect(isHighS(twin)).toBe(true)
    expect(await verify(address, message, twin)).toBe(false)
    const v = Number.parseInt(twin.slice(130), 16)
    expect(await verify(address, message, withV(twin, v - 27))).toBe(false)
  })

  test('refuses another signer, another message and an unknown v', async () => {
    const { address, signature } = await signed()
    expect(await verify((await signed()).address, message, signature)).toBe(false)
    expect(await verify(address, 'HOPE Login1763779200001', signature)).toBe(false)
    expect(await verify(address, message, withV(signature, 29))).toBe(false)
    expect(await verify(address, message, `${signature}00`)).toBe(false)
  })

  test('with a chain, refuses a high-s twin before asking and hands longer signatures over', async () => {
    const verifyMessage = vi.fn(async () => true)
    const getCode = vi.fn(async () => '0x6080' as `0x${string}`)
    const chainVerify = createSignatureVerifier({
      verifyMessage,
      getCode,
    } as unknown as PublicClient)
    const { address, signature } = await signed()
    expect(await chainVerify(address, message, twinOf(signature))).toBe(false)
    expect(verifyMessage).not.toHaveBeenCalled()
    // A plain wallet's signature is recovered here: the chain is not asked.
    expect(await chainVerify(address, message, signature)).toBe(true)
    expect(getCode).not.toHaveBeenCalled()
    const contractSignature = `0x${'ab'.repeat(200)}` as `0x${string}`
    expect(await chainVerify(address, message, contractSignature)).toBe(true)
    expect(verifyMessage).toHaveBeenCalledWith({ address, message, signature: contractSignature })
  })

  test('an address without code is no contract wallet, and a chain that does not answer refuses in time', async () => {
    const verifyMessage = vi.fn(async () => true)
    const { address } = await signed()
    const contractSignature = `0x${'ab'.repeat(200)}` as `0x${string}`
    const noCode = createSignatureVerifier({
      verifyMessage,
      getCode: async () => undefined,
    } as unknown as PublicClient)
    expect(await noCode(address, message, contractSignature)).toBe(false)
    expect(verifyMessage).not.toHaveBeenCalled()
    vi.useFakeTimers()
    try {
      const silent = createSignatureVerifier({
        verifyMessage,
        getCode: () => new Promise(() => {}),
      } as unknown as PublicClient)
      const answer = silent(address, message, contractSignature)
      await vi.advanceTimersByTimeAsync(5_000)
      expect(await answer).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })
})
