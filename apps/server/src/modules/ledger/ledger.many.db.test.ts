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
import { postMany, type PostedLeg, type SqlLeg } from './ledger.repository.ts'
import { applyLegs, type LedgerModel } from './ledger.rules.ts'
import { createLedgerService, requestHash, type LedgerService } from './ledger.service.ts'
import { verifyLedger } from './ledger.verify.ts'

const USDT = 6

describe.each(databaseTargets())('requests posted together on $name', (target) => {
  const t = useTestDatabase(target)
  let ledger: LedgerService

  beforeAll(() => {
    ledger = createLedgerService(t.db.pool)
  })

  const balances = async (ids: number[]) => {
    const r = await t.db.pool.query<{ id: number; balance: string }>(
      'SELECT id::int, balance::text FROM ledger_accounts WHERE id = ANY ($1)',
      [ids],
    )
    const by = new Map(r.rows.map((x) => [x.id, usdtUnits(x.balance)]))
    return ids.map((id) => by.get(id)!)
  }

  test('write what the same requests would write one after another, each answered on its own', async () => {
    let run = 0
    const legArb = fc.record({
      debit: fc.nat(4),
      credit: fc.nat(4),
      amount: fc.bigInt({ min: 1n, max: 40_000_000n }),
    })
    await fc.assert(
      fc.asyncProperty(
        // earlier requests sent alone, then the call: [key number, legs], keys distinct in the call
        fc.array(fc.tuple(fc.nat(5), fc.array(legArb, { minLength: 1, maxLength: 3 })), {
          maxLength: 4,
        }),
        fc.uniqueArray(fc.tuple(fc.nat(9), fc.array(legArb, { minLength: 1, maxLength: 3 })), {
          minLength: 1,
          maxLength: 8,
          selector: ([k]) => k,
        }),
        async (earlier, together) => {
          run += 1
          // A treasury (may go negative), three users funded with 50, and one HOPE account.
          const users = await Promise.all([0, 1, 2].map(() => insertTestUser(t.db.pool)))
          for (const u of users) await fundAccount(t.db.pool, u.id, '50')
          const accounts = await Promise.all(users.map((u) => ledger.userAccountIds(u.id)))
          const ids = [
            await ledger.platformAccount('treasury', 'USDT'),
            ...accounts.map((a) => a.usdt),
            accounts[0]!.community,
          ]
          const start = await balances(ids)
          let model: LedgerModel = {
            accounts: new Map(
              ids.map((id, i) => [
                id,
                {
                  id,
                  currency: i === 4 ? 'HOPE' : 'USDT',
                  isUser: i > 0,
                  balance: start[i]!,
                  debitsPending: 0n,
                  creditsPending: 0n,
                },
              ]),
            ),
            transfers: [],
            requests: new Map(),
          }
          const request = (keyNo: number, raw: (typeof together)[number][1]) => {
            const legs = raw.map((l) => ({
              kind: 'posted' as const,
              debit: ids[l.debit]!,
              credit: ids[l.credit]!,
              amount: l.amount,
              logType: 9,
            }))
            const sql: PostedLeg[] = legs.map((l) => ({
              ...l,
              amount: formatAmount(l.amount, USDT),
            }))
            return { key: `many:${run}:${keyNo}`, content: JSON.stringify(sql), legs, sql }
          }
          for (const [keyNo, raw] of earlier) {
            const r = request(keyNo, raw)
            const want = applyLegs(model, r.key, r.content, r.legs)
            const got = await ledger.apply(r.key, r.content, r.sql).catch(() => null)
            expect(got !== null).toBe(want.ok)
            if (want.ok && got) {
              model = want.model
              model.requests.set(r.key, { hash: r.content, transferIds: got.transfers })
            }
          }

          const requests = together.map(([keyNo, raw]) => request(keyNo, raw))
          const before = await balances(ids)
          // The model, one request after another: a refusal anywhere refuses the whole call.
          let m = model
          const expected: ({ replayed: boolean; legs: number } | 'conflict')[] = []
          let refused = false
          for (const r of requests) {
            const want = applyLegs(m, r.key, r.content, r.legs)
            if (want.ok) {
              expected.push({ replayed: want.replayed, legs: want.replayed ? 0 : r.legs.length })
              m = want.model
            } else if (want.error === 'idempotency_conflict') expected.push('conflict')
            else refused = true
          }
          const call = postMany(
            t.db.pool,
            requests.map((r) => ({ key: r.key, hash: requestHash(r.content), legs: r.sql })),
          )
          if (refused) {
            // HL001/HL004, or the accounts' own check when a final balance would be negative
            await expect(call).rejects.toMatchObject({
              code: expect.stringMatching(/^(HL001|HL004|23514)$/),
            })
            expect(await balances(ids)).toEqual(before)
          } else {
            const got = await call
            for (const [i, want] of expected.entries()) {
              if (want === 'conflict') expect(got[i]!.conflict).toBe(true)
              else {
                expect(got[i]).toMatchObject({ replayed: want.replayed, conflict: false })
                if (!want.replayed) expect(got[i]!.transfers).toHaveLength(want.legs)
              }
            }
            const after = await balances(ids)
            expect(after).toEqual(ids.map((id) => m.accounts.get(id)!.balance))
          }
        },
      ),
      { numRuns: 30 },
    )
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('concurrent requests share round trips, and a refused one fails alone', async () => {
    const pool = new pg.Pool({ connectionString: t.db.url, max: 8 })
    pool.on('error', () => {})
    const service = createLedgerService(pool)
    const users = await Promise.all(Array.from({ length: 5 }, () => insertTestUser(t.db.pool)))
    for (const u of users) await fundAccount(t.db.pool, u.id, '10')
    const ids = await Promise.all(users.map(async (u) => (await service.userAccountIds(u.id)).usdt))
    const fee = await service.platformAccount('fees', 'USDT', 'together')
    const [feeStart] = await balances([fee])
    const start = await balances(ids)
    // 48 requests at once, every fourth sent twice under its key: 3 USDT + 0.1 fee from one of
    // four users to the fifth, so each sender pays three times at most and the rest are refused.
    const base = Array.from({ length: 48 }, (_, i) => {
      const from = i % 4
      const legs: SqlLeg[] = [
        {
          kind: 'posted',
          debit: ids[from]!,
          credit: ids[4]!,
          amount: '3',
          logType: 9,
        },
        { kind: 'posted', debit: ids[from]!, credit: fee, amount: '0.1', logType: 14 },
      ]
      return { key: `burst:${i}`, from, legs }
    })
    const sends = base.flatMap((s, i) => (i % 4 === 0 ? [s, s] : [s]))
    try {
      const results = await Promise.allSettled(
        sends.map((s) => service.apply(s.key, s.legs, s.legs)),
      )
      const moved = new Map<string, number>()
      for (const [i, r] of results.entries()) {
        if (r.status === 'rejected') {
          expect(r.reason).toMatchObject({ reason: 'insufficient_balance' })
          continue
        }
        if (!r.value.replayed) {
          expect(moved.has(sends[i]!.key)).toBe(false)
          moved.set(sends[i]!.key, sends[i]!.from)
        }
      }
      const expected = [...start]
      for (const from of moved.values()) {
        expected[from]! -= 3_100_000n
        expected[4]! += 3_000_000n
      }
      expect(moved.size).toBe(12)
      expect(await balances(ids)).toEqual(expected)
      expect((await balances([fee]))[0]! - feeStart!).toBe(BigInt(moved.size) * 100_000n)
      expect(results.some((r) => r.status === 'rejected')).toBe(true)
      const stats = service.postStats()
      expect(stats.batches).toBeGreaterThan(0)
      expect(stats.batched).toBeGreaterThan(stats.batches)
      expect(stats.splits).toBeGreaterThan(0)
    } finally {
      await pool.end()
    }
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('verify names an entry that does not follow the one before it', async () => {
    const a = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, a.id, '5')
    await fundAccount(t.db.pool, a.id, '2')
    const ia = await ledger.userAccountIds(a.id)
    const client = await t.db.pool.connect()
    try {
      await client.query('BEGIN')
      await client.query('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only')
      await client.query(
        'UPDATE ledger_entries SET balance_after = balance_after + 1 WHERE account_id = $1 AND account_version = 1',
        [ia.usdt],
      )
      const report = await verifyLedger(client)
      expect(report.problems.some((p) => p.includes(`account ${ia.usdt} entry 2`))).toBe(true)
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})
