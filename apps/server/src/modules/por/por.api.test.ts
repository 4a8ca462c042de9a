import {
  CURRENCY_DECIMALS,
  parseAmount,
  type AdminPorPublishResult,
  type AdminPorSnapshot,
  type BalanceList,
  type Page,
  type PorLatest,
  type PorStatement,
  type RoutePath,
} from '@hope/api'
import {
  buildSnapshotTree,
  createProofFile,
  parseProofFile,
  type ReserveSignature,
} from '@hope/por-verify'
import { beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import { asAnotherSession, inTransaction } from '../../db/transaction.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  newOperator,
  registerUser,
  SEAL_KEY,
  useTestApp,
  type TestUser,
} from '../../testing/index.ts'
import * as repo from './por.repository.ts'
import { builtTreeOf } from '../../testing/por.ts'
import { storeTree } from './por.tree.ts'
import { reserveMessage, userLiability } from './por.rules.ts'

describe.each(databaseTargets())('proof of liabilities on $name', (target) => {
  // Withdrawals need a chain id; no request here reaches the chain.
  const t = useTestApp(target, { chain: connectChain('http://127.0.0.1:9', 31337) })
  let alice: TestUser
  let bob: TestUser
  let carol: TestUser
  let operatorToken: string

  /** Every user's books read the way a snapshot reads them. */
  const readBooks = () =>
    inTransaction(t.db.pool, async (q) => {
      await repo.beginLiabilitiesRead(q)
      return {
        users: await repo.userBooksPage(q, 0, 1_000),
        inFlight: await repo.inFlightWithdrawals(q),
      }
    })
  const booksOf = (rows: Awaited<ReturnType<typeof readBooks>>['users'], m: TestUser) =>
    rows.find((r) => r.id === m.id)!

  beforeAll(async () => {
    alice = await registerUser(t.app)
    bob = await registerUser(t.app)
    carol = await registerUser(t.app)
    operatorToken = await newOperator(t.app, 'por-admin', 'admin', 'por-admin-password')

    // Alice: USDT and node money, a consensus position, a redemption that leaves a pledge
    // item, split HOPE, and a withdrawal under review.
    await fundAccount(t.db.pool, alice.id, '500')
    await fundAccount(t.db.pool, alice.id, '20', 'node')
    await fundAccount(t.db.pool, alice.id, '100', 'community')
    await fundAccount(t.db.pool, alice.id, '7', 'split')
    const succeeds = async (user: TestUser, path: RoutePath, params: Record<string, string>) =>
      expect((await call(t.app, path, params, { token: user.token })).body.code).toBe(200)
    await succeeds(alice, 'game/change', { amount: '100', idempotencyKey: 'por-stake-0001' })
    await succeeds(alice, 'game/sqChange', { amount: '50', idempotencyKey: 'por-redeem-0001' })
    await succeeds(alice, 'userAccount/withdraw', {
      amount: '50',
      idempotencyKey: 'por-withdraw-0001',
    })
    // Bob: a withdrawal already broadcast, not yet confirmed.
    await fundAccount(t.db.pool, bob.id, '30')
    await succeeds(bob, 'userAccount/withdraw', {
      amount: '20',
      idempotencyKey: 'por-withdraw-0002',
    })
    await t.db.pool.query(
      `UPDATE withdrawals SET status = 1, raw_tx = '0x01', tx_hash = $2 WHERE user_id = $1`,
      [bob.id, `0x${'b0'.repeat(32)}`],
    )
  })

  test('the liabilities read: balances with pending withdrawals, positions and pledges', async () => {
    const { users, inFlight } = await readBooks()
    const ledger = async (userId: number, kinds: string[]) =>
      (
        await t.db.pool.query<{ balance: string; pending: string }>(
          `SELECT sum(balance)::text AS balance, sum(debits_pending)::text AS pending
             FROM ledger_accounts WHERE user_id = $1 AND kind = ANY ($2)`,
          [userId, kinds],
        )
      ).rows[0]!
    const position = (
      await t.db.pool.query<{ hope: string }>(
        'SELECT hope::text FROM stake_positions WHERE user_id = $1',
        [alice.id],
      )
    ).rows[0]!
    const pledge = (
      await t.db.pool.query<{ owed: string }>(
        'SELECT (amount - released)::text AS owed FROM pledge_items WHERE user_id = $1',
        [alice.id],
      )
    ).rows[0]!

    const a = userLiability(booksOf(users, alice))
    const usdt = await ledger(alice.id, ['usdt', 'node', 'shareholder'])
    // The withdrawal under review (50 + 1 fee) is still owed: reserved, not yet paid.
    expect(Number(usdt.pending)).toBe(51)
    expect(a.usdt).toBe(BigInt(Math.round(Number(usdt.balance) * 1e6)))
    expect(Number(usdt.balance) - Number(usdt.pending)).toBeLessThan(Number(usdt.balance))
    expect(Number(pledge.owed)).toBe(10)
    const hope = await ledger(alice.id, ['community', 'split'])
    expect(a.hope).toBe(
      userLiability({
        address: alice.userName,
        usdtAccounts: '0',
        hopeAccounts: hope.balance,
        positionsHope: position.hope,
        pledgesHope: pledge.owed,
      }).hope,
    )
    expect(Number(hope.balance)).toBe(57)

    // Bob's broadcast withdrawal is in his balance and in the in-flight line.
    expect(userLiability(booksOf(users, bob)).usdt).toBe(30_000_000n)
    expect(Number(inFlight)).toBe(20)
    expect(userLiability(booksOf(users, carol))).toMatchObject({ usdt: 0n, hope: 0n })
    expect(users.find((r) => r.address === alice.userName.toLowerCase())).toBeDefined()
  })

  test("the assets screen's HOPE is the proof's: the accounts, the staked and the pledged HOPE", async () => {
    const { users } = await readBooks()
    const list = (await t.as<'userAccount/balance', BalanceList>(alice, 'userAccount/balance')).body
      .data
    const units = (value: string) => parseAmount(value, CURRENCY_DECIMALS.HOPE)!
    const [first] = list
    const hopeAll = list
      .filter((account) => account.currency === 'HOPE')
      .reduce(
        (sum, account) => sum + units(account.balance),
        units(first!.stakedHope) + units(first!.pledgedHope),
      )
    expect(units(first!.pledgedHope)).toBe(10n * 10n ** 18n)
    expect(units(first!.stakedHope)).toBeGreaterThan(0n)
    expect(hopeAll).toBe(userLiability(booksOf(users, alice)).hope)
    // The total value counts them at the HOPE price.
    const price = parseAmount(first!.hopePriceUsdt, 18)!
    const accountsValue = list.reduce((sum, a) => sum + parseAmount(a.valueUsdt, 6)!, 0n)
    const outside = ((units(first!.stakedHope) + units(first!.pledgedHope)) * price) / 10n ** 30n
    expect(parseAmount(first!.totalValueUsdt, 6)! - accountsValue).toBeGreaterThanOrEqual(
      outside - 2n,
    )
    expect(parseAmount(first!.totalValueUsdt, 6)! - accountsValue).toBeLessThanOrEqual(outside + 2n)
  })

  test('one state of the books for the whole read (REPEATABLE READ)', async () => {
    const seen = await inTransaction(t.db.pool, async (q) => {
      await repo.beginLiabilitiesRead(q)
      const before = booksOf(await repo.userBooksPage(q, 0, 1_000), carol)
      // Another session credits meanwhile; this read must not see it.
      await asAnotherSession(() => fundAccount(t.db.pool, carol.id, '5'))
      const after = booksOf(await repo.userBooksPage(q, 0, 1_000), carol)
      return { before: before.usdtAccounts, after: after.usdtAccounts }
    })
    expect(Number(seen.after)).toBe(Number(seen.before))
    const { users } = await readBooks()
    expect(Number(booksOf(users, carol).usdtAccounts)).toBe(Number(seen.before) + 5)
  })

  test('my statement at the cut the chain anchored needs no snapshot of ours, and is mine only', async () => {
    const position = await inTransaction(t.db.pool, (q) => repo.ledgerPosition(q))
    const at = async (token: string) =>
      (
        await call(
          t.app,
          'por/myStatement',
          { snapshotId: 777, ledgerPosition: position },
          { token },
        )
      ).body as { code: number; data: PorStatement }
    const mine = await at(alice.token)
    expect(mine).toMatchObject({
      code: 200,
      data: { snapshotId: 777, ledgerPosition: position, usdt: expect.any(String) },
    })
    expect(Number(mine.data.usdt)).toBeGreaterThan(0)
    // Another user asking at the same cut hears their own log, never Alice's.
    const theirs = (await at(carol.token)).data
    expect(theirs.usdt).not.toBe(mine.data.usdt)
    // Without the anchored cut, a snapshot we never published is not found.
    expect((await t.as(alice, 'por/myStatement', { snapshotId: 777 })).body).toMatchObject({
      code: 404,
    })
  })

  test('routes: the latest snapshot, my proof, retention, the console list and publish now', async () => {
    expect((await call(t.app, 'por/latest')).body).toMatchObject({ code: 404, reason: 'not_found' })
    expect((await call(t.app, 'por/myProof', {})).body).toMatchObject({ reason: 'not_logged_in' })
    // Nothing published yet: no proof, and no error either; the first snapshot has everyone.
    expect((await t.as(alice, 'por/myProof')).body).toMatchObject({
      code: 200,
      data: null,
    })

    // A real tree of three users, stored as the publisher stores it.
    const registryAddress = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' as const
    const tokenAddress = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const
    const reserveAddress = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
    const signed: ReserveSignature = {
      address: reserveAddress,
      message: reserveMessage(reserveAddress, 31337, registryAddress, tokenAddress),
      signature: `0x${'11'.repeat(65)}` as const,
    }
    const stored = async (id: number, takenDaysAgo: number) => {
      const tree = buildSnapshotTree({
        snapshotId: BigInt(id),
        secret: new Uint8Array(32).fill(id),
        accounts: [
          { address: alice.userName, usdt: 700_000_000n, hope: 5n * 10n ** 18n },
          { address: carol.userName, usdt: 300_000_000n, hope: 0n },
          { address: `0x${'0a'.repeat(20)}`, usdt: 0n, hope: 0n },
        ],
      })
      await repo.insertSnapshot(t.db.pool, {
        id,
        ledgerPosition: null,
        chainId: 31337,
        blockNumber: 90 + id,
        blockHash: `0x${'aa'.repeat(32)}`,
        root: tree.root,
        users: 3,
        leafCount: tree.leafCount,
        totalUsdt: '1000000000',
        totalHope: '5000000000000000000',
        inFlightUsdt: '20000000',
        reserves: [{ address: reserveAddress, balance: '900000000' }],
        reservesUsdt: '900000000',
        tokenAddress,
        tokenDecimals: 6,
        registryAddress,
      })
      await storeTree(t.db.pool, id, builtTreeOf(tree), { sealKey: SEAL_KEY, reserves: [signed] })
      await t.db.pool.query(
        `UPDATE por_snapshots SET status = 'published', publish_tx_hash = $2,
                taken_at = now() - make_interval(days => $3) WHERE id = $1`,
        [id, `0x${'cc'.repeat(32)}`, takenDaysAgo],
      )
      return tree
    }
    await stored(1, 40)
    const second = await stored(2, 1)

    const latest = (await call<'por/latest', PorLatest>(t.app, 'por/latest')).body.data
    expect(latest).toMatchObject({
      snapshotId: 2,
      chainId: 31337,
      blockNumber: 92,
      totalUsdt: '1000',
      totalHope: '5',
      inFlightUsdt: '20',
      reservesUsdt: '900',
      coverage: '0.9',
      registryAddress: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    })
    expect(latest.reserves).toEqual([
      {
        address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        balance: '900',
        message: reserveMessage(
          '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          31337,
          '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
          '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        ),
        signature: null,
      },
    ])

    // Built on request from the stored tree: the proof file the tree itself makes.
    const mine = await t.as(alice, 'por/myProof')
    expect(mine.body).toMatchObject({ code: 200, data: { snapshotId: '2' } })
    expect(mine.body.data).toEqual(
      JSON.parse(
        JSON.stringify(
          createProofFile(
            second,
            {
              chainId: 31337,
              registry: registryAddress,
              token: tokenAddress,
              blockNumber: 92n,
              reserves: [signed],
            },
            alice.userName,
          ),
        ),
      ),
    )
    expect(parseProofFile(mine.body.data)).toMatchObject({ ok: true })
    // The database holds the secret sealed, and no proof whole.
    const { rows } = await t.db.pool.query<{ secret: string }>('SELECT secret FROM por_trees')
    for (const row of rows)
      expect(row.secret).not.toContain(
        Buffer.from(new Uint8Array(32).fill(2)).toString('base64url'),
      )
    expect((await t.db.pool.query('SELECT 1 FROM por_proofs')).rowCount).toBe(0)
    // Nobody else's proof: bob, not in the snapshot, gets none. None past the retention days.
    expect((await t.as(bob, 'por/myProof')).body).toMatchObject({
      code: 200,
      data: null,
    })
    const past = await t.as(alice, 'por/myProof', { snapshotId: 1 })
    expect(past.body.reason).toBe('not_found')
    await t.app.services.settings.set('porRetentionDays', 60, 'test')
    const kept = await t.as(alice, 'por/myProof', { snapshotId: '1' })
    expect(kept.body).toMatchObject({ code: 200, data: { snapshotId: '1' } })
    // Retention drops the trees (their secrets too), the snapshot rows stay.
    expect(await repo.dropProofsBefore(t.db.pool, new Date(Date.now() - 20 * 86_400_000))).toBe(3)
    expect(await repo.treeOf(t.db.pool, 1)).toBeNull()
    expect(
      (await t.db.pool.query('SELECT 1 FROM por_tree_nodes WHERE snapshot_id = 1')).rowCount,
    ).toBe(0)
    const gone = await t.as(alice, 'por/myProof', { snapshotId: '1' })
    expect(gone.body).toMatchObject({ code: 200, data: null })
    expect(await repo.snapshotById(t.db.pool, 1)).toMatchObject({
      id: 1,
      leafCount: expect.any(Number),
    })

    const list = await t.as<'admin/porSnapshots', Page<AdminPorSnapshot>>(
      operatorToken,
      'admin/porSnapshots',
      { pageNum: 1, pageSize: 10 },
    )
    expect(list.body.data.total).toBe(2)
    expect(list.body.data.list[0]).toMatchObject({ id: 2, coverage: '0.9', status: 'published' })
    expect((await t.as(alice, 'admin/porSnapshots')).status).toBe(401)

    const first = await t.as<'admin/porPublish', AdminPorPublishResult>(
      operatorToken,
      'admin/porPublish',
    )
    expect(first.body.data.created).toBe(true)
    const again = await t.as<'admin/porPublish', AdminPorPublishResult>(
      operatorToken,
      'admin/porPublish',
    )
    expect(again.body.data).toEqual({ ...first.body.data, created: false })
    expect(await repo.openRequest(t.db.pool)).toBe(true)
  })
})
