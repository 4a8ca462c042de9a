import fc from 'fast-check'
import { formatUnits } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { buildSnapshotTree, type AccountBalance } from './build.ts'
import { SUM_BOUND } from './encoding.ts'
import { parseProofFile, type ProofFile, type ReserveSignature } from './proof.ts'
import {
  accountsArb,
  addressArb,
  failed,
  fakeChain,
  HEAD,
  LEDGER_CUT,
  NOW,
  PUBLISHED_AT,
  proofOf,
  RESERVE_ADDRESSES,
  RESERVE_KEYS,
  SECRET,
  signReserves,
  signVault,
  PINNED,
  VAULT,
} from './testing.ts'
import { verifyProof as verify, type ChainReaders, type VerifyOptions } from './verify.ts'

/** The verifier as a user runs it: with the official registry and token. */
const verifyProof = (proof: ProofFile, chain: ChainReaders, options: VerifyOptions = {}) =>
  verify(proof, chain, { pinned: PINNED, ...options })

const HEIGHT = 8
const build = (accounts: AccountBalance[], snapshotId = 5n) =>
  buildSnapshotTree({ snapshotId, secret: SECRET, accounts, height: HEIGHT })
const clone = (proof: ProofFile): ProofFile => structuredClone(proof)

let reserves: ReserveSignature[]
beforeAll(async () => {
  reserves = await signReserves()
})

