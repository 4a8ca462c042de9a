import type pg from 'pg'

export interface VerifyReport {
  accounts: number
  transfers: number
  problems: string[]
}

/**
 * Checks the four invariants of DESIGN §4 on a database, naming each account that breaks one:
 * 1. balances per currency sum to zero (pending debits equal pending credits);
 * 2. no user account is negative;
 * 3. a balance equals the sum of its entries, entries are append-only (guarded by triggers);
 * 4. an idempotency key moved money once: legs are unique per key, a pending transfer is
 *    resolved at most once, and every transfer's entries balance.
 */
export async function verifyLedger(q: Pick<pg.Pool, 'query'>): Promise<VerifyReport> {
  const problems: string[] = []
  const rows: Rows = async (sql) => (await q.query(sql)).rows

  for (const check of CHECKS) await check(rows, problems)

  const [counts] = await rows<{ accounts: string; transfers: string }>(
    `SELECT (SELECT count(*) FROM ledger_accounts)::text AS accounts, (SELECT count(*) FROM ledger_transfers)::text AS transfers`,
  )
  return {
    accounts: Number(counts?.accounts ?? 0),
    transfers: Number(counts?.transfers ?? 0),
    problems,
  }
}

/** Runs one query and returns its rows. */
type Rows = <T extends pg.QueryResultRow>(sql: string) => Promise<T[]>

/** Invariant 1: per currency, balances sum to zero and pending debits equal pending credits. */
async function currenciesSumToZero(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ currency: string; b: string; dp: string; cp: string }>(
    `SELECT currency, sum(balance)::text AS b, sum(debits_pending)::text AS dp, sum(credits_pending)::text AS cp
     FROM ledger_accounts GROUP BY currency`,
  )) {
    if (Number(r.b) !== 0) problems.push(`invariant 1: ${r.currency} balances sum to ${r.b}, not 0`)
    if (r.dp !== r.cp)
      problems.push(`invariant 1: ${r.currency} pending debits ${r.dp} != pending credits ${r.cp}`)
  }
}

/** Invariant 2: no user account is negative, nor spends into what it has reserved. */
async function noUserAccountIsNegative(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{
    id: string
    kind: string
    user_id: string
    balance: string
    dp: string
  }>(
    `SELECT id, kind, user_id, balance::text, debits_pending::text AS dp FROM ledger_accounts
     WHERE user_id IS NOT NULL AND (balance < 0 OR balance - debits_pending < 0)`,
  )) {
    problems.push(
      `invariant 2: account ${r.id} (user ${r.user_id} ${r.kind}) is negative: balance ${r.balance}, pending ${r.dp}`,
    )
  }
}

/** Invariant 3: an account's balance and version are its entries' sum and count. */
async function balancesMatchEntries(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{
    id: string
    balance: string
    sum: string
    n: string
    version: string
    last: string | null
  }>(
    `SELECT a.id, a.balance::text, coalesce(e.sum, 0)::text AS sum, coalesce(e.n, 0)::text AS n, a.version::text, e.last::text
     FROM ledger_accounts a
     LEFT JOIN (SELECT account_id, sum(amount) AS sum, count(*) AS n, max(account_version) AS maxv,
                       (array_agg(balance_after ORDER BY account_version DESC))[1] AS last
                FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
     WHERE a.balance <> coalesce(e.sum, 0) OR a.version <> coalesce(e.n, 0) OR a.version <> coalesce(e.maxv, 0)
        OR (e.last IS NOT NULL AND e.last <> a.balance)`,
  )) {
    problems.push(
      `invariant 3: account ${r.id} balance ${r.balance} but entries sum to ${r.sum} (${r.n} entries, version ${r.version}, last balance ${r.last ?? '-'})`,
    )
  }
}

/**
 * Invariant 3: each entry follows the one before it on its account, so the log a user reads
 * adds up line by line.
 */
async function entriesFollowOneAnother(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ account: string; version: string; after: string; prev: string }>(
    `SELECT account_id AS account, account_version::text AS version, balance_after::text AS after,
            coalesce(prev, 0)::text AS prev
     FROM (SELECT account_id, account_version, amount, balance_after,
                  lag(balance_after) OVER w AS prev, lag(account_version) OVER w AS prev_version
           FROM ledger_entries WINDOW w AS (PARTITION BY account_id ORDER BY account_version)) x
     WHERE balance_after <> coalesce(prev, 0) + amount OR account_version <> coalesce(prev_version, 0) + 1
     LIMIT 50`,
  )) {
    problems.push(
      `invariant 3: account ${r.account} entry ${r.version} says ${r.after} after the one before said ${r.prev}`,
    )
  }
}

/** Invariant 2: no user account went negative at any entry. */
async function noEntryWentNegative(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ account: string; version: string; after: string }>(
    `SELECT account_id AS account, account_version::text AS version, balance_after::text AS after
     FROM ledger_entries WHERE user_id IS NOT NULL AND balance_after < 0 LIMIT 50`,
  )) {
    problems.push(
      `invariant 2: account ${r.account} went negative at entry ${r.version} (${r.after})`,
    )
  }
}

