import type { PriceSymbol } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'
import type { PriceRow } from './quotes.rules.ts'

export type PriceSource = 'operator' | 'feed' | 'stage' | 'sample' | 'seed'

const ROW = `price::text AS price, floor(extract(epoch FROM at) * 1000)::bigint::text AS at`
const toRow = (r: { price: string; at: string }): PriceRow => ({ price: r.price, at: Number(r.at) })

export async function insertPrice(
  q: Queryable,
  p: { symbol: PriceSymbol; price: string; source: PriceSource; at: number; operatorId?: number },
): Promise<void> {
  await q.query(
    'INSERT INTO price_points (symbol, price, source, operator_id, at) VALUES ($1, $2, $3, $4, $5)',
    [p.symbol, p.price, p.source, p.operatorId ?? null, new Date(p.at)],
  )
}

/** The newest price of a symbol at or before `at` (ms), or null. */
export async function priceAtOrBefore(
  q: Queryable,
  symbol: PriceSymbol,
  at: number,
): Promise<PriceRow | null> {
  const res = await q.query<{ price: string; at: string }>(
    `SELECT ${ROW} FROM price_points WHERE symbol = $1 AND at <= $2 ORDER BY at DESC, id DESC LIMIT 1`,
    [symbol, new Date(at)],
  )
  return res.rows[0] ? toRow(res.rows[0]) : null
}

/** The oldest price of a symbol after `from` and at or before `to` (ms), or null. */
export async function firstPriceWithin(
  q: Queryable,
  symbol: PriceSymbol,
  from: number,
  to: number,
): Promise<PriceRow | null> {
  const res = await q.query<{ price: string; at: string }>(
    `SELECT ${ROW} FROM price_points WHERE symbol = $1 AND at > $2 AND at <= $3
     ORDER BY at, id LIMIT 1`,
    [symbol, new Date(from), new Date(to)],
  )
  return res.rows[0] ? toRow(res.rows[0]) : null
}

/** The last price in each bucket of `bucketSeconds` after `from` up to `to`, oldest first. */
export async function bucketedPrices(
  q: Queryable,
  symbol: PriceSymbol,
  from: number,
  to: number,
  bucketSeconds: number,
): Promise<PriceRow[]> {
  const res = await q.query<{ price: string; at: string }>(
    `SELECT price, at FROM (
       SELECT DISTINCT ON (bucket) bucket, ${ROW}
         FROM (SELECT floor(extract(epoch FROM at) / $4)::bigint AS bucket, price, at, id
                 FROM price_points WHERE symbol = $1 AND at > $2 AND at <= $3) p
        ORDER BY bucket, p.at DESC, p.id DESC) b
     ORDER BY bucket`,
    [symbol, new Date(from), new Date(to), bucketSeconds],
  )
  return res.rows.map(toRow)
}

/** Stores `price` as the first point of `symbol`'s history; nothing when it has one. */
export async function insertSeedPrice(
  q: Queryable,
  symbol: PriceSymbol,
  price: string,
): Promise<void> {
  await q.query(
    `INSERT INTO price_points (symbol, price, source)
     SELECT $1, $2, 'seed' WHERE NOT EXISTS (SELECT 1 FROM price_points WHERE symbol = $1)`,
    [symbol, price],
  )
}
