import { parseAmount, trimDecimal } from '@hope/api'
import type pg from 'pg'
import { runScript, sleep, waitFor, type HopeServer } from './server.ts'

/** A decimal string from the database (NUMERIC(38,18)) as micro-units of USDT. */
export const usdtUnits = (v: string): bigint => {
  const units = parseAmount(trimDecimal(v), 18)
  if (units === null) throw new Error(`not an amount: ${v}`)
  if (units % 10n ** 12n !== 0n) throw new Error(`more than 6 decimals: ${v}`)
  return units / 10n ** 12n
}

/** `npm run ledger:verify` on the app's data; its output when clean, else it throws. */
export async function ledgerVerify(server: HopeServer): Promise<string> {
  const r = await runScript('ledger-verify.ts', server.dataDir)
  if (r.code !== 0) throw new Error(`ledger:verify failed (${r.code}):\n${r.stderr}${r.stdout}`)
  return r.stdout.trim()
}

/** `npm run chain:reconcile` on the app's data; its output when clean, else it throws. */
export async function chainReconcile(server: HopeServer): Promise<string> {
  const r = await runScript('chain-reconcile.ts', server.dataDir)
  if (r.code !== 0) throw new Error(`chain:reconcile failed (${r.code}):\n${r.stderr}${r.stdout}`)
  return r.stdout.trim()
}

/** Each member's balance after `moves` (indexes into the members) from `start`, in micro-units. */
export function balancesAfter(
  start: readonly bigint[],
  moves: readonly { from: number; to: number; units: bigint }[],
): bigint[] {
  const balances = [...start]
  for (const m of moves) {
    balances[m.from]! -= m.units
    balances[m.to]! += m.units
  }
  return balances
}

/** Posted balance and pending debits of each user's account of `kind`, in USDT micro-units. */
export async function userBalances(
  pool: pg.Pool,
  userNames: readonly string[],
  kind = 'usdt',
): Promise<Map<string, { balance: bigint; pending: bigint }>> {
  const rows = await pool.query<{ user_name: string; balance: string; pending: string }>(
    `SELECT u.user_name, a.balance::text AS balance, a.debits_pending::text AS pending
       FROM users u JOIN ledger_accounts a ON a.user_id = u.id AND a.kind = $2
      WHERE u.user_name = ANY ($1::text[])`,
    [userNames, kind],
  )
  return new Map(
    rows.rows.map((r) => [
      r.user_name,
      { balance: usdtUnits(r.balance), pending: usdtUnits(r.pending) },
    ]),
  )
}

/** How many rows a `count(*)::int AS n` query counts. */
export async function countRows(pool: pg.Pool, sql: string, params: unknown[] = []) {
  const r = await pool.query<{ n: number }>(sql, params)
  return r.rows[0]!.n
}

/** Waits until the count of a `count(*)::int AS n` query is `done`, and returns that count. */
export async function waitForCount(
  pool: pg.Pool,
  what: string,
  sql: string,
  done: (n: number) => boolean,
  timeoutMs = 90_000,
  everyMs = 250,
): Promise<number> {
  let n = 0
  await waitFor(what, async () => done((n = await countRows(pool, sql))), timeoutMs, everyMs)
  return n
}

/** Waits until withdrawal `id` is completed (status 2): paid and confirmed. */
export async function waitForWithdrawalCompleted(
  pool: pg.Pool,
  id: number,
  timeoutMs?: number,
  everyMs?: number,
): Promise<void> {
  await waitForCount(
    pool,
    'the withdrawal to complete',
    `SELECT count(*)::int AS n FROM withdrawals WHERE id = ${Number(id)} AND status = 2`,
    (n) => n === 1,
    timeoutMs,
    everyMs,
  )
}

/**
 * The stake positions not settled through `day`, and those whose release is not the day's
 * 0.5 % of their principal.
 */
export async function settledPositions(
  pool: pg.Pool,
  day: string,
): Promise<{ unsettled: number; wrong: number }> {
  const r = await pool.query<{ unsettled: number; wrong: number }>(
    `SELECT (count(*) FILTER (WHERE settled_through IS DISTINCT FROM $1::date))::int AS unsettled,
            (count(*) FILTER (WHERE released <> principal * 0.005))::int AS wrong
       FROM stake_positions`,
    [day],
  )
  return r.rows[0]!
}

/**
 * Waits until `count` deposits are credited, then `settleMs` longer (a second credit would show
 * by then): the deposits by status.
 */
export async function depositsAfterCredit(
  pool: pg.Pool,
  count: number,
  settleMs: number,
): Promise<{ status: string; n: number }[]> {
  await waitForCount(
    pool,
    'every deposit to be credited',
    `SELECT count(*)::int AS n FROM deposits WHERE status = 'credited'`,
    (n) => n >= count,
  )
  await sleep(settleMs)
  const rows = await pool.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM deposits GROUP BY status',
  )
  return rows.rows
}