describe('verifyProof', () => {
  test('every user of a random balance set verifies, each check holding', async () => {
    await fc.assert(
      fc.asyncProperty(accountsArb(), async (accounts) => {
        const tree = build(accounts)
        const chain = fakeChain(tree)
        for (const account of accounts) {
          const proof = proofOf(tree, account.address, reserves)
          expect(parseProofFile(JSON.parse(JSON.stringify(proof)), { height: HEIGHT })).toEqual({
            ok: true,
            proof,
          })
          const result = await verifyProof(proof, chain, { expected: account })
          expect(failed(result.checks)).toEqual([])
          expect(result.checks.map((c) => c.id)).toEqual([
            'pinned',
            'code',
            'latest',
            'rules',
            'leaves',
            'sums',
            'root',
            'totals',
            'balance',
            'chain',
            'anchor',
            'reserve-signatures',
            'reserves',
            'recheck',
          ])
        }
      }),
      { numRuns: 25 },
    )
  })

  test('a user left out cannot verify against the published root', async () => {
    await fc.assert(
      fc.asyncProperty(accountsArb(), addressArb, async (accounts, outsider) => {
        fc.pre(!accounts.some((a) => a.address === outsider))
        const left = { address: outsider, usdt: 7_000_000n, hope: 0n }
        const published = build(accounts)
        const chain = fakeChain(published)
        // A proof from a tree that did include the user: its root is not the one anchored.
        const fromOtherTree = proofOf(build([...accounts, left]), outsider, reserves)
        expect(failed((await verifyProof(fromOtherTree, chain)).checks)).toContain('anchor')
        // The same parts claimed under the published root: the path does not lead to it.
        const claimed = { ...clone(fromOtherTree), root: published.root }
        const { checks } = await verifyProof(claimed, chain)
        expect(failed(checks)).toContain('root')
      }),
      { numRuns: 20 },
    )
  })

  test('a balance recorded lower than the user knows fails, and so does a lowered part', async () => {
    await fc.assert(
      fc.asyncProperty(
        accountsArb(),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        async (accounts, cut) => {
          const [victim, ...others] = accounts as [AccountBalance, ...AccountBalance[]]
          const recorded = {
            ...victim,
            usdt: victim.usdt >= cut ? victim.usdt - cut : 0n,
            hope: victim.hope,
          }
          fc.pre(recorded.usdt !== victim.usdt)
          const tree = build([recorded, ...others])
          const proof = proofOf(tree, victim.address, reserves)
          const result = await verifyProof(proof, fakeChain(tree), { expected: victim })
          expect(failed(result.checks)).toEqual(['balance'])

          // The file edited to show the right balance: the leaves no longer lead to the root.
          const honest = proofOf(build(accounts), victim.address, reserves)
          const part = honest.parts.find((p) => BigInt(p.usdt) > 0n)
          fc.pre(part !== undefined)
          part!.usdt = (BigInt(part!.usdt) - 1n).toString()
          honest.balance.usdt = (BigInt(honest.balance.usdt) - 1n).toString()
          expect(failed((await verifyProof(honest, fakeChain(build(accounts)))).checks)).toContain(
            'root',
          )
        },
      ),
      { numRuns: 20 },
    )
  })

  test('a sibling sum lowered anywhere on a path changes the root', async () => {
    await fc.assert(
      fc.asyncProperty(
        accountsArb(),
        fc.nat(HEIGHT - 1),
        fc.constantFrom('usdt', 'hope'),
        async (accounts, level, currency) => {
          const tree = build(accounts)
          const proof = proofOf(tree, accounts[0]!.address, reserves)
          const sibling = proof.parts[0]!.path[level]!
          fc.pre(BigInt(sibling[currency]) > 0n)
          sibling[currency] = (BigInt(sibling[currency]) - 1n).toString()
          expect(failed((await verifyProof(proof, fakeChain(tree))).checks)).toEqual([
            'root',
            'totals',
          ])
        },
      ),
      { numRuns: 30 },
    )
  })

  test('a sibling sum negative or at 2^127 is refused', async () => {
    const accounts = [{ address: `0x${'ab'.repeat(20)}`, usdt: 5n, hope: 6n }]
    const tree = build(accounts)
    const proof = proofOf(tree, accounts[0]!.address, reserves)
    for (const bad of [
      '-1',
      (-(2n ** 128n) + 1n).toString(),
      SUM_BOUND.toString(),
      (2n ** 128n).toString(),
    ]) {
      const tampered = clone(proof)
      tampered.parts[0]!.path[3]!.usdt = bad
      const { checks } = await verifyProof(tampered, fakeChain(tree))
      expect(failed(checks)).toEqual(expect.arrayContaining(['sums', 'root']))
      expect(checks.find((c) => c.id === 'sums')!.detail).toMatch(/level 3/)
      if (bad.startsWith('-')) expect(parseProofFile(tampered, { height: HEIGHT }).ok).toBe(false)
    }
    // Two sums each below 2^127 whose parent is not.
    const overflow = clone(proof)
    overflow.parts.forEach((p) => (p.path[0]!.hope = (SUM_BOUND - 1n).toString()))
    const { checks } = await verifyProof(overflow, fakeChain(tree))
    expect(checks.find((c) => c.id === 'sums')).toMatchObject({
      ok: false,
      detail: /level 1: a parent sum/,
    })
  })

  test("one user's leaf shown to another user does not verify", async () => {
    await fc.assert(
      fc.asyncProperty(accountsArb(), addressArb, async (accounts, twin) => {
        fc.pre(!accounts.some((a) => a.address === twin))
        const tree = build(accounts)
        // The twin has the same balance; the platform shows them the first user's leaves.
        const borrowed = {
          ...proofOf(tree, accounts[0]!.address, reserves),
          address: twin as `0x${string}`,
        }
        const { checks } = await verifyProof(borrowed, fakeChain(tree))
        expect(failed(checks)).toEqual(['root', 'totals'])
        // The unchanged file names the other user: the twin's own address does not match it.
        const shown = proofOf(tree, accounts[0]!.address, reserves)
        const result = await verifyProof(shown, fakeChain(tree), { expected: { address: twin } })
        expect(failed(result.checks)).toEqual(['balance'])
      }),
      { numRuns: 20 },
    )
  })

  test('a root, totals or block on chain other than the proof’s fails the anchor check', async () => {
    const accounts = [
      { address: `0x${'01'.repeat(20)}`, usdt: 10n, hope: 1n },
      { address: `0x${'02'.repeat(20)}`, usdt: 20n, hope: 2n },
    ]
    const tree = build(accounts)
    const proof = proofOf(tree, accounts[0]!.address, reserves)
    const other = build(accounts, 6n)
    for (const anchored of [
      { root: other.root },
      { totalUsdt: tree.totals.usdt + 1n },
      { totalHope: tree.totals.hope - 1n },
      { blockNumber: 121n },
      { root: `0x${'00'.repeat(32)}` as const },
    ]) {
      const { checks } = await verifyProof(proof, fakeChain(tree, { anchored }))
      // Reserves are read at the registry's block (holding nothing here) against the
      // registry's liabilities (one unit more than they hold here).
      expect(failed(checks)).toEqual(
        'blockNumber' in anchored
          ? ['anchor', 'reserves']
          : 'totalUsdt' in anchored
            ? ['anchor', 'reserves', 'recheck']
            : ['anchor'],
      )
    }
    const wrongChain = await verifyProof(proof, fakeChain(tree, { chainId: 1 }))
    expect(failed(wrongChain.checks)).toEqual(['chain'])
    const unreadable = await verifyProof(proof, {
      ...fakeChain(tree),
      readRegistry: () => Promise.reject(new Error('connection refused')),
    })
    expect(unreadable.checks.find((c) => c.id === 'anchor')).toMatchObject({
      ok: false,
      detail: 'could not read the registry: connection refused',
    })
  })

  test('reserves below total USDT liabilities fail; exactly covered holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        accountsArb(),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        async (accounts, short) => {
          const tree = build(accounts)
          fc.pre(tree.totals.usdt >= short)
          const proof = proofOf(tree, accounts[0]!.address, reserves)
          const below = await verifyProof(
            proof,
            fakeChain(tree, { reserves: tree.totals.usdt - short }),
          )
          expect(failed(below.checks)).toEqual(['reserves', 'recheck'])
          const covered = await verifyProof(proof, fakeChain(tree, { reserves: tree.totals.usdt }))
          expect(covered.ok).toBe(true)
        },
      ),
      { numRuns: 10 },
    )
  })

  test('with an 18-decimal token, reserves count at 10^12 units per USDT unit, exact to the unit', async () => {
    await fc.assert(
      fc.asyncProperty(accountsArb(), async (accounts) => {
        const tree = build(accounts)
        fc.pre(tree.totals.usdt > 0n)
        const proof = proofOf(tree, accounts[0]!.address, reserves)
        const chain = (held: bigint) =>
          fakeChain(tree, { reserves: held, anchored: { tokenDecimals: 18 } })
        const exact = tree.totals.usdt * 10n ** 12n
        const covered = await verifyProof(proof, chain(exact))
        expect(covered.ok).toBe(true)
        const below = await verifyProof(proof, chain(exact - 1n))
        expect(failed(below.checks)).toEqual(['reserves', 'recheck'])
        expect(below.checks.find((c) => c.id === 'reserves')!.detail).toContain(
          `${formatUnits(exact - 1n, 18)} of the token (18 decimals) held at block`,
        )
      }),
      { numRuns: 10 },
    )
    // 123.456789 USDT ↔ 123456789000000000000 units of the token.
    const tree = build([{ address: RESERVE_ADDRESSES[0]!, usdt: 123_456_789n, hope: 0n }])
    const proof = proofOf(tree, RESERVE_ADDRESSES[0]!, reserves)
    const at18 = (held: bigint) =>
      verifyProof(proof, fakeChain(tree, { reserves: held, anchored: { tokenDecimals: 18 } }))
    expect((await at18(123_456_789_000_000_000_000n)).ok).toBe(true)
    expect(failed((await at18(123_456_788_999_999_999_999n)).checks)).toEqual([
      'reserves',
      'recheck',
    ])
  })

  test('a reserve signature over another message, by another key or listed twice fails', async () => {
    const accounts = [{ address: `0x${'03'.repeat(20)}`, usdt: 10n, hope: 1n }]
    const tree = build(accounts)
    const proof = proofOf(tree, accounts[0]!.address, reserves)
    const [first, second] = reserves as [ReserveSignature, ReserveSignature]
    for (const list of [
      [{ ...first, message: `${first.message} ` }, second],
      [{ ...first, signature: second.signature }, second],
      [first, first],
    ]) {
      const { checks } = await verifyProof({ ...proof, reserves: list }, fakeChain(tree))
      expect(failed(checks)).toEqual(['reserve-signatures'])
    }
  })

  test('a reserve that is a contract is vouched for by its owner’s signature (EIP-1271)', async () => {
    const accounts = [{ address: `0x${'06'.repeat(20)}`, usdt: 10n, hope: 1n }]
    const tree = build(accounts)
    const withVault = fakeChain(tree, { anchored: { reserves: [VAULT, ...RESERVE_ADDRESSES] } })
    const asked: { address: string; blockNumber: bigint }[] = []
    const proof = proofOf(tree, accounts[0]!.address, [...reserves, await signVault()])
    const result = await verifyProof(proof, {
      ...withVault,
      readContractSignature: (input) => {
        asked.push(input)
        return withVault.readContractSignature(input)
      },
    })
    expect(failed(result.checks)).toEqual([])
    expect(result.checks.find((c) => c.id === 'reserve-signatures')!.detail).toMatch(
      /3 reserve address\(es\), each signed by its key or, for 1 contract\(s\), by its owner/,
    )
    // Only the contract is asked, once, at block B where its balance is counted.
    expect(asked).toEqual([expect.objectContaining({ address: VAULT, blockNumber: 120n })])
  })

  test('a contract reserve’s statement signed by another key than its owner’s fails', async () => {
    const accounts = [{ address: `0x${'07'.repeat(20)}`, usdt: 10n, hope: 1n }]
    const tree = build(accounts)
    const chain = fakeChain(tree, { anchored: { reserves: [VAULT, ...RESERVE_ADDRESSES] } })
    // A reserve wallet's own key (the platform's, but not the vault's owner) signing for it.
    const proof = proofOf(tree, accounts[0]!.address, [
      ...reserves,
      await signVault(RESERVE_KEYS[0]!),
    ])
    const { checks } = await verifyProof(proof, chain)
    expect(failed(checks)).toEqual(['reserve-signatures'])
    expect(checks.find((c) => c.id === 'reserve-signatures')!.detail).toMatch(
      /neither that address's key's nor accepted by its contract at block 120/,
    )
    // The owner's signature, where the contract cannot be asked, or the chain does not answer.
    const honest = proofOf(tree, accounts[0]!.address, [...reserves, await signVault()])
    const { readContractSignature: _, ...withoutContracts } = chain
    expect(failed((await verifyProof(honest, withoutContracts)).checks)).toEqual([
      'reserve-signatures',
    ])
    const down = await verifyProof(honest, {
      ...chain,
      readContractSignature: () => Promise.reject(new Error('connection refused')),
    })
    expect(down.checks.find((c) => c.id === 'reserve-signatures')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/could not ask 0x0+a5 about its signature: connection refused/),
    })
  })

  test('two parts claiming one position or one part number fail', async () => {
    const accounts = [{ address: `0x${'04'.repeat(20)}`, usdt: 10n, hope: 1n }]
    const tree = build(accounts)
    const proof = proofOf(tree, accounts[0]!.address, reserves)
    const twice = { ...proof, parts: [proof.parts[0]!, proof.parts[0]!] }
    const { checks } = await verifyProof(twice, fakeChain(tree))
    expect(checks.find((c) => c.id === 'leaves')).toMatchObject({ ok: false })
  })
})

