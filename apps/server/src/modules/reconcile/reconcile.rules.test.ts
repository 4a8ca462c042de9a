import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  halveSpan,
  isRangeRefusal,
  payoutAlarmKind,
  resumeFrom,
  safeHead,
  scanRange,
  unexplainedOutflows,
  type BlockRange,
  type TokenOutflow,
  type VaultSending,
} from './reconcile.rules.ts'

const VAULT = `0x${'ab'.repeat(20)}`
const HOT = `0x${'cd'.repeat(20)}`

/** The ranges a scan reads from `from` to `last`, halving its span where `refuses` says so. */
function rangesOf(
  from: bigint,
  last: bigint,
  span: bigint,
  refuses: (r: BlockRange) => boolean,
): BlockRange[] | null {
  const read: BlockRange[] = []
  for (let r = scanRange(from, last, span); r; r = scanRange(from, last, span)) {
    if (refuses(r)) {
      const smaller = halveSpan(r.to - r.from + 1n)
      if (smaller === null) return null
      span = smaller
      continue
    }
    read.push(r)
    from = r.to + 1n
  }
  return read
}

describe('reconcile scan rules', () => {
  test('the safe head leaves the confirmations, the head counting as one', () => {
    expect(safeHead(100n, 12)).toBe(89n)
    expect(safeHead(100n, 1)).toBe(100n)
  })

  test('ranges cover every block from the start to the safe head once, none wider than the span', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 5_000n }),
        fc.bigInt({ min: -10n, max: 2_000n }),
        fc.bigInt({ min: 1n, max: 300n }),
        fc.option(fc.bigInt({ min: 1n, max: 300n }), { nil: null }),
        (from, length, span, cap) => {
          const last = from + length
          // A node refusing ranges wider than `cap` blocks: the scan halves until they fit.
          const ranges = rangesOf(from, last, span, (r) => cap !== null && r.to - r.from + 1n > cap)
          expect(ranges).not.toBeNull()
          let next = from
          for (const r of ranges!) {
            expect(r.from).toBe(next)
            expect(r.to).toBeGreaterThanOrEqual(r.from)
            expect(r.to - r.from + 1n).toBeLessThanOrEqual(span)
            if (cap !== null) expect(r.to - r.from + 1n).toBeLessThanOrEqual(cap)
            next = r.to + 1n
          }
          expect(next).toBe(last >= from ? last + 1n : from)
        },
      ),
    )
  })

  test('a single block refused is a real refusal, not a range to halve', () => {
    expect(halveSpan(1n)).toBeNull()
    expect(halveSpan(5n)).toBe(2n)
    expect(rangesOf(0n, 10n, 8n, () => true)).toBeNull()
  })

  test('the scan resumes after its checkpoint, and from the first block when that block was replaced', () => {
    expect(resumeFrom(null, undefined, 40n)).toEqual({ from: 40n, replaced: false })
    expect(resumeFrom({ block: 70n, blockHash: '0xAa' }, '0xaa', 40n)).toEqual({
      from: 71n,
      replaced: false,
    })
    expect(resumeFrom({ block: 70n, blockHash: '0xaa' }, '0xbb', 40n)).toEqual({
      from: 40n,
      replaced: true,
    })
    expect(resumeFrom({ block: 70n, blockHash: null }, undefined, 40n)).toEqual({
      from: 71n,
      replaced: false,
    })
    // A checkpoint below a later deployment block (the setting moved on) starts at the latter.
    expect(resumeFrom({ block: 10n, blockHash: null }, undefined, 40n).from).toBe(40n)
  })

  test("providers' refusals of a log range are told from rate limits and failures", () => {
    for (const refusal of [
      'query returned more than 10000 results',
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size',
      'eth_getLogs is limited to a 10,000 range',
      'exceed maximum block range: 5000',
      'block range is too wide',
      'ranges over 10000 blocks are not supported',
      'requested too many blocks from 0 to 20000, maximum is set to 2048',
      'Block range too large',
    ])
      expect(isRangeRefusal(refusal), refusal).toBe(true)
    for (const other of [
      'rate limit exceeded',
      'Too Many Requests',
      'internal error',
      'HTTP request failed. Status: 500',
      'execution reverted',
    ])
      expect(isRangeRefusal(other), other).toBe(false)
  })

  test('only unknown and mismatched payouts raise alarms', () => {
    expect(payoutAlarmKind('unknown')).toBe('payout_unknown')
    expect(payoutAlarmKind('mismatch')).toBe('payout_mismatch')
    expect(payoutAlarmKind('confirmed')).toBeNull()
    expect(payoutAlarmKind('known')).toBeNull()
  })
})

