// What proofs of liabilities show about other users, measured on a snapshot of random users
// (`node scripts/bench/por-privacy.ts [users, 10000] [snapshots, 20]`): per proof, the sibling
// sums that are not zero and those that are one other leaf's part alone; for two proofs, what
// they show together; and how far the leaf count (padding included) pins down the number of
// users. Prints a Markdown summary; the figures in docs/proof-of-liabilities.md come from it.
import { randomBytes } from 'node:crypto'
import { buildSnapshotTree, readSum, SUM_BYTES, type AccountBalance } from '@hope/por-verify'
import { nodeHashing } from '@hope/por-verify/build-in-worker'

const users = Number(process.argv[2] ?? 10_000)
const snapshots = Number(process.argv[3] ?? 20)
const PAIRS = 2_000

/** Random users: USDT up to 10,000 at scale 6 and HOPE up to 10,000; one in ten holds nothing. */
function randomAccounts(count: number): AccountBalance[] {
  return Array.from({ length: count }, () => {
    const r = randomBytes(36)
    const empty = r[35]! < 26
    return {
      address: `0x${r.subarray(0, 20).toString('hex')}`,
      usdt: empty ? 0n : r.readBigUInt64BE(20) % 10_000_000_000n,
      hope: empty ? 0n : (r.readBigUInt64BE(28) % 10_000n) * 10n ** 18n,
    }
  })
}

const accounts = randomAccounts(users)
const tree = buildSnapshotTree({
  snapshotId: 1n,
  secret: randomBytes(32),
  accounts,
  hashing: nodeHashing,
})
const { leaves } = tree.state

// Non-zero leaves by position, to count those under any node.
const nonZeroAt: number[] = []
for (let r = 0; r < leaves.count; r++)
  if (readSum(leaves.usdt, r * SUM_BYTES) !== 0n || readSum(leaves.hope, r * SUM_BYTES) !== 0n)
    nonZeroAt.push(leaves.index[r]!)
const below = (value: number) => {
  let lo = 0
  let hi = nonZeroAt.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (nonZeroAt[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
const nonZeroUnder = (level: number, index: number) =>
  below((index + 1) * 2 ** level) - below(index * 2 ** level)

/** The non-zero sibling nodes of one user's proof, as "level:index", with how many leaves. */
function shown(address: string): Map<string, number> {
  const nodes = new Map<string, number>()
  for (const part of tree.partsFor(address)!)
    part.path.forEach((sibling, level) => {
      if (sibling.usdt === '0' && sibling.hope === '0') return
      const index = (Math.floor(part.position / 2 ** level) ^ 1) >>> 0
      nodes.set(`${level}:${index}`, nonZeroUnder(level, index))
    })
  return nodes
}

const perPart: number[] = []
const perProof: number[] = []
const singlePerProof: number[] = []
const lowestLevel: number[] = []
for (const account of accounts) {
  for (const part of tree.partsFor(account.address)!) {
    const levels = part.path.flatMap((s, level) =>
      s.usdt !== '0' || s.hope !== '0' ? [level] : [],
    )
    perPart.push(levels.length)
    if (levels.length) lowestLevel.push(levels[0]!)
  }
  const nodes = shown(account.address)
  perProof.push(nodes.size)
  singlePerProof.push([...nodes.values()].filter((n) => n === 1).length)
}

const pairUnion: number[] = []
const pairShared: number[] = []
for (let i = 0; i < PAIRS; i++) {
  const a = shown(accounts[Math.floor(Math.random() * users)]!.address)
  const b = shown(accounts[Math.floor(Math.random() * users)]!.address)
  const union = new Set([...a.keys(), ...b.keys()])
  pairUnion.push(union.size)
  pairShared.push(a.size + b.size - union.size)
}

// The leaf count over snapshots of the same users, each with its own secret; `real` parts.
const real = perPart.length
const leafCounts: number[] = [tree.leafCount]
for (let s = 1; s < snapshots; s++)
  leafCounts.push(
    buildSnapshotTree({
      snapshotId: BigInt(s + 1),
      secret: randomBytes(32),
      accounts,
      hashing: nodeHashing,
    }).leafCount,
  )

const sorted = (v: number[]) => [...v].sort((x, y) => x - y)
const stats = (v: number[]) => {
  const s = sorted(v)
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!
  return `median ${q(0.5)}, 90th percentile ${q(0.9)}, least ${s[0]}, most ${s.at(-1)}`
}
const histogram = (v: number[]) =>
  Object.entries(v.reduce<Record<number, number>>((h, x) => ({ ...h, [x]: (h[x] ?? 0) + 1 }), {}))
    .map(([k, n]) => `${k}: ${((100 * n) / v.length).toFixed(1)}%`)
    .join(', ')

console.info(`## ${users.toLocaleString('en-US')} users, ${nonZeroAt.length} non-zero leaves
- parts: ${real} (${(real / users).toFixed(2)} a user); leaves with padding: ${tree.leafCount}
- non-zero sibling sums on one part's path (of 32): ${stats(perPart)}
- lowest level of a non-zero sibling: ${stats(lowestLevel)}
- distinct non-zero sibling sums in one proof (all parts): ${stats(perProof)}
- of those, sums of a single non-zero leaf (one part of one other user): ${stats(singlePerProof)}
  (${histogram(singlePerProof)})
- two proofs (${PAIRS} random pairs): distinct non-zero sums ${stats(pairUnion)}; shared ${stats(pairShared)}
- leaf count over ${snapshots} snapshots of the same users: ${stats(leafCounts)} (parts alone ${real})`)