describe('the balance the app showed', () => {
  test('HOPE at least what the accounts showed: less fails, more (staked, pledged) holds', async () => {
    const accounts = [{ address: `0x${'05'.repeat(20)}`, usdt: 10n, hope: 5n }]
    const tree = build(accounts)
    const proof = proofOf(tree, accounts[0]!.address, reserves)
    const atLeast = (hopeAtLeast: bigint) =>
      verifyProof(proof, fakeChain(tree), { expected: { usdt: 10n, hopeAtLeast } })
    expect(failed((await atLeast(5n)).checks)).toEqual([])
    expect(failed((await atLeast(3n)).checks)).toEqual([])
    const short = await atLeast(6n)
    expect(short.checks.find((c) => c.id === 'balance')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/at least 0\.000000000000000006 HOPE expected/),
    })
  })
})

describe('an operator who times the proof', () => {
  const accounts = [
    { address: `0x${'11'.repeat(20)}`, usdt: 160_165_000_000n, hope: 0n },
    { address: `0x${'12'.repeat(20)}`, usdt: 1_000_000n, hope: 5n },
  ]
  const tree = build(accounts, 20n)
  let proof: ProofFile
  beforeAll(() => {
    proof = proofOf(tree, accounts[0]!.address, reserves)
  })

  test('on-demand snapshots: a registry without the 20-hour interval, or one published too soon, is refused', async () => {
    // A registry that lets snapshots follow one another 10 minutes apart.
    const quick = await verifyProof(proof, fakeChain(tree, { rules: { minInterval: 600n } }), {
      minIntervalHours: 20,
    })
    expect(failed(quick.checks)).toEqual(['rules'])
    expect(quick.checks.find((c) => c.id === 'rules')!.detail).toMatch(/less than 20 hours/)
    // Storage claiming a publication an hour after the previous one (a day is the fake's).
    const soon = await verifyProof(
      proof,
      fakeChain(tree, { anchored: { publishedAt: PUBLISHED_AT }, rules: { minInterval: 90_000n } }),
    )
    expect(failed(soon.checks)).toEqual(['rules'])
    expect(soon.checks.find((c) => c.id === 'rules')!.detail).toMatch(
      /after the previous snapshot, less than 90000/,
    )
    // The development chain's registry publishes minutes apart.
    const local = await verifyProof(proof, fakeChain(tree, { rules: { minInterval: 60n } }), {
      minIntervalHours: 0,
    })
    expect(local.ok).toBe(true)
  })

  test('a one-block loan: reserves covering at block B but not at the check block are refused', async () => {
    const loan = await verifyProof(
      proof,
      fakeChain(tree, { reserves: tree.totals.usdt * 2n, reservesAtCheck: 100_000_000_000n }),
    )
    expect(failed(loan.checks)).toEqual(['recheck'])
    expect(loan.checks.find((c) => c.id === 'recheck')!.detail).toMatch(
      /held at block 131 .* < liabilities/,
    )
    // A block B older than the registry allows at the publication.
    const old = await verifyProof(proof, fakeChain(tree, { rules: { maxBlockAge: 5n } }))
    expect(failed(old.checks)).toEqual(['rules'])
    expect(old.checks.find((c) => c.id === 'rules')!.detail).toMatch(
      /10 blocks old at the publication, more than 5/,
    )
  })

  test('time: a publication in the future, or a slow clock on a month-old snapshot, is refused', async () => {
    const future = PUBLISHED_AT + 240n * 3600n + 3600n
    const ahead = await verifyProof(proof, fakeChain(tree, { anchored: { publishedAt: future } }))
    expect(failed(ahead.checks)).toEqual(expect.arrayContaining(['latest']))
    expect(ahead.checks.find((c) => c.id === 'latest')!.detail).toMatch(/in the future/)
    // Five minutes of skew pass.
    const skew = await verifyProof(proof, fakeChain(tree), { now: NOW - 290_000 })
    expect(skew.ok).toBe(true)
    // The chain's head says the snapshot is 40 hours old; the user's clock is 30 days slow.
    const head = HEAD + 39n * 900n
    const slow = await verifyProof(proof, fakeChain(tree, { head }), {
      now: NOW - 30 * 86_400_000,
    })
    expect(failed(slow.checks)).toEqual(['latest'])
    expect(slow.checks.find((c) => c.id === 'latest')!.detail).toMatch(/40\.0 hours ago/)
  })

  test('the ledger cut and the leaf count are read from the chain, as published', async () => {
    const result = await verifyProof(proof, fakeChain(tree))
    expect(result.checks.find((c) => c.id === 'rules')!.facts).toMatchObject({
      ledgerCut: String(LEDGER_CUT),
    })
    // Storage rewritten after the publication (the event says another cut): refused.
    const rewritten = await verifyProof(
      proof,
      fakeChain(tree, { event: { ledgerCut: LEDGER_CUT + 7n } }),
    )
    expect(failed(rewritten.checks)).toEqual(['rules'])
    expect(rewritten.checks.find((c) => c.id === 'rules')!.detail).toMatch(
      /storage differs from what its publication said/,
    )
    const noLeaves = await verifyProof(proof, fakeChain(tree, { anchored: { leafCount: 0n } }))
    expect(failed(noLeaves.checks)).toEqual(['rules'])
  })

  test('a registry running other code than the published one is refused', async () => {
    const forged = await verifyProof(proof, fakeChain(tree, { codeHash: `0x${'66'.repeat(32)}` }))
    expect(failed(forged.checks)).toEqual(['code'])
    const gone = await verifyProof(proof, {
      ...fakeChain(tree),
      readCodeHash: async () => undefined,
    })
    expect(failed(gone.checks)).toEqual(['code'])
  })

  test('no false alarm: a newer snapshot waiting for its check block leaves the settled one valid', async () => {
    // Snapshot 21 published at block 150, its check block 151: the head at 150 has not reached it.
    const waiting = await verifyProof(proof, fakeChain(tree, { latestId: 21n, head: 150n }), {
      now: NOW - 880 * 4_000,
    })
    expect(waiting.checks.filter((c) => !c.ok)).toEqual([])
    expect(waiting.pending).toBe(21n)
    expect(waiting.checks.find((c) => c.id === 'latest')!.detail).toMatch(
      /snapshot 21 is published and waits for its check block/,
    )
    // Just settled (a few minutes by the chain's clock): the one before is still accepted.
    const justSettled = await verifyProof(proof, fakeChain(tree, { latestId: 21n, head: 200n }), {
      now: NOW - 830 * 4_000,
    })
    expect(failed(justSettled.checks)).toEqual([])
    // Settled long ago: serving the older one is a failure.
    const stale = await verifyProof(proof, fakeChain(tree, { latestId: 21n }))
    expect(failed(stale.checks)).toEqual(['latest'])
    expect(stale.checks.find((c) => c.id === 'latest')!.detail).toBe(
      'snapshot 20 is not the latest, 21 is',
    )
  })

  test('the proof’s own snapshot before its check block is not an answer yet; a node behind is not a reorg', async () => {
    const settling = await verifyProof(proof, fakeChain(tree, { head: 130n }), {
      now: NOW - 900 * 4_000,
    })
    expect(settling.ok).toBe(false)
    expect(settling.waiting).toEqual({ reason: 'settling', checkBlock: 131n, head: 130n })
    // A node whose head is before the publication block it is asked about.
    const behind = await verifyProof(proof, {
      ...fakeChain(tree),
      readBlock: async () => undefined,
    })
    expect(behind.waiting).toMatchObject({ reason: 'behind', block: 130n })
    expect(behind.checks.find((c) => c.id === 'latest')!.detail).toMatch(
      /does not have block 130 .* try again or another RPC endpoint/,
    )
  })
})