describe('unexplained outflows', () => {
  const address = fc.constantFrom(
    `0x${'01'.repeat(20)}`,
    `0x${'02'.repeat(20)}`,
    `0x${'03'.repeat(20)}`,
  )
  const tx = fc.constantFrom(`0x${'e1'.repeat(32)}`, `0x${'e2'.repeat(32)}`)
  const units = fc.bigInt({ min: 1n, max: 3n })
  /** A vault payout: its event and the Transfer it made, in one transaction. */
  const payout = fc.record({ txHash: tx, to: address, units })

  const transferOf = (p: VaultSending, logIndex: number, from = VAULT): TokenOutflow => ({
    txHash: p.txHash,
    logIndex,
    from,
    to: p.to,
    units: p.units,
  })

  test('every Transfer of the vault with its own Paid or MovedToCold is explained', () => {
    fc.assert(
      fc.property(fc.array(payout, { maxLength: 12 }), (payouts) => {
        const transfers = payouts.map((p, i) => transferOf(p, i))
        expect(unexplainedOutflows(transfers, payouts, VAULT)).toEqual([])
        // Addresses in any case: the chain's checksummed spelling is the same address.
        const shouted = payouts.map((p) => ({ ...p, to: p.to.toUpperCase().replace('0X', '0x') }))
        expect(unexplainedOutflows(transfers, shouted, VAULT.toUpperCase())).toEqual([])
      }),
    )
  })

  test('each event explains one Transfer only: as many stay unexplained as events are missing', () => {
    fc.assert(
      fc.property(
        fc.array(payout, { maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (payouts, kept) => {
          const transfers = payouts.map((p, i) => transferOf(p, i))
          const events = payouts.filter((_, i) => kept[i])
          const left = unexplainedOutflows(transfers, events, VAULT)
          expect(left).toHaveLength(payouts.length - events.length)
          // The same money, to the same address, in the same transaction as a missing event.
          const key = (o: VaultSending) => `${o.txHash}:${o.to}:${o.units}`
          const missing = payouts.filter((_, i) => !kept[i]).map(key)
          expect(left.map(key).sort()).toEqual(missing.sort())
        },
      ),
    )
  })

  test('an event of another transaction, address or amount explains nothing', () => {
    const paid: VaultSending = { txHash: `0x${'e1'.repeat(32)}`, to: HOT, units: 5n }
    const elsewhere = [
      { ...paid, txHash: `0x${'e2'.repeat(32)}` },
      { ...paid, to: VAULT },
      { ...paid, units: 6n },
    ]
    expect(unexplainedOutflows([transferOf(paid, 0)], elsewhere, VAULT)).toHaveLength(1)
  })

  test('anything out of the hot wallet or the deposit address is unexplained; zero moves nothing', () => {
    fc.assert(
      fc.property(fc.array(payout, { maxLength: 8 }), (payouts) => {
        // The vault's events do not explain the same money leaving another address.
        const fromHot = payouts.map((p, i) => transferOf(p, i, HOT))
        expect(unexplainedOutflows(fromHot, payouts, VAULT)).toEqual(fromHot)
        const zero = payouts.map((p, i) => ({ ...transferOf(p, i, HOT), units: 0n }))
        expect(unexplainedOutflows(zero, [], VAULT)).toEqual([])
      }),
    )
  })
})
