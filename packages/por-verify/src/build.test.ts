import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  accountChunks,
  buildSnapshotTree,
  MIN_PADDING_LEAVES,
  nodeChunks,
  packAccounts,
  positionsIn,
  proofRanges,
  SnapshotTree,
  splitAmount,
  treeForAccount,
  type NodeChunk,
  type NodeRange,
} from './build.ts'
import { buildInWorker, nodeHashing } from './build-in-worker.ts'
import { encodeAddress, MAX_PARTS, nobleHashing, toHex } from './encoding.ts'
import type { ProofFile } from './proof.ts'
import { accountsArb, failed, fakeChain, PINNED, proofOf, SECRET, signReserves } from './testing.ts'
import { verifyProof as verify, type ChainReaders, type VerifyOptions } from './verify.ts'

/** The verifier as a user runs it: with the official registry and token. */
const verifyProof = (proof: ProofFile, chain: ChainReaders, options: VerifyOptions = {}) =>
  verify(proof, chain, { pinned: PINNED, ...options })

const address = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`
const accountsOf = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    address: address(i * 7919),
    usdt: BigInt(i) * 1_000_000n,
    hope: BigInt(i % 5) * 10n ** 18n,
  }))

describe('buildSnapshotTree', () => {
  test('splits each balance into 1–3 parts at distinct positions, totals the sums', () => {
    fc.assert(
      fc.property(accountsArb(20), (accounts) => {
        const tree = buildSnapshotTree({ snapshotId: 1n, secret: SECRET, accounts, height: 9 })
        const positions = new Set<number>()
        for (const account of accounts) {
          const parts = tree.partsFor(account.address)!
          expect(parts.length).toBeGreaterThanOrEqual(1)
          expect(parts.length).toBeLessThanOrEqual(MAX_PARTS)
          expect(parts.map((p) => p.part)).toEqual(parts.map((_, i) => i))
          expect(parts.reduce((s, p) => s + BigInt(p.usdt), 0n)).toBe(account.usdt)
          expect(parts.reduce((s, p) => s + BigInt(p.hope), 0n)).toBe(account.hope)
          for (const p of parts) positions.add(p.position)
          expect(tree.balanceOf(account.address.toUpperCase().replace('0X', '0x'))).toEqual({
            usdt: account.usdt,
            hope: account.hope,
          })
        }
        // The rest are padding leaves: up to half as many again (64 for a small tree).
        expect(tree.leafCount).toBeGreaterThanOrEqual(positions.size)
        expect(tree.leafCount - positions.size).toBeLessThanOrEqual(
          Math.max(Math.ceil(positions.size / 2), MIN_PADDING_LEAVES),
        )
        expect(tree.totals).toEqual({
          usdt: accounts.reduce((s, a) => s + a.usdt, 0n),
          hope: accounts.reduce((s, a) => s + a.hope, 0n),
        })
        expect(tree.partsFor(`0x${'ee'.repeat(20)}`)).toBeUndefined()
      }),
      { numRuns: 30 },
    )
  })

  test('is reproducible from the secret and differs under another secret or snapshot', () => {
    const accounts = accountsOf(50)
    const once = buildSnapshotTree({ snapshotId: 2n, secret: SECRET, accounts, height: 12 })
    const again = buildSnapshotTree({ snapshotId: 2n, secret: SECRET, accounts, height: 12 })
    expect(again.root).toBe(once.root)
    expect(again.partsFor(address(0))).toEqual(once.partsFor(address(0)))
    const otherSecret = buildSnapshotTree({
      snapshotId: 2n,
      secret: new Uint8Array(32).fill(1),
      accounts,
      height: 12,
    })
    expect(otherSecret.root).not.toBe(once.root)
    expect(otherSecret.partsFor(address(0))![0]!.position).not.toBe(
      once.partsFor(address(0))![0]!.position,
    )
    const otherSnapshot = buildSnapshotTree({
      snapshotId: 3n,
      secret: SECRET,
      accounts,
      height: 12,
    })
    expect(otherSnapshot.root).not.toBe(once.root)
  })

  test('at the real height of 32 every proof verifies', async () => {
    const accounts = accountsOf(300)
    const tree = buildSnapshotTree({ snapshotId: 9n, secret: SECRET, accounts })
    expect(tree.height).toBe(32)
    const reserves = await signReserves()
    const chain = fakeChain(tree)
    for (const account of accounts.filter((_, i) => i % 10 === 0)) {
      const proof = proofOf(tree, account.address, reserves)
      expect(proof.parts[0]!.path).toHaveLength(32)
      const { checks } = await verifyProof(proof, chain, { expected: account })
      expect(failed(checks)).toEqual([])
    }
  })

  test('an empty snapshot has a pad for a root and sums 0', () => {
    const tree = buildSnapshotTree({ snapshotId: 1n, secret: SECRET, accounts: [] })
    expect(tree.totals).toEqual({ usdt: 0n, hope: 0n })
    expect(tree.root).toMatch(/^0x[0-9a-f]{64}$/)
    expect(tree.leafCount).toBe(0)
  })

  test('refuses a repeated address, a short secret, a negative balance and an overflowing total', () => {
    const one = { address: address(1), usdt: 1n, hope: 1n }
    const build = (accounts: (typeof one)[], secret = SECRET) =>
      buildSnapshotTree({ snapshotId: 1n, secret, accounts, height: 10 })
    expect(() =>
      build([one, { ...one, address: one.address.toUpperCase().replace('0X', '0x') }]),
    ).toThrow(/listed twice/)
    expect(() => build([one], new Uint8Array(8))).toThrow(/secret/)
    expect(() => build([{ ...one, usdt: -1n }])).toThrow(RangeError)
    const half = 2n ** 126n
    expect(() =>
      build([
        { ...one, hope: half },
        { ...one, address: address(2), hope: half },
      ]),
    ).toThrow(/2\^127/)
  })

  test('splitAmount cuts an amount into non-negative parts that add up to it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 126n }),
        fc.integer({ min: 1, max: 3 }),
        fc.infiniteStream(fc.uint8Array({ minLength: 32, maxLength: 32 })),
        (amount, count, stream) => {
          const draws = stream[Symbol.iterator]()
          const parts = splitAmount(amount, count, (n) => draws.next().value!.subarray(0, n))
          expect(parts).toHaveLength(count)
          expect(parts.every((p) => p >= 0n)).toBe(true)
          expect(parts.reduce((s, p) => s + p, 0n)).toBe(amount)
        },
      ),
    )
  })
})

/** What the database answers for `ranges`: each chunk overlapping one, as the repository reads. */
function chunksFor(chunks: NodeChunk[], ranges: NodeRange[]): NodeChunk[] {
  return ranges.flatMap(({ level, from, to }) => {
    const ofLevel = chunks.filter((c) => c.level === level)
    const start = Math.max(
      0,
      ...ofLevel.filter((c) => c.firstIndex <= from).map((c) => c.firstIndex),
    )
    return ofLevel.filter((c) => c.firstIndex >= start && c.firstIndex < to)
  })
}

/** One account's proof parts rebuilt from a tree's stored chunks, as a request does. */
function fromStorage(tree: SnapshotTree, address: string) {
  const accounts = [...accountChunks(tree.state)]
  const key = toHex(encodeAddress(address))
  const chunk = accounts.filter((c) => toHex(c.firstAddress) <= key).at(-1)
  const positions = chunk && positionsIn(chunk.accounts, address)
  if (!positions) return undefined
  const shape = { height: tree.height, storedFrom: tree.state.storedFrom }
  const ranges = proofRanges(shape, positions)
  return treeForAccount({
    snapshotId: tree.snapshotId,
    secret: tree.state.secret,
    shape,
    address,
    positions,
    chunks: chunksFor([...nodeChunks(tree.state)], ranges),
  })
}

describe('a stored tree', () => {
  test('rebuilds every account’s proof, root and totals from the chunks its paths touch', () => {
    fc.assert(
      // Up to 40 accounts of up to 3 parts need a height of 8 (the builder keeps half free).
      fc.property(accountsArb(40), fc.integer({ min: 8, max: 14 }), (accounts, height) => {
        const tree = buildSnapshotTree({ snapshotId: 5n, secret: SECRET, accounts, height })
        for (const account of accounts) {
          const stored = fromStorage(tree, account.address)!
          expect(stored.root).toBe(tree.root)
          expect(stored.totals).toEqual(tree.totals)
          expect(stored.partsFor(account.address)).toEqual(tree.partsFor(account.address))
          expect(stored.balanceOf(account.address)).toEqual(tree.balanceOf(account.address))
        }
        expect(fromStorage(tree, `0x${'ee'.repeat(20)}`)).toBeUndefined()
      }),
      { numRuns: 25 },
    )
  })

  test('at the real height, the proofs rebuilt from storage verify', async () => {
    const accounts = accountsOf(400)
    const tree = buildSnapshotTree({ snapshotId: 9n, secret: SECRET, accounts })
    // Enough leaves that the lower siblings are recomputed from the leaves under them.
    expect(tree.state.storedFrom).toBeLessThan(tree.height)
    const reserves = await signReserves()
    const chain = fakeChain(tree)
    for (const account of accounts.filter((_, i) => i % 20 === 0)) {
      const proof = proofOf(fromStorage(tree, account.address)!, account.address, reserves)
      expect(proof).toEqual(proofOf(tree, account.address, reserves))
      const { checks } = await verifyProof(proof, chain, { expected: account })
      expect(failed(checks)).toEqual([])
    }
  })

  test('stores each node once: the leaves and the kept levels, in chunks', () => {
    const tree = buildSnapshotTree({ snapshotId: 9n, secret: SECRET, accounts: accountsOf(400) })
    const chunks = [...nodeChunks(tree.state)]
    const nodes = chunks.reduce((sum, c) => sum + c.nodes.length / 68, 0)
    const kept = tree.state.upper.reduce((sum, l) => sum + l.count, 0)
    expect(nodes).toBe(tree.leafCount + kept)
    expect(kept).toBeLessThanOrEqual(tree.leafCount)
  })
})

describe('padding', () => {
  test('no pad repeats: the empty subtrees on paths do not show how full the tree is', () => {
    const accounts = accountsOf(300)
    const tree = buildSnapshotTree({ snapshotId: 3n, secret: SECRET, accounts })
    const seen = new Map<string, string>()
    for (const account of accounts)
      for (const part of tree.partsFor(account.address)!)
        part.path.forEach((sibling, level) => {
          const at = `${level}:${(Math.floor(part.position / 2 ** level) ^ 1) >>> 0}`
          const other = seen.get(sibling.hash)
          if (other !== undefined) expect(other).toBe(at) // the same node, seen from two paths
          seen.set(sibling.hash, at)
        })
  })

  test('the number of leaves varies with the secret for the same accounts', () => {
    const accounts = accountsOf(200)
    const counts = new Set(
      [1, 2, 3, 4, 5].map(
        (k) =>
          buildSnapshotTree({ snapshotId: 1n, secret: new Uint8Array(32).fill(k), accounts })
            .leafCount,
      ),
    )
    expect(counts.size).toBeGreaterThan(1)
  })
})

describe('buildInWorker', () => {
  test('builds the same tree off the main thread, with Node’s SHA-256', async () => {
    const accounts = accountsOf(200)
    const inline = buildSnapshotTree({
      snapshotId: 4n,
      secret: SECRET,
      accounts,
      hashing: nobleHashing,
    })
    const packed = packAccounts(accounts)
    const tree = await buildInWorker({ snapshotId: 4n, secret: SECRET, accounts: packed })
    expect(tree).toBeInstanceOf(SnapshotTree)
    expect(tree.root).toBe(inline.root)
    expect(tree.totals).toEqual(inline.totals)
    expect(tree.partsFor(address(7919 * 3))).toEqual(inline.partsFor(address(7919 * 3)))
    expect(nodeHashing.sha256(new Uint8Array([1, 2]))).toEqual(
      Buffer.from(nobleHashing.sha256(new Uint8Array([1, 2]))),
    )
  })
})
