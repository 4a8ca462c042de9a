import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { encodeSum, nobleHashing, toHex, type Hashing } from './encoding.ts'
import {
  allocateLevel,
  hashLeaf,
  hashNode,
  hashPad,
  PadWriter,
  raiseLevel,
  rootOfPath,
  type TreeNode,
} from './tree.ts'

const h = nobleHashing
const sumArb = fc.bigInt({ min: 0n, max: 2n ** 100n })
const nodeArb = fc.record({
  hash: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  usdt: sumArb,
  hope: sumArb,
})
const leaf = (name: number, usdt: bigint, hope = 0n): TreeNode => ({
  hash: hashLeaf(h, {
    snapshotId: 1n,
    address: new Uint8Array(20).fill(name),
    part: 0,
    salt: new Uint8Array(32).fill(name),
    usdt,
    hope,
  }),
  usdt,
  hope,
})

describe('node hash', () => {
  test('binds both children’s sums: value moved between siblings changes the hash', () => {
    fc.assert(
      fc.property(
        nodeArb,
        nodeArb,
        fc.bigInt({ min: 1n, max: 2n ** 90n }),
        (left, right, delta) => {
          fc.pre(right.usdt >= delta)
          const honest = hashNode(h, left, right)
          const moved = hashNode(
            h,
            { ...left, usdt: left.usdt + delta },
            { ...right, usdt: right.usdt - delta },
          )
          expect(moved.usdt).toBe(honest.usdt)
          expect(toHex(moved.hash)).not.toBe(toHex(honest.hash))
        },
      ),
    )
  })

  // Hu, Zhang and Guo (IACR ePrint 2018/1139): when a node commits to its total only, a prover
  // can publish max(a, b) as the total of two users holding a and b, and show each a sibling
  // sum that makes their own path add up. The same forgery against our node hash is caught.
  test('the parent-sum-only attack of 2018/1139 passes a total-only hash and fails ours', () => {
    const weakNode = (hashing: Hashing, l: TreeNode, r: TreeNode): TreeNode => {
      const usdt = l.usdt + r.usdt
      const input = new Uint8Array([...l.hash, ...r.hash, ...encodeSum(usdt)])
      return { hash: hashing.sha256(input), usdt, hope: 0n }
    }
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (a, b) => {
          const alice = leaf(1, a)
          const bob = leaf(2, b)
          const claimed = a > b ? a : b // liabilities understated by min(a, b)
          // The sibling sums each user is shown: whatever makes their path reach `claimed`.
          const toAlice = { hash: bob.hash, usdt: claimed - a, hope: 0n }
          const toBob = { hash: alice.hash, usdt: claimed - b, hope: 0n }

          const weakRoot = weakNode(h, { ...alice, usdt: a }, { ...bob, usdt: claimed - a })
          const weakAlice = weakNode(h, alice, toAlice)
          const weakBob = weakNode(h, toBob, bob)
          expect([weakAlice.usdt, weakBob.usdt]).toEqual([claimed, claimed])
          expect(toHex(weakAlice.hash)).toBe(toHex(weakRoot.hash))
          expect(toHex(weakBob.hash)).toBe(toHex(weakRoot.hash)) // both fooled

          const ourAlice = rootOfPath(h, alice, 0, [toAlice])
          const ourBob = rootOfPath(h, bob, 1, [toBob])
          expect(toHex(ourAlice.hash)).not.toBe(toHex(ourBob.hash)) // one root cannot serve both
          const honest = hashNode(h, alice, bob)
          expect(honest.usdt).toBe(a + b)
          expect(toHex(ourAlice.hash)).not.toBe(toHex(honest.hash))
        },
      ),
    )
  })

  test('refuses a sum that is negative or reaches 2^127', () => {
    const zero = leaf(3, 0n)
    expect(() => hashNode(h, { ...zero, usdt: -1n }, zero)).toThrow(RangeError)
    expect(() => hashNode(h, { ...zero, hope: 2n ** 126n }, { ...zero, hope: 2n ** 126n })).toThrow(
      RangeError,
    )
    expect(() =>
      hashNode(h, { ...zero, hope: 2n ** 126n }, { ...zero, hope: 2n ** 126n - 1n }),
    ).not.toThrow()
  })
})

describe('raiseLevel', () => {
  test('computes the same parents as hashNode, with a pad for a missing sibling', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(63), { minLength: 1, maxLength: 20 }),
        fc.array(nodeArb, { minLength: 20, maxLength: 20 }),
        fc.nat(5),
        (indexes, nodes, level) => {
          indexes.sort((x, y) => x - y)
          const padSalt = new Uint8Array(32).fill(9)
          const pads = new PadWriter(h, 4n, padSalt)
          const from = allocateLevel(indexes.length)
          from.count = indexes.length
          indexes.forEach((index, i) => {
            from.index[i] = index
            from.hash.set(nodes[i]!.hash, i * 32)
            from.usdt.set(encodeSum(nodes[i]!.usdt), i * 16)
            from.hope.set(encodeSum(nodes[i]!.hope), i * 16)
          })
          const byIndex = new Map(indexes.map((index, i) => [index, nodes[i]!]))
          const padOf = (index: number): TreeNode => {
            const hash = new Uint8Array(32)
            pads.write(hash, 0, level, index)
            return { hash, usdt: 0n, hope: 0n }
          }
          const parents = [...new Set(indexes.map((i) => i >>> 1))]
          const expected = parents.map((p) => {
            const l = byIndex.get(2 * p) ?? padOf(2 * p)
            const r = byIndex.get(2 * p + 1) ?? padOf(2 * p + 1)
            return { index: p, ...hashNode(h, l, r) }
          })
          raiseLevel(h, pads, level, from, from) // in place
          expect(from.count).toBe(parents.length)
          expected.forEach((e, i) => {
            expect(from.index[i]).toBe(e.index)
            expect(toHex(from.hash.subarray(i * 32, i * 32 + 32))).toBe(toHex(e.hash))
            expect(toHex(from.usdt.subarray(i * 16, i * 16 + 16))).toBe(toHex(encodeSum(e.usdt)))
            expect(toHex(from.hope.subarray(i * 16, i * 16 + 16))).toBe(toHex(encodeSum(e.hope)))
          })
        },
      ),
    )
  })

  test('pads: one per (level, index) and snapshot, each like any other hash', () => {
    const pads = new PadWriter(h, 4n, new Uint8Array(32))
    const pad = (level: number, index: number) => {
      const out = new Uint8Array(32)
      pads.write(out, 0, level, index)
      return toHex(out)
    }
    expect(pad(0, 1)).not.toBe(pad(0, 2))
    // Above level 0 too: an empty subtree's pad no longer repeats along a level.
    expect(pad(3, 1)).not.toBe(pad(3, 2))
    expect(pad(3, 1)).not.toBe(pad(4, 1))
    expect(pad(3, 1)).toBe(toHex(hashPad(h, 4n, 3, 1, new Uint8Array(32))))
    const other = new PadWriter(h, 5n, new Uint8Array(32))
    const out = new Uint8Array(32)
    other.write(out, 0, 3, 1)
    expect(toHex(out)).not.toBe(pad(3, 1))
    const salted = new PadWriter(h, 4n, new Uint8Array(32).fill(1))
    salted.write(out, 0, 3, 1)
    expect(toHex(out)).not.toBe(pad(3, 1))
  })
})
