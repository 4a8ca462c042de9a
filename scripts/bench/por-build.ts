// One proof-of-liabilities build, run by por.ts in a process of its own so that its peak RSS is
// its own: `node scripts/bench/por-build.ts <users>` prints one JSON line of figures.
import { randomBytes } from 'node:crypto'
import { packAccounts } from '@hope/por-verify'
import { buildInWorker } from '@hope/por-verify/build-in-worker'

const users = Number(process.argv[2])

/** Random addresses and balances: USDT up to 10,000 at scale 6, HOPE up to 10,000 at scale 18. */
function* accounts() {
  for (let i = 0; i < users; i++) {
    const r = randomBytes(36)
    yield {
      address: `0x${r.subarray(0, 20).toString('hex')}`,
      usdt: r.readBigUInt64BE(20) % 10_000_000_000n,
      hope: (r.readBigUInt64BE(28) % 10_000n) * 10n ** 18n,
    }
  }
}

const t0 = performance.now()
const packed = packAccounts(accounts())
const t1 = performance.now()
const tree = await buildInWorker({ snapshotId: 1n, secret: randomBytes(32), accounts: packed })
const t2 = performance.now()
const someone = `0x${Buffer.from(tree.state.accountAddress.subarray(0, 20)).toString('hex')}`
const proofRuns = 100
for (let i = 0; i < proofRuns; i++) tree.partsFor(someone)
const t3 = performance.now()
// What a proof reveals: the sibling sums on a user's paths that are not zero (the others are
// empty subtrees), over a sample of users.
const nonZero: number[] = []
const sample = Math.min(users, 200)
for (let i = 0; i < sample; i++) {
  const at = Math.floor((i * users) / sample) * 20
  const address = `0x${Buffer.from(tree.state.accountAddress.subarray(at, at + 20)).toString('hex')}`
  for (const part of tree.partsFor(address) ?? [])
    nonZero.push(part.path.filter((s) => s.usdt !== '0' || s.hope !== '0').length)
}
nonZero.sort((a, b) => a - b)
console.info(
  JSON.stringify({
    packSeconds: (t1 - t0) / 1000,
    buildSeconds: (t2 - t1) / 1000,
    leaves: tree.leafCount,
    proofMs: (t3 - t2) / proofRuns,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    nonZeroSiblingsMedian: nonZero[Math.floor(nonZero.length / 2)] ?? 0,
    nonZeroSiblingsMax: nonZero.at(-1) ?? 0,
  }),
)
