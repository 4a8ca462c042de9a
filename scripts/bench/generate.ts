// Benchmark data at 10k to 1M members, written set-based so a million takes minutes: a
// referral tree under one large member (the "whale"), consensus positions, team statistics and
// account logs. The shapes follow `generateEconomy` (apps/server/src/modules/settlement/settlement.generate.ts);
// what the users table's row triggers would do one member at a time (ancestors, the five
// accounts, team statistics) is done here once per chunk or once for all, and every balance
// comes from ledger transfers and entries built the way `ledger_post` writes them, so
// `ledger:verify` holds afterwards.
import type pg from 'pg'
import { insertPositions } from '../../apps/server/test-support/settlement.generate.ts'

export interface GenerateOptions {
  /** Members generated, the whale included; they hang under the first (root) user. */
  users: number
  /** Entries in the whale's account log (one of them is its funding). */
  whaleLogRows: number
  /** Consensus positions of 100..1,000 USDT spread over the members. */
  positions: number
  /** Keeps names, invitation codes and idempotency keys of one run apart from another's. */
  prefix: string
  /** The share of members the whale invites itself (the rest invite each other). */
  whaleDirectShare?: number
  /** Told how long each step took. */
  log?: (msg: string) => void
}

export interface GeneratedEconomy {
  rootId: number
  whaleId: number
  whaleUserName: string
  /** Generated member ids are whaleId..lastUser. */
  lastUser: number
  whaleDirects: number
  transfers: number
}

const CHUNK = 100_000
const USER_KINDS = `(VALUES ('usdt', 'USDT'), ('community', 'HOPE'), ('shareholder', 'USDT'),
  ('node', 'USDT'), ('split', 'HOPE')) AS k (kind, currency)`

export async function generateBenchEconomy(
  pool: pg.Pool,
  opts: GenerateOptions,
): Promise<GeneratedEconomy> {
  if (opts.users < 2) throw new Error('generate at least 2 members')
  const c = await pool.connect()
  let t = performance.now()
  const step = (name: string) => {
    const now = performance.now()
    opts.log?.(`${name} ${((now - t) / 1000).toFixed(1)} s`)
    t = now
  }
  try {
    // The aggregations below over millions of (member, upline) pairs stay in memory.
    await c.query(`SET work_mem = '256MB'`)
    await c.query(`SET maintenance_work_mem = '512MB'`)
    await c.query('ALTER TABLE users DISABLE TRIGGER USER')
    try {
      const { rootId, whale } = await insertWhale(c, opts.prefix)
      const whaleId = Number(whale.id)
      const last = await insertMembers(c, opts, whaleId)
      step('members')

      await c.query(
        `INSERT INTO ledger_accounts (user_id, kind, currency)
         SELECT u, k.kind, k.currency FROM generate_series($1::bigint, $2::bigint) u CROSS JOIN ${USER_KINDS}
         ORDER BY u`,
        [whaleId, last],
      )
      step('accounts')

      await insertPositionChunks(c, opts, whaleId, last)
      step('positions')

      await writeTeamStats(c, whaleId, last)
      step('team statistics')

      const transfers = await writeLedger(c, {
        prefix: opts.prefix,
        whaleId,
        last,
        whaleLogRows: opts.whaleLogRows,
      })
      step('ledger')
      const directs = await one<{ n: string }>(
        c,
        'SELECT count(*)::text AS n FROM users WHERE inviter_id = $1',
        [whaleId],
      )
      return {
        rootId,
        whaleId,
        whaleUserName: whale.user_name,
        lastUser: last,
        whaleDirects: Number(directs.n),
        transfers,
      }
    } finally {
      await c.query('ALTER TABLE users ENABLE TRIGGER USER')
    }
  } finally {
    c.release()
  }
}

/** The first row a query answers. */
async function one<T extends pg.QueryResultRow>(
  c: pg.PoolClient,
  sql: string,
  params: unknown[] = [],
): Promise<T> {
  return (await c.query<T>(sql, params)).rows[0]!
}

/** The whale, invited by the root user (the first one without an inviter). */
export async function insertWhale(
  c: pg.PoolClient,
  prefix: string,
): Promise<{ rootId: number; whale: { id: string; user_name: string } }> {
  const rootId = Number(
    (
      await one<{ id: string }>(
        c,
        `SELECT id FROM users WHERE inviter_id IS NULL ORDER BY id LIMIT 1`,
      )
    ).id,
  )
  const whale = await one<{ id: string; user_name: string }>(
    c,
    `INSERT INTO users (user_name, nick_name, referral_code, inviter_id, location, ancestor_ids)
         VALUES ('0x' || md5($1::text || ':whale') || '00000000', 'whale',
                 upper(md5('code:' || $1::text || ':whale')), $2::bigint, 1, ARRAY[$2::bigint])
         RETURNING id, user_name`,
    [prefix, rootId],
  )
  return { rootId, whale }
}

/**
 * The other members, in chunks that double in size and invite from the members written before
 * them, so the tree grows levels; each member's ancestors are its inviter's plus the inviter.
 * Inverted (GIN) indexes grow slowly row by row: they are built again once the members are in.
 * Answers the last member's id (the ids run whaleId..last).
 */
