import { describe, expect, test } from 'vitest'
import { outflowNeedsSignature } from './outflow.rules.ts'

const OWN = '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

describe('who must sign an outflow', () => {
  test('every transfer, under either policy', () => {
    for (const policy of ['others', 'all'] as const) {
      expect(outflowNeedsSignature(policy, 'transfer', OWN, OTHER)).toBe(true)
      expect(outflowNeedsSignature(policy, 'transfer', OWN, OWN)).toBe(true)
    }
  })

  test('a withdrawal elsewhere; to the own wallet (any case) only under `all`', () => {
    expect(outflowNeedsSignature('others', 'withdraw', OWN, OTHER)).toBe(true)
    expect(outflowNeedsSignature('others', 'withdraw', OWN, OWN.toLowerCase())).toBe(false)
    expect(outflowNeedsSignature('all', 'withdraw', OWN, OWN.toLowerCase())).toBe(true)
  })

  test('paying for another member; buying for oneself is no outflow under either policy', () => {
    for (const policy of ['others', 'all'] as const) {
      expect(outflowNeedsSignature(policy, 'activate', OWN, OTHER)).toBe(true)
      expect(outflowNeedsSignature(policy, 'activate', OWN, OWN.toLowerCase())).toBe(false)
    }
  })
})
