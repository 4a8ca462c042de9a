import fc from 'fast-check'
import { encodeFunctionData, type Address, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  POR_PUBLISH_ABI,
  POR_PUBLISH_SELECTOR,
  VAULT_PAY_ABI,
  payoutDecision,
  porDecision,
  porTransactionAllowed,
  type PayoutFacts,
  type SignedBefore,
  type TxFacts,
} from './signer.rules.ts'

const VAULT = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as Address
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const ID = `0x${'ab'.repeat(32)}`
const pay = (to: string, units: bigint, id = ID) =>
  encodeFunctionData({
    abi: VAULT_PAY_ABI,
    functionName: 'pay',
    args: [id as Hex, to as Address, units],
  })
const GWEI = 1_000_000_000n
const tx = (over: Partial<TxFacts> = {}): TxFacts => ({
  chainId: 31337,
  to: VAULT,
  data: pay(TO, 20_000_000n),
  value: 0n,
  nonce: 7,
  gas: 150_000n,
  maxFeePerGas: 2n * GWEI,
  maxPriorityFeePerGas: GWEI,
  ...over,
})
const facts = (over: Partial<PayoutFacts> = {}): PayoutFacts => ({
  withdrawal: { status: 1, chainId: 31337, toAddress: TO, units: 20_000_000n, payoutId: ID },
  tx: tx(),
  vault: VAULT,
  before: null,
  signedHour: 0n,
  signedDay: 0n,
  caps: { hour: 100_000_000n, day: 500_000_000n },
  limits: { gas: 200_000n, maxFeePerGas: 500n * GWEI },
  ...over,
})
const signedBefore = (t: TxFacts): SignedBefore => ({
  nonce: t.nonce!,
  maxFeePerGas: t.maxFeePerGas!,
  maxPriorityFeePerGas: t.maxPriorityFeePerGas!,
  raw: '0x02f0aa',
  to: t.to,
  data: t.data,
  gas: t.gas!,
})
const reason = (f: PayoutFacts) => {
  const d = payoutDecision(f)
  return d.act === 'refuse' ? d.reason : d.act
}

describe('what the signer signs for a payout', () => {
  test('exactly the vault paying the approved withdrawal under its payout id, on its chain', () => {
    expect(payoutDecision(facts())).toEqual({ act: 'sign', replaces: false })
    expect(reason(facts({ withdrawal: null }))).toBe('unknown_withdrawal')
    for (const status of [0, 2, 3, 4, 5, 6])
      expect(reason(facts({ withdrawal: { ...facts().withdrawal!, status } }))).toBe('not_approved')
    expect(reason(facts({ tx: tx({ chainId: 1 }) }))).toBe('wrong_chain')
    expect(reason(facts({ tx: tx({ to: TO as Address }) }))).toBe('wrong_vault')
    expect(reason(facts({ vault: '' }))).toBe('wrong_vault')
    expect(reason(facts({ tx: tx({ value: 1n }) }))).toBe('wrong_value')
    expect(reason(facts({ tx: tx({ data: '0xdeadbeef' }) }))).toBe('wrong_payout')
    // Another withdrawal's payout id: the vault would pay the same money twice.
    expect(reason(facts({ tx: tx({ data: pay(TO, 20_000_000n, `0x${'cd'.repeat(32)}`) }) }))).toBe(
      'wrong_payout',
    )
  })

  test('any other destination or amount is refused', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        (units, bytes) => {
          const to = `0x${Buffer.from(bytes).toString('hex')}`
          const same = to === TO && units === 20_000_000n
          expect(reason(facts({ tx: tx({ data: pay(to, units) }) }))).toBe(
            same ? 'sign' : 'wrong_payout',
          )
        },
      ),
    )
  })

  test('gas and fees within the limits: a payout cannot burn the hot wallet’s coin', () => {
    expect(reason(facts({ tx: tx({ gas: 200_001n }) }))).toBe('gas_limit')
    expect(reason(facts({ tx: tx({ gas: undefined }) }))).toBe('gas_limit')
    expect(reason(facts({ tx: tx({ maxFeePerGas: 500n * GWEI + 1n }) }))).toBe('fee_limit')
    expect(reason(facts({ tx: tx({ maxPriorityFeePerGas: 3n * GWEI }) }))).toBe('fee_limit')
    expect(reason(facts({ tx: tx({ maxFeePerGas: undefined }) }))).toBe('fee_limit')
  })

  test('a legacy payout (a chain without EIP-1559): the same checks, its gas price under the ceiling', () => {
    const legacy = (gasPrice: bigint | undefined, over: Partial<TxFacts> = {}) =>
      tx({
        type: 'legacy',
        maxFeePerGas: undefined,
        maxPriorityFeePerGas: undefined,
        gasPrice,
        ...over,
      })
    expect(reason(facts({ tx: legacy(2n * GWEI) }))).toBe('sign')
    expect(reason(facts({ tx: legacy(500n * GWEI) }))).toBe('sign')
    expect(reason(facts({ tx: legacy(500n * GWEI + 1n) }))).toBe('fee_limit')
    expect(reason(facts({ tx: legacy(undefined) }))).toBe('fee_limit')
    // The fees of both kinds at once, or a type it does not sign.
    expect(reason(facts({ tx: legacy(2n * GWEI, { maxFeePerGas: 2n * GWEI }) }))).toBe('fee_limit')
    expect(reason(facts({ tx: tx({ gasPrice: 2n * GWEI }) }))).toBe('fee_limit')
    expect(reason(facts({ tx: legacy(2n * GWEI, { type: 'eip2930' }) }))).toBe('fee_limit')
    expect(reason(facts({ tx: legacy(2n * GWEI, { chainId: 1 }) }))).toBe('wrong_chain')
    expect(reason(facts({ tx: legacy(2n * GWEI, { data: pay(TO, 1n) }) }))).toBe('wrong_payout')
    // Replaced: the same nonce and call, the gas price raised a tenth; less is a repeat.
    const before = {
      ...signedBefore(tx()),
      maxFeePerGas: 2n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
    }
    expect(payoutDecision(facts({ before, tx: legacy((22n * GWEI) / 10n) }))).toEqual({
      act: 'sign',
      replaces: true,
    })
    expect(payoutDecision(facts({ before, tx: legacy((21n * GWEI) / 10n) }))).toEqual({
      act: 'repeat',
      raw: before.raw,
    })
  })

  test('the caps count every payout signed before, this one included', () => {
    expect(reason(facts({ signedHour: 80_000_000n }))).toBe('sign')
    expect(reason(facts({ signedHour: 80_000_001n }))).toBe('hourly_cap')
    expect(reason(facts({ signedDay: 480_000_001n }))).toBe('daily_cap')
  })

  test('one payout per withdrawal: asked again with any other nonce, the same bytes come back', () => {
    const before = signedBefore(tx())
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (nonce) => {
        const d = payoutDecision(facts({ before, tx: tx({ nonce }) }))
        expect(d).toEqual({ act: 'repeat', raw: before.raw })
      }),
    )
    // Even when the withdrawal has since been paid, or the asker changed the payout.
    const paid = { ...facts().withdrawal!, status: 5 }
    expect(payoutDecision(facts({ before, withdrawal: paid }))).toEqual({
      act: 'repeat',
      raw: before.raw,
    })
    expect(payoutDecision(facts({ before, tx: tx({ data: pay(TO, 1n) }) }))).toEqual({
      act: 'repeat',
      raw: before.raw,
    })
  })

  test('the only other transaction: the same nonce and call with both fees raised a tenth', () => {
    const before = signedBefore(tx())
    const raised = tx({
      maxFeePerGas: (2n * GWEI * 11n) / 10n,
      maxPriorityFeePerGas: (GWEI * 11n) / 10n,
    })
    expect(payoutDecision(facts({ before, tx: raised }))).toEqual({ act: 'sign', replaces: true })
    // Raised too little, or only one fee, or the gas changed: the first bytes again.
    for (const other of [
      tx({ maxFeePerGas: 2n * GWEI + 1n, maxPriorityFeePerGas: GWEI + 1n }),
      tx({ maxFeePerGas: 4n * GWEI }),
      { ...raised, gas: 160_000n },
    ])
      expect(payoutDecision(facts({ before, tx: other })).act).toBe('repeat')
    // A replacement still keeps within the fee ceiling and the caps.
    expect(
      reason(
        facts({
          before,
          tx: { ...raised, maxFeePerGas: 600n * GWEI },
        }),
      ),
    ).toBe('fee_limit')
    expect(reason(facts({ before, tx: raised, signedHour: 90_000_000n }))).toBe('hourly_cap')
  })
})

