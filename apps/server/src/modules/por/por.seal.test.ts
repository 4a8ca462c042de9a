import { describe, expect, test } from 'vitest'
import { openProof, openTreeSecret, sealProof, sealTreeSecret } from './por.seal.ts'

const key = Buffer.alloc(32, 1)
const proof = { version: 1, address: '0xab', parts: [{ salt: '0x' + '5a'.repeat(32), usdt: '12' }] }

describe('sealed proofs', () => {
  test('a sealed proof holds no salt or amount in the clear and opens with its key', () => {
    const stored = JSON.parse(sealProof(key, 7, '0xAB', JSON.stringify(proof)))
    expect(Object.keys(stored)).toEqual(['sealed'])
    expect(JSON.stringify(stored)).not.toContain('5a5a')
    expect(openProof(key, 7, '0xab', stored)).toEqual(proof)
  })

  test('another key, another row or an altered seal does not open', () => {
    const stored = JSON.parse(sealProof(key, 7, '0xab', JSON.stringify(proof)))
    expect(() => openProof(Buffer.alloc(32, 2), 7, '0xab', stored)).toThrow(/POR_SEAL_KEY/)
    expect(() => openProof(key, 8, '0xab', stored)).toThrow()
    expect(() => openProof(key, 7, '0xac', stored)).toThrow()
    const altered = {
      sealed: stored.sealed.slice(0, -2) + (stored.sealed.endsWith('A') ? 'BB' : 'AA'),
    }
    expect(() => openProof(key, 7, '0xab', altered)).toThrow()
  })

  test('a proof stored before sealing is read as it is', () => {
    expect(openProof(key, 7, '0xab', proof)).toEqual(proof)
  })
})

describe('sealed tree secrets', () => {
  const secret = new Uint8Array(32).fill(0x5a)

  test('a sealed secret is not in the clear and opens with its key for its snapshot only', () => {
    const sealed = sealTreeSecret(key, 7, secret)
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'))
    expect(openTreeSecret(key, 7, sealed)).toEqual(secret)
    expect(() => openTreeSecret(Buffer.alloc(32, 2), 7, sealed)).toThrow(/POR_SEAL_KEY/)
    expect(() => openTreeSecret(key, 8, sealed)).toThrow(/snapshot 8/)
    expect(() =>
      openTreeSecret(key, 7, `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`),
    ).toThrow()
  })
})
