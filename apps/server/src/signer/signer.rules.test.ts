import fc from 'fast-check'
import { encodeFunctionData, type Address } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  POR_PUBLISH_SELECTOR,
  TOKEN_TRANSFER_ABI,
  payoutRefusal,
  porTransactionAllowed,
  type PayoutFacts,
} from './signer.rules.ts'

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as Address
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const pay = (to: string, units: bigint) =>
  encodeFunctionData({
    abi: TOKEN_TRANSFER_ABI,
    functionName: 'transfer',
    args: [to as Address, units],
  })

const facts = (over: Partial<PayoutFacts> = {}): PayoutFacts => ({
  withdrawal: { status: 1, chainId: 31337, toAddress: TO, units: 20_000_000n },
  tx: { chainId: 31337, to: TOKEN, data: pay(TO, 20_000_000n) },
  token: TOKEN,
  signedHour: 0n,
  signedDay: 0n,
  caps: { hour: 100_000_000n, day: 500_000_000n },
  ...over,
})

describe('what the signer signs', () => {
  test('exactly the approved payout, in its token and chain, inside the caps', () => {
    expect(payoutRefusal(facts())).toBeNull()
    expect(payoutRefusal(facts({ withdrawal: null }))).toBe('unknown_withdrawal')
    for (const status of [0, 2, 3, 4, 5, 6])
      expect(payoutRefusal(facts({ withdrawal: { ...facts().withdrawal!, status } }))).toBe(
        'not_approved',
      )
    expect(payoutRefusal(facts({ tx: { ...facts().tx, chainId: 1 } }))).toBe('wrong_chain')
    expect(payoutRefusal(facts({ tx: { ...facts().tx, to: TO as Address } }))).toBe('wrong_token')
    expect(payoutRefusal(facts({ token: '' }))).toBe('wrong_token')
    expect(payoutRefusal(facts({ tx: { ...facts().tx, data: '0xdeadbeef' } }))).toBe('wrong_payout')
  })

  test('any other destination or amount is refused', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        (units, bytes) => {
          const to = `0x${Buffer.from(bytes).toString('hex')}`
          const data = pay(to, units)
          const same = to === TO && units === 20_000_000n
          expect(payoutRefusal(facts({ tx: { ...facts().tx, data } }))).toBe(
            same ? null : 'wrong_payout',
          )
        },
      ),
    )
  })

  test('the caps count what was signed before, this payout included', () => {
    expect(payoutRefusal(facts({ signedHour: 80_000_000n }))).toBeNull()
    expect(payoutRefusal(facts({ signedHour: 80_000_001n }))).toBe('hourly_cap')
    expect(payoutRefusal(facts({ signedDay: 480_000_001n }))).toBe('daily_cap')
  })

  test('the publisher key signs the registry’s publish only', () => {
    const registry = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0'
    const publish = `${POR_PUBLISH_SELECTOR}${'00'.repeat(64)}` as `0x${string}`
    expect(porTransactionAllowed({ to: registry, data: publish }, registry)).toBe(true)
    expect(porTransactionAllowed({ to: TOKEN, data: publish }, registry)).toBe(false)
    expect(porTransactionAllowed({ to: registry, data: pay(TO, 1n) }, registry)).toBe(false)
    expect(porTransactionAllowed({ to: registry, data: publish }, '')).toBe(false)
  })
})
