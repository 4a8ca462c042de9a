import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/**
 * `n` consensus positions of 100..1,000 USDT, opened two days ago, each held by a random user
 * with an id in `firstUser..lastUser`; their request keys are `prefix:<from + 1>` onwards.
 */
export async function insertPositions(
  q: Queryable,
  opts: { prefix: string; from: number; n: number; firstUser: number; lastUser: number },
): Promise<void> {
  await q.query(
    `INSERT INTO stake_positions (user_id, principal, hope, price, cap, request_key, created_at)
     SELECT u, p * 100, p * 1000, 0.1, p * 250, $1::text || ':' || ($2::int + g), now() - interval '2 days'
       FROM generate_series(1, $3::int) g,
            LATERAL (SELECT $4::bigint + floor(random() * ($5::bigint - $4::bigint + 1))::bigint + g * 0 AS u,
                            1 + floor(random() * 10)::int + g * 0 AS p) r`,
    [opts.prefix, opts.from, opts.n, opts.firstUser, opts.lastUser],
  )
}

/**
 * Test and benchmark data: `users` members in a referral tree under the first user (each
 * invited by a random earlier member, in a random partition) and `positions` consensus
 * positions of 100..1,000 USDT spread over them. Rows are written set-based, in chunks.
 */
export async function generateEconomy(
  pool: pg.Pool,
  opts: { users: number; positions: number; prefix: string },
): Promise<{ firstUser: number; lastUser: number }> {
  const root = await pool.query<{ id: string }>(
    `SELECT id::text FROM users WHERE inviter_id IS NULL ORDER BY id LIMIT 1`,
  )
  const rootId = Number(root.rows[0]!.id)
  let first = 0
  let last = rootId
  const CHUNK = 10_000
  // chunks double in size, so the tree grows levels instead of hanging everyone off the root
  for (
    let done = 0, n = 1;
    done < opts.users;
    done += n, n = Math.min(CHUNK, opts.users - done, done)
  ) {
    // inviters come from the members written by earlier chunks (or the root)
    const lo = first || rootId
    const res = await pool.query<{ lo: string; hi: string }>(
      `WITH ins AS (
         INSERT INTO users (user_name, nick_name, referral_code, inviter_id, location)
         SELECT '0x' || md5($2::text || ':' || ($1::int + g)) || '00000000', 'gen',
                upper(md5('code:' || $2::text || ':' || ($1::int + g))),
                CASE WHEN $3::bigint < $4::bigint THEN $3 + floor(random() * ($4 - $3 + 1))::bigint ELSE $3 END,
                1 + floor(random() * 3)::int
           FROM generate_series(1, $5::int) g
         RETURNING id)
       SELECT min(id)::text AS lo, max(id)::text AS hi FROM ins`,
      [done, opts.prefix, lo, last, n],
    )
    if (!first) first = Number(res.rows[0]!.lo)
    last = Number(res.rows[0]!.hi)
  }
  for (let done = 0; done < opts.positions; done += CHUNK * 10) {
    const n = Math.min(CHUNK * 10, opts.positions - done)
    await insertPositions(pool, {
      prefix: opts.prefix,
      from: done,
      n,
      firstUser: first,
      lastUser: last,
    })
  }
  // the positions count as consensus performance of every upline, as entries made in the app do
  await pool.query(
    `INSERT INTO team_stats AS s (user_id, partition, consensus)
     SELECT path.upline, child.location, sum(p.principal)
       FROM stake_positions p
       JOIN users me ON me.id = p.user_id
      CROSS JOIN LATERAL unnest(me.ancestor_ids) WITH ORDINALITY AS path (upline, i)
       JOIN users child ON child.id = coalesce(me.ancestor_ids[path.i + 1], me.id)
      WHERE p.request_key LIKE $1::text || ':%'
      GROUP BY path.upline, child.location
     ON CONFLICT (user_id, partition) DO UPDATE SET consensus = s.consensus + excluded.consensus`,
    [opts.prefix],
  )
  return { firstUser: first, lastUser: last }
}