describe('what the publisher key signs', () => {
  const registry = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0' as Address
  const publish = (id: bigint, block: bigint) =>
    encodeFunctionData({
      abi: POR_PUBLISH_ABI,
      functionName: 'publish',
      args: [id, `0x${'11'.repeat(32)}`, 1n, 1n, block, VAULT, 10n, 3n, [TO as Address]],
    })
  const porTx = (id: bigint, block: bigint, over: Partial<TxFacts> = {}) =>
    tx({ to: registry, data: publish(id, block), ...over })

  test('the registry’s publish only', () => {
    const data = publish(1n, 10n)
    expect(data.slice(0, 10)).toBe(POR_PUBLISH_SELECTOR)
    expect(porTransactionAllowed({ to: registry, data }, registry)).toBe(true)
    expect(porTransactionAllowed({ to: VAULT, data }, registry)).toBe(false)
    expect(porTransactionAllowed({ to: registry, data: pay(TO, 1n) }, registry)).toBe(false)
    expect(porTransactionAllowed({ to: registry, data }, '')).toBe(false)
    expect(
      porTransactionAllowed({ to: registry, data: `${POR_PUBLISH_SELECTOR}00` }, registry),
    ).toBe(false)
  })

  test('each publication at a block after the last one signed: the operator cannot go back', () => {
    const last = { ...signedBefore(porTx(4n, 100n)), id: 4n, blockNumber: 100n }
    expect(porDecision(porTx(1n, 10n), registry, null)).toEqual({ act: 'sign' })
    expect(porDecision(porTx(5n, 101n), registry, last)).toEqual({ act: 'sign' })
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 99n }), fc.bigInt({ min: 1n, max: 9n }), (b, id) => {
        expect(porDecision(porTx(id, b), registry, last)).toEqual({
          act: 'refuse',
          reason: 'por_block_not_after',
        })
      }),
    )
    // Another snapshot at the same block is another moment's proof: refused.
    expect(porDecision(porTx(5n, 100n), registry, last)).toEqual({
      act: 'refuse',
      reason: 'por_block_not_after',
    })
    // The same snapshot asked again: the same bytes; fee-raised at its nonce: signed.
    expect(porDecision(porTx(4n, 100n, { nonce: 9 }), registry, last)).toEqual({
      act: 'repeat',
      raw: last.raw,
    })
    const raised = porTx(4n, 100n, {
      maxFeePerGas: 3n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
    })
    expect(porDecision(raised, registry, last)).toEqual({ act: 'sign' })
  })
})