/** Invariant 1: a transfer joins accounts of its own currency. */
async function transfersKeepOneCurrency(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ id: string; currency: string }>(
    `SELECT t.id, t.currency FROM ledger_transfers t
     JOIN ledger_accounts d ON d.id = t.debit_account_id JOIN ledger_accounts c ON c.id = t.credit_account_id
     WHERE d.currency <> t.currency OR c.currency <> t.currency LIMIT 50`,
  )) {
    problems.push(
      `invariant 1: transfer ${r.id} in ${r.currency} joins accounts of another currency`,
    )
  }
}

/** Invariant 3: an account reserves what its open pending transfers total. */
async function reservationsMatchOpenPendings(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ id: string; dp: string; open: string }>(
    `SELECT a.id, a.debits_pending::text AS dp, coalesce(p.open, 0)::text AS open FROM ledger_accounts a
     LEFT JOIN (SELECT t.debit_account_id AS id, sum(t.amount) AS open FROM ledger_transfers t
                WHERE t.kind = 'pending' AND NOT EXISTS (SELECT 1 FROM ledger_transfers r WHERE r.pending_id = t.id)
                GROUP BY t.debit_account_id) p ON p.id = a.id
     WHERE a.debits_pending <> coalesce(p.open, 0)`,
  )) {
    problems.push(
      `invariant 3: account ${r.id} reserves ${r.dp} but its open pending transfers total ${r.open}`,
    )
  }
}

/**
 * Invariant 3: what each two-phase transfer says its debit account held after it (the account
 * log's available balance) is the running total of the account's reservations and resolutions.
 */
async function twoPhaseHeldMatchesReservations(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ id: string; recorded: string | null; held: string }>(
    `SELECT h.id, h.recorded::text, h.held::text FROM (
       SELECT x.id, x.debit_pending_after AS recorded,
              sum(CASE WHEN x.kind = 'pending' THEN x.amount ELSE -p.amount END)
                OVER (PARTITION BY x.debit_account_id ORDER BY x.id) AS held
         FROM ledger_transfers x LEFT JOIN ledger_transfers p ON p.id = x.pending_id
        WHERE x.kind <> 'posted') h
     WHERE h.recorded IS DISTINCT FROM h.held LIMIT 50`,
  )) {
    problems.push(
      `invariant 3: two-phase transfer ${r.id} records ${r.recorded ?? 'nothing'} held after it, but its account's reservations total ${r.held}`,
    )
  }
}

/** Invariant 4: a transfer's entries balance, two for a posting and none otherwise. */
async function transfersBalance(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ id: string; kind: string; n: string; s: string }>(
    `SELECT t.id, t.kind, count(e.id)::text AS n, coalesce(sum(e.amount), 0)::text AS s
     FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
     GROUP BY t.id, t.kind
     HAVING coalesce(sum(e.amount), 0) <> 0
         OR count(e.id) <> CASE WHEN t.kind IN ('posted', 'post_pending') THEN 2 ELSE 0 END`,
  )) {
    problems.push(`invariant 4: transfer ${r.id} (${r.kind}) has ${r.n} entries summing to ${r.s}`)
  }
}

/** Invariant 3: transfers and entries name accounts and transfers that exist. */
async function referencesExist(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ id: string }>(
    `SELECT t.id FROM ledger_transfers t
     WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = t.debit_account_id)
        OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = t.credit_account_id)
        OR (t.pending_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ledger_transfers p WHERE p.id = t.pending_id AND p.kind = 'pending'))
     UNION ALL
     SELECT e.transfer_id FROM ledger_entries e
     WHERE NOT EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = e.transfer_id)
        OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = e.account_id)`,
  )) {
    problems.push(
      `invariant 3: transfer ${r.id} or one of its entries names a missing account or transfer`,
    )
  }
}

/** Invariant 4: an idempotency key has each of its legs once. */
async function keysMoveMoneyOnce(rows: Rows, problems: string[]): Promise<void> {
  for (const r of await rows<{ key: string }>(
    `SELECT request_key AS key FROM ledger_transfers GROUP BY request_key
     HAVING count(*) <> max(leg) + 1 OR count(*) FILTER (WHERE leg = 0) <> 1`,
  )) {
    problems.push(`invariant 4: idempotency key ${r.key} has missing or repeated legs`)
  }
}

/** Invariant 3: the triggers that keep the ledger tables append-only are on. */
async function appendOnlyGuardsEnabled(rows: Rows, problems: string[]): Promise<void> {
  const triggers = await rows<{ n: string }>(
    `SELECT count(*)::text AS n FROM pg_trigger WHERE tgname IN
       ('ledger_transfers_append_only', 'ledger_entries_append_only') AND tgenabled <> 'D'`,
  )
  if (triggers[0]?.n !== '2')
    problems.push(
      'invariant 3: the append-only guards on the ledger tables are missing or disabled',
    )
}

/** The checks in the order their problems are reported. */
const CHECKS: ((rows: Rows, problems: string[]) => Promise<void>)[] = [
  currenciesSumToZero,
  noUserAccountIsNegative,
  balancesMatchEntries,
  entriesFollowOneAnother,
  noEntryWentNegative,
  transfersKeepOneCurrency,
  reservationsMatchOpenPendings,
  twoPhaseHeldMatchesReservations,
  transfersBalance,
  referencesExist,
  keysMoveMoneyOnce,
  appendOnlyGuardsEnabled,
]
