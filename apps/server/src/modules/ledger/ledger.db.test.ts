import { formatAmount } from '@hope/api'
import fc from 'fast-check'
import pg from 'pg'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  databaseTargets,
  fundAccount,
  insertTestUser,
  usdtUnits,
  useTestDatabase,
} from '../../testing/index.ts'
import type { SqlLeg } from './ledger.repository.ts'
import { applyLegs, checkModelInvariants, type Leg, type LedgerModel } from './ledger.rules.ts'
import { createLedgerService, type LedgerService } from './ledger.service.ts'
import { verifyLedger } from './ledger.verify.ts'

const USDT = 6

describe.each(databaseTargets())('ledger on $name', (target) => {
  const t = useTestDatabase(target)
  let ledger: LedgerService

  beforeAll(() => {
    ledger = createLedgerService(t.db.pool)
  })

  const balanceOf = async (accountId: number) => {
    const r = await t.db.pool.query(
      'SELECT balance::text, debits_pending::text AS dp FROM ledger_accounts WHERE id = $1',
      [accountId],
    )
    return { balance: usdtUnits(r.rows[0].balance), pending: usdtUnits(r.rows[0].dp) }
  }

  /** Two new users, a with 10 USDT, and their accounts. */
  const fundedPair = async () => {
    const a = await insertTestUser(t.db.pool)
    const b = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, a.id, '10')
    const [ia, ib] = [await ledger.userAccountIds(a.id), await ledger.userAccountIds(b.id)]
    return { a, b, ia, ib }
  }

  test('every user has its five accounts from registration on', async () => {
    const u = await insertTestUser(t.db.pool)
    const ids = await ledger.userAccountIds(u.id)
    expect(Object.keys(ids).sort()).toEqual(['community', 'node', 'shareholder', 'split', 'usdt'])
  })

  test('refuses to take a user below zero and moves nothing', async () => {
    const { a, ia, ib } = await fundedPair()
    const leg: SqlLeg = {
      kind: 'posted',
      debit: ia.usdt,
      credit: ib.usdt,
      amount: '10.000001',
      logType: 9,
    }
    await expect(ledger.apply(`t:${a.id}:1`, leg, [leg])).rejects.toMatchObject({
      reason: 'insufficient_balance',
    })
    expect((await balanceOf(ia.usdt)).balance).toBe(10_000_000n)
    expect((await balanceOf(ib.usdt)).balance).toBe(0n)
  })

  test('refuses malformed legs, posted or pending, and moves nothing', async () => {
    const { a, ia, ib } = await fundedPair()
    const good = { debit: ia.usdt, credit: ib.usdt, amount: '1', logType: 9 }
    const bad = [
      { ...good, amount: '0' },
      { ...good, amount: '-1' },
      { ...good, amount: '0.0000000000000000001' },
      { ...good, credit: ia.usdt },
      { ...good, credit: ib.community },
      { ...good, credit: 2 ** 40 },
    ]
    for (const [i, leg] of bad.entries()) {
      for (const kind of ['posted', 'pending'] as const) {
        // a good first leg too: one bad leg refuses the whole request
        const legs: SqlLeg[] = [
          { kind, ...good },
          { kind, ...leg },
        ]
        await expect(ledger.apply(`bad:${a.id}:${kind}:${i}`, legs, legs)).rejects.toMatchObject({
          reason: 'invalid_params',
        })
      }
    }
    expect(await balanceOf(ia.usdt)).toEqual({ balance: 10_000_000n, pending: 0n })
    expect((await balanceOf(ib.usdt)).balance).toBe(0n)
  })

  test('a request may debit one account twice: each entry carries its own balance after', async () => {
    const { a, ia, ib } = await fundedPair()
    const fees = await ledger.platformAccount('fees', 'USDT', 'x')
    const legs: SqlLeg[] = [
      { kind: 'posted', debit: ia.usdt, credit: ib.usdt, amount: '4', logType: 9 },
      { kind: 'posted', debit: ia.usdt, credit: fees, amount: '0.5', logType: 14 },
    ]
    const { transfers } = await ledger.apply(`two:${a.id}`, legs, legs)
    const entries = await t.db.pool.query(
      `SELECT transfer_id::int AS t, balance_after::text AS after, account_version::int AS version
       FROM ledger_entries WHERE account_id = $1 AND transfer_id = ANY ($2) ORDER BY transfer_id`,
      [ia.usdt, transfers],
    )
    expect(entries.rows.map((r) => [r.after, r.version])).toEqual([
      ['6.000000000000000000', 2],
      ['5.500000000000000000', 3],
    ])
    const over: SqlLeg[] = [
      { kind: 'posted', debit: ia.usdt, credit: ib.usdt, amount: '5', logType: 9 },
      { kind: 'posted', debit: ia.usdt, credit: fees, amount: '0.5000001', logType: 14 },
    ]
    await expect(ledger.apply(`over:${a.id}`, over, over)).rejects.toMatchObject({
      reason: 'insufficient_balance',
    })
    expect((await balanceOf(ia.usdt)).balance).toBe(5_500_000n)
  })

  test('a repeated key returns the first result; other content under it is a conflict', async () => {
    const { a, b, ia, ib } = await fundedPair()
    const leg: SqlLeg = { kind: 'posted', debit: ia.usdt, credit: ib.usdt, amount: '3', logType: 9 }
    const first = await ledger.apply(`t:${a.id}:k`, { to: b.id, amount: '3' }, [leg])
    const again = await ledger.apply(`t:${a.id}:k`, { to: b.id, amount: '3' }, [leg])
    expect(again).toEqual({ replayed: true, transfers: first.transfers })
    await expect(
      ledger.apply(`t:${a.id}:k`, { to: b.id, amount: '4' }, [{ ...leg, amount: '4' }]),
    ).rejects.toMatchObject({ reason: 'idempotency_conflict' })
    expect((await balanceOf(ib.usdt)).balance).toBe(3_000_000n)
  })

  test('pending reserves, posts in part, and resolves exactly once', async () => {
    const a = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, a.id, '100')
    const ia = await ledger.userAccountIds(a.id)
    const flight = await ledger.platformAccount('withdrawals_in_flight', 'USDT')
    const hold = await ledger.apply(`w:${a.id}`, 'hold', [
      { kind: 'pending', debit: ia.usdt, credit: flight, amount: '60', logType: 13 },
    ])
    expect(await balanceOf(ia.usdt)).toEqual({ balance: 100_000_000n, pending: 60_000_000n })
    const spend: SqlLeg = {
      kind: 'posted',
      debit: ia.usdt,
      credit: flight,
      amount: '41',
      logType: 13,
    }
    await expect(ledger.apply(`s:${a.id}`, spend, [spend])).rejects.toMatchObject({
      reason: 'insufficient_balance',
    })
    const pendingId = hold.transfers[0]!
    await ledger.apply(`p:${a.id}`, 'post', [
      { kind: 'post_pending', pending: pendingId, amount: '59.5' },
    ])
    expect(await balanceOf(ia.usdt)).toEqual({ balance: 40_500_000n, pending: 0n })
    await expect(
      ledger.apply(`v:${a.id}`, 'void', [{ kind: 'void_pending', pending: pendingId }]),
    ).rejects.toMatchObject({
      reason: 'already_resolved',
    })
    const races = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        ledger.apply(`v2:${a.id}:${i}`, 'void', [{ kind: 'void_pending', pending: pendingId }]),
      ),
    )
    expect(races.every((r) => r.status === 'rejected')).toBe(true)
  })

  test('entries and transfers are append-only', async () => {
    await expect(t.db.pool.query('UPDATE ledger_entries SET amount = 0')).rejects.toMatchObject({
      code: 'HL009',
    })
    await expect(t.db.pool.query('DELETE FROM ledger_transfers')).rejects.toMatchObject({
      code: 'HL009',
    })
  })

  test('random sequences on PostgreSQL match the model and keep the invariants', async () => {
    const legArb = (n: number) =>
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record({
            kind: fc.constantFrom('posted' as const, 'pending' as const),
            debit: fc.nat(n),
            credit: fc.nat(n),
            amount: fc.bigInt({ min: 1n, max: 50_000_000n }),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('post_pending' as const),
            pending: fc.nat(9),
            amount: fc.option(fc.bigInt({ min: 1n, max: 50_000_000n }), { nil: undefined }),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({ kind: fc.constant('void_pending' as const), pending: fc.nat(9) }),
        },
      )
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(7), fc.array(legArb(3), { minLength: 1, maxLength: 3 })), {
          minLength: 1,
          maxLength: 25,
        }),
        async (requests) => {
          run += 1
          // Fresh accounts per run: a treasury-like platform account and three users.
          const users = await Promise.all([0, 1, 2].map(() => insertTestUser(t.db.pool)))
          const ids = [
            await ledger.platformAccount('treasury', 'USDT'),
            ...(await Promise.all(
              users.map(async (u) => (await ledger.userAccountIds(u.id)).usdt),
            )),
          ]
          let m: LedgerModel = {
            accounts: new Map(
              ids.map((id, i) => [
                id,
                {
                  id,
                  currency: 'USDT',
                  isUser: i > 0,
                  balance: 0n,
                  debitsPending: 0n,
                  creditsPending: 0n,
                },
              ]),
            ),
            transfers: [],
            requests: new Map(),
          }
          const treasuryStart = (await balanceOf(ids[0]!)).balance
          const pendingIds: number[] = []
          for (const [keyNo, raw] of requests) {
            const key = `prop:${run}:${keyNo}`
            const legs: Leg[] = raw.map((l) =>
              l.kind === 'posted' || l.kind === 'pending'
                ? {
                    kind: l.kind,
                    debit: ids[l.debit]!,
                    credit: ids[l.credit]!,
                    amount: l.amount,
                    logType: 9,
                  }
                : l.kind === 'post_pending'
                  ? {
                      kind: l.kind,
                      pending: pendingIds[l.pending] ?? -1,
                      ...(l.amount !== undefined ? { amount: l.amount } : {}),
                    }
                  : {
                      kind: 'void_pending' as const,
                      pending: pendingIds[(l as { pending: number }).pending] ?? -1,
                    },
            )
            const sqlLegs: SqlLeg[] = legs.map((l) =>
              'amount' in l && l.amount !== undefined
                ? ({ ...l, amount: formatAmount(l.amount, USDT) } as SqlLeg)
                : (l as SqlLeg),
            )
            const content = JSON.stringify(sqlLegs)
            // Model: ids of its own; map them by position to the database's.
            const expected = applyLegs(
              m,
              key,
              content,
              legs.map((l) =>
                'pending' in l
                  ? { ...l, pending: m.transfers.find((t) => t.id === l.pending)?.id ?? l.pending }
                  : l,
              ),
            )
            let actual: Awaited<ReturnType<LedgerService['apply']>> | { error: string }
            try {
              actual = await ledger.apply(key, content, sqlLegs)
            } catch (e) {
              actual = { error: (e as { reason?: string }).reason ?? String(e) }
            }
            if (expected.ok) {
              expect(actual).toMatchObject({ replayed: expected.replayed })
              if (!expected.replayed && 'transfers' in actual) {
                // Keep the model's transfer ids equal to the database's so pendings line up.
                const mapped = expected.model.transfers
                  .slice(m.transfers.length)
                  .map((t, i) => ({ ...t, id: actual.transfers[i]! }))
                m = { ...expected.model, transfers: [...m.transfers, ...mapped] }
                m.requests.set(key, { hash: content, transferIds: actual.transfers })
                mapped.forEach((t) => t.kind === 'pending' && pendingIds.push(t.id))
              }
            } else {
              expect(actual).toHaveProperty('error')
            }
          }
          expect(checkModelInvariants(m)).toEqual([])
          for (const [i, id] of ids.entries()) {
            const got = await balanceOf(id)
            const want = m.accounts.get(id)!
            expect(got.balance - (i === 0 ? treasuryStart : 0n)).toBe(want.balance)
            if (i > 0) expect(got.pending).toBe(want.debitsPending)
          }
        },
      ),
      { numRuns: 25 },
    )
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('64 concurrent clients with repeated keys and the hot fee account keep every total exact', async () => {
    const pool = new pg.Pool({ connectionString: t.db.url, max: 64 })
    pool.on('error', () => {})
    const users = await Promise.all(Array.from({ length: 6 }, () => insertTestUser(t.db.pool)))
    const accounts = await Promise.all(
      users.map(async (u) => (await ledger.userAccountIds(u.id)).usdt),
    )
    for (const u of users) await fundAccount(t.db.pool, u.id, '1000')
    const concurrent = createLedgerService(pool)
    const fee = await concurrent.platformAccount('fees', 'USDT', 'x')
    const feeStart = (await balanceOf(fee)).balance
    const moved = new Map<string, { from: number; to: number; amount: bigint; fee: bigint }>()
    let refused = 0
    const worker = async (w: number) => {
      for (let i = 0; i < 40; i++) {
        const from = (w + i) % accounts.length
        const to = (w * 7 + i * 3 + 1) % accounts.length
        if (from === to) continue
        // Every third request repeats a key another worker also sends.
        const key = i % 3 === 0 ? `conc:${i}:${from}:${to}` : `conc:${w}:${i}`
        const seed = i % 3 === 0 ? from * 13 + to * 5 + i : w * 31 + i * 17
        const amount = BigInt(1 + (seed % 500)) * 100_000n
        const feeUnits = 100_000n
        const feeAccount = await concurrent.platformAccount('fees', 'USDT', key)
        const legs: SqlLeg[] = [
          {
            kind: 'posted',
            debit: accounts[from]!,
            credit: accounts[to]!,
            amount: formatAmount(amount, USDT),
            logType: 9,
          },
          {
            kind: 'posted',
            debit: accounts[from]!,
            credit: feeAccount,
            amount: formatAmount(feeUnits, USDT),
            logType: 14,
          },
        ]
        try {
          const r = await concurrent.apply(key, legs, legs)
          if (!r.replayed) moved.set(key, { from, to, amount, fee: feeUnits })
        } catch (e) {
          if ((e as { reason?: string }).reason !== 'insufficient_balance') throw e
          refused += 1
        }
      }
    }
    try {
      await Promise.all(Array.from({ length: 64 }, (_, w) => worker(w)))
    } finally {
      await pool.end()
    }

    const expected = accounts.map(() => 1_000_000_000n)
    let fees = 0n
    for (const m of moved.values()) {
      expected[m.from]! -= m.amount + m.fee
      expected[m.to]! += m.amount
      fees += m.fee
    }
    for (const [i, id] of accounts.entries())
      expect((await balanceOf(id)).balance).toBe(expected[i])
    const feeTotal = await t.db.pool.query(
      `SELECT sum(balance)::text AS s FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees' AND currency = 'USDT'`,
    )
    expect(usdtUnits(feeTotal.rows[0].s)).toBe(fees + feeStart)
    expect(moved.size).toBeGreaterThan(100)
    expect(refused).toBeGreaterThanOrEqual(0)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('verify names the account when a balance is tampered with', async () => {
    const a = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, a.id, '5')
    const ia = await ledger.userAccountIds(a.id)
    const client = await t.db.pool.connect()
    try {
      await client.query('BEGIN')
      await client.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [
        ia.usdt,
      ])
      const report = await verifyLedger(client)
      expect(report.problems.some((p) => p.includes(`account ${ia.usdt} balance`))).toBe(true)
      expect(report.problems.some((p) => p.startsWith('invariant 1'))).toBe(true)
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })

  test('verify names a two-phase transfer whose held total was tampered with', async () => {
    const a = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, a.id, '50')
    const ia = await ledger.userAccountIds(a.id)
    const flight = await ledger.platformAccount('withdrawals_in_flight', 'USDT')
    const { transfers } = await ledger.apply(`held:${a.id}`, 'hold', [
      { kind: 'pending', debit: ia.usdt, credit: flight, amount: '20', logType: 13 },
    ])
    const client = await t.db.pool.connect()
    try {
      await client.query('BEGIN')
      await client.query(
        'ALTER TABLE ledger_transfers DISABLE TRIGGER ledger_transfers_append_only',
      )
      await client.query(
        'UPDATE ledger_transfers SET debit_pending_after = debit_pending_after - 1 WHERE id = $1',
        [transfers[0]],
      )
      const report = await verifyLedger(client)
      expect(report.problems).toContainEqual(
        expect.stringContaining(`two-phase transfer ${transfers[0]} records`),
      )
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})