export async function insertMembers(
  c: pg.PoolClient,
  opts: Pick<GenerateOptions, 'users' | 'prefix' | 'whaleDirectShare'>,
  whaleId: number,
): Promise<number> {
  const share = opts.whaleDirectShare ?? 0.01
  const gin = await c.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
          WHERE schemaname = current_schema() AND tablename = 'users' AND indexdef LIKE '% USING gin %'`,
  )
  for (const ix of gin.rows) await c.query(`DROP INDEX ${ix.name}`)
  let last = whaleId
  for (
    let done = 1, n = 1;
    done < opts.users;
    done += n, n = Math.min(CHUNK, opts.users - done, done)
  ) {
    const res = await one<{ hi: string; n: string }>(
      c,
      `WITH ins AS (
             INSERT INTO users (user_name, nick_name, referral_code, inviter_id, location, ancestor_ids, created_at)
             SELECT '0x' || md5($1::text || ':' || ($2::int + x.g)) || '00000000', 'gen',
                    upper(md5('code:' || $1::text || ':' || ($2::int + x.g))), inv.id,
                    1 + floor(random() * 3)::int, inv.ancestor_ids || inv.id,
                    now() - interval '30 days' + ($2::int + x.g) * interval '1 second'
               FROM (SELECT g, CASE WHEN random() < $6::float8 THEN $3::bigint
                                    ELSE $3::bigint + floor(random() * ($4::bigint - $3::bigint + 1))::bigint END AS inviter
                       FROM generate_series(1, $5::int) g OFFSET 0) x
               JOIN users inv ON inv.id = x.inviter
             RETURNING id)
           SELECT max(id)::text AS hi, count(*)::text AS n FROM ins`,
      [opts.prefix, done, whaleId, last, n, share],
    )
    if (Number(res.n) !== n) throw new Error(`chunk at ${done}: ${res.n} of ${n} members written`)
    last = Number(res.hi)
  }
  if (last - whaleId + 1 !== opts.users)
    throw new Error(`member ids ${whaleId}..${last} are not contiguous`)
  for (const ix of gin.rows) await c.query(ix.def)
  return last
}

/** Consensus positions spread over the members, CHUNK at a time. */
async function insertPositionChunks(
  c: pg.PoolClient,
  opts: Pick<GenerateOptions, 'positions' | 'prefix'>,
  whaleId: number,
  last: number,
): Promise<void> {
  for (let done = 0; done < opts.positions; done += CHUNK) {
    const n = Math.min(CHUNK, opts.positions - done)
    await insertPositions(c, {
      prefix: opts.prefix,
      from: done,
      n,
      firstUser: whaleId,
      lastUser: last,
    })
  }
}

/**
 * Team statistics of every upline, as `team_add` keeps them: people per partition and the
 * consensus performance of the positions below, one pass over the (member, upline) pairs.
 */
async function writeTeamStats(c: pg.PoolClient, whaleId: number, last: number): Promise<void> {
  await c.query(
    `WITH own AS (
           SELECT user_id, sum(principal) AS principal FROM stake_positions
            WHERE user_id BETWEEN $1 AND $2 GROUP BY user_id)
         INSERT INTO team_stats AS s (user_id, partition, people, consensus)
         SELECT path.upline, child.location, count(*), coalesce(sum(own.principal), 0)
           FROM users me
           LEFT JOIN own ON own.user_id = me.id
          CROSS JOIN LATERAL unnest(me.ancestor_ids) WITH ORDINALITY AS path (upline, i)
           JOIN users child ON child.id = coalesce(me.ancestor_ids[path.i + 1], me.id)
          WHERE me.id BETWEEN $1 AND $2
          GROUP BY path.upline, child.location
         ON CONFLICT (user_id, partition) DO UPDATE
            SET people = s.people + excluded.people, consensus = s.consensus + excluded.consensus`,
    [whaleId, last],
  )
}

/** Platform account ids by kind and currency, in shard order. */
async function platformAccounts(c: pg.PoolClient): Promise<Map<string, string[]>> {
  const res = await c.query<{ key: string; ids: string[] }>(
    `SELECT kind || ':' || currency AS key, array_agg(id::text ORDER BY shard) AS ids
       FROM ledger_accounts WHERE user_id IS NULL GROUP BY kind, currency`,
  )
  return new Map(res.rows.map((r) => [r.key, r.ids]))
}

/**
 * The account logs: every member's USDT account funded from the treasury (log 5), and the
 * whale's log of `whaleLogRows` entries: community rewards (logs 7 and 8), internal transfers
 * to members (log 9), backend recharges (log 5) and fees (log 14). Written as one posted
 * single-leg request per transfer, with entries carrying each account's running balance and
 * version in transfer order, then each account's new balance and version.
 */
async function writeLedger(
  c: pg.PoolClient,
  opts: { prefix: string; whaleId: number; last: number; whaleLogRows: number },
): Promise<number> {
  const platform = await platformAccounts(c)
  const ids = (key: string) => {
    const v = platform.get(key)
    if (!v?.length) throw new Error(`no platform account ${key}`)
    return v
  }
  const treasury = ids('treasury:USDT')[0]!
  const rewardPool = ids('reward_pool:HOPE')
  const fees = ids('fees:USDT')
  const members = opts.last - opts.whaleId

  await c.query('BEGIN')
  try {
    await c.query(
      `CREATE TEMP TABLE bench_legs (n bigint, debit bigint, credit bigint, amount numeric(38, 18), log_type smallint)
       ON COMMIT DROP`,
    )
    // Funding first, so no member account is ever below zero in transfer order.
    await c.query(
      `INSERT INTO bench_legs
       SELECT a.user_id - $1, $2::bigint, a.id,
              CASE WHEN a.user_id = $1 THEN 10000000 ELSE 100 + a.user_id % 900 END, 5
         FROM ledger_accounts a WHERE a.user_id BETWEEN $1 AND $3 AND a.kind = 'usdt'`,
      [opts.whaleId, treasury, opts.last],
    )
    await c.query(
      `INSERT INTO bench_legs
       SELECT $3::bigint + j,
              CASE WHEN j % 10 < 6 THEN ($4::bigint[])[1 + j % cardinality($4::bigint[])]
                   WHEN j % 10 = 8 THEN $5::bigint ELSE w.usdt END,
              CASE WHEN j % 10 < 6 THEN w.community
                   WHEN j % 10 < 8 THEN r.id
                   WHEN j % 10 = 8 THEN w.usdt
                   ELSE ($6::bigint[])[1 + j % cardinality($6::bigint[])] END,
              CASE WHEN j % 10 < 6 THEN 0.5 + (j % 100) / 100.0
                   WHEN j % 10 < 8 THEN 0.01 * (1 + j % 100)
                   WHEN j % 10 = 8 THEN 10 ELSE 0.01 END,
              CASE WHEN j % 10 < 4 THEN 8 WHEN j % 10 < 6 THEN 7 WHEN j % 10 < 8 THEN 9
                   WHEN j % 10 = 8 THEN 5 ELSE 14 END
         FROM generate_series(1, $2::bigint - 1) j
        CROSS JOIN (SELECT max(id) FILTER (WHERE kind = 'usdt') AS usdt,
                           max(id) FILTER (WHERE kind = 'community') AS community
                      FROM ledger_accounts WHERE user_id = $1) w
         LEFT JOIN ledger_accounts r
                ON j % 10 IN (6, 7) AND r.kind = 'usdt'
               AND r.user_id = $1 + 1 + (j * 7919) % $7::bigint`,
      [
        opts.whaleId,
        Math.max(1, opts.whaleLogRows),
        members + 1,
        rewardPool,
        treasury,
        fees,
        Math.max(1, members),
      ],
    )
    const { before, total } = (
      await c.query<{ before: string; total: string }>(
        `SELECT (SELECT coalesce(max(id), 0) FROM ledger_transfers)::text AS before,
                (SELECT count(*) FROM bench_legs)::text AS total`,
      )
    ).rows[0]!
    await c.query(
      `INSERT INTO ledger_transfers (request_key, leg, request_hash, kind, debit_account_id,
                                     credit_account_id, currency, amount, log_type, created_at)
       SELECT $1::text || ':' || l.n, 0, '\\x00'::bytea, 'posted', l.debit, l.credit, a.currency,
              l.amount, l.log_type, now() - ($2::bigint - l.n) * interval '10 ms'
         FROM bench_legs l JOIN ledger_accounts a ON a.id = l.debit
        ORDER BY l.n`,
      [opts.prefix, total],
    )
    await c.query(
      `INSERT INTO ledger_entries (transfer_id, account_id, user_id, amount, balance_after, account_version)
       SELECT s.transfer, s.account, a.user_id, s.delta,
              a.balance + sum(s.delta) OVER w, a.version + row_number() OVER w
         FROM (SELECT id AS transfer, debit_account_id AS account, -amount AS delta, 0 AS side
                 FROM ledger_transfers WHERE id > $1
               UNION ALL
               SELECT id, credit_account_id, amount, 1 FROM ledger_transfers WHERE id > $1) s
         JOIN ledger_accounts a ON a.id = s.account
       WINDOW w AS (PARTITION BY s.account ORDER BY s.transfer, s.side)`,
      [before],
    )
    await c.query(
      `UPDATE ledger_accounts a SET balance = a.balance + d.delta, version = a.version + d.n
         FROM (SELECT account_id, sum(amount) AS delta, count(*) AS n FROM ledger_entries
                WHERE transfer_id > $1 GROUP BY account_id) d
        WHERE a.id = d.account_id`,
      [before],
    )
    const negative = await c.query(
      `SELECT 1 FROM ledger_entries WHERE transfer_id > $1 AND user_id IS NOT NULL AND balance_after < 0 LIMIT 1`,
      [before],
    )
    if (negative.rowCount) throw new Error('a generated member account went below zero')
    await c.query('COMMIT')
    return Number(total)
  } catch (e) {
    await c.query('ROLLBACK')
    throw e
  }
}
