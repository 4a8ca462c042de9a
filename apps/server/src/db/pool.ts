import pg from 'pg'
import { assertOutsideTransaction } from './transaction.ts'

// NUMERIC and BIGINT stay strings: money never passes through a JS float.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v)
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v)

export interface Database {
  pool: pg.Pool
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** How long a request waits for a connection (a free one, or a new one made), 10 s unless given. */
  connectTimeoutMs?: number
  /**
   * A connection held longer than this makes a fresh connection check that the server still
   * answers within the same time; when it does not, every connection is closed (see
   * `watchStalls`). 0 turns the watch off.
   */
  stallMs?: number
  /** What the connections call themselves to the server (pg_stat_activity.application_name). */
  applicationName?: string
  /** How long an unused connection stays open, 10 s unless given; 0 keeps it. */
  idleTimeoutMs?: number
  /**
   * The server-side limits every connection starts with (see `ConnectionTimeouts`); none when
   * absent, which only the setup work (migrations, seeding) and the owner's tools use.
   */
  timeouts?: ConnectionTimeouts
}

/**
 * The limits the server puts on each connection of the app's pools, sent with the connection's
 * start so they hold from its first query. A lock held elsewhere, a query gone slow or a
 * transaction left open then fails one request (503) and gives its connection back, instead of
 * holding the pool until every request waits. Work that legitimately runs longer raises its own
 * limit inside its transaction (`SET LOCAL statement_timeout`). 0 turns a limit off.
 */
export interface ConnectionTimeouts {
  /** statement_timeout: the longest one statement runs. */
  statementMs: number
  /** lock_timeout: the longest a statement waits for a lock (a row, a table, an advisory lock). */
  lockMs: number
  /** idle_in_transaction_session_timeout: the longest a transaction sits open between statements. */
  idleInTransactionMs: number
}

/** 5 s a statement, 2 s a lock wait, 10 s idle inside a transaction. */
export const DEFAULT_CONNECTION_TIMEOUTS: ConnectionTimeouts = {
  statementMs: 5_000,
  lockMs: 2_000,
  idleInTransactionMs: 10_000,
}

/** The role the web workers and the jobs connect as: the app's rows, not its schema. */
export const APP_ROLE = 'hope_app'
/** The role the signer connects as: reads what it checks, appends to its own logs. */
export const SIGNER_ROLE = 'hope_signer'

/**
 * `url` with its user replaced by `role`, everything else (password, host, database) kept: the
 * role's URL on a server that trusts local connections or gives every role one password (the
 * embedded one).
 *
 * @example roleUrl('postgres://postgres:pw@127.0.0.1:5432/hope', 'hope_app')
 *   // 'postgres://hope_app:pw@127.0.0.1:5432/hope'
 */
export function roleUrl(url: string, role: string): string {
  const u = new URL(url)
  u.username = role
  return u.toString()
}

/** Closes a client's socket at once: its queries fail, the server rolls back what it began. */
function destroy(client: pg.ClientBase): void {
  ;(client as pg.Client).connection.stream.destroy()
}

/** Whether the server at `url` accepts a connection and answers `SELECT 1` within `timeoutMs`. */
async function serverAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('SELECT 1')
    void client.end().catch(() => {})
    return true
  } catch {
    destroy(client)
    return false
  }
}

/**
 * A server that stops answering without closing its connections (frozen, or cut off by the
 * network) leaves every query on them waiting for ever: requests hang and the pool runs dry.
 * When a connection has been held for `stallMs`, a fresh one probes the server; if the probe
 * gets no answer in `stallMs`, every connection is closed, so the waiting requests fail with
 * 503 and the pool connects afresh once the server is back. A query that is merely slow on a
 * server that answers is left alone. Closing a connection rolls back its open transaction on
 * the server; a COMMIT caught in flight may or may not have landed, which is what idempotency
 * keys are for.
 */
interface StallWatch {
  stop(): void
  /** True from a failed probe until one answers again: new work fails at once meanwhile. */
  serverAway(): boolean
}

function watchStalls(pool: pg.Pool, url: string, stallMs: number): StallWatch {
  const clients = new Set<pg.PoolClient>()
  const heldSince = new Map<pg.PoolClient, number>()
  pool.on('connect', (client) => {
    clients.add(client)
    client.once('end', () => {
      clients.delete(client)
      heldSince.delete(client)
    })
  })
  pool.on('acquire', (client) => heldSince.set(client, Date.now()))
  pool.on('release', (_err, client) => heldSince.delete(client))
  pool.on('remove', (client) => {
    clients.delete(client)
    heldSince.delete(client)
  })
  let probing = false
  let trustedUntil = 0
  let away = false
  const timer = setInterval(
    () => {
      const now = Date.now()
      if (probing) return
      // Away: probe until the server answers again. Otherwise probe only for a stalled client.
      if (!away) {
        if (now < trustedUntil || !heldSince.size) return
        if (now - Math.min(...heldSince.values()) < stallMs) return
      }
      probing = true
      void serverAnswers(url, stallMs)
        .then((answers) => {
          if (answers) {
            away = false
            trustedUntil = Date.now() + stallMs
          } else {
            // Requests queued behind the stalled ones would each wait out a connection
            // time-out on the silent server: they fail at once until a probe answers.
            away = true
            for (const client of clients) destroy(client)
          }
        })
        .finally(() => (probing = false))
    },
    Math.max(100, Math.min(1_000, stallMs / 4)),
  )
  timer.unref()
  return { stop: () => clearInterval(timer), serverAway: () => away }
}

/** What a connect answers while the server is away (08006: connection failure). */
function awayError(): Error {
  return Object.assign(new Error('the database does not answer; retrying shortly'), {
    code: '08006',
  })
}

/**
 * A pool of connections to `url`. Given a promise of the URL (a database still starting or
 * migrating), the pool is usable at once: connections wait for the URL, and fail with its
 * rejection.
 */
export function openDatabase(
  url: string | Promise<string>,
  max = 20,
  opts: DatabaseOptions = {},
): Database {
  const pool = new pg.Pool({
    ...(typeof url === 'string' ? { connectionString: url } : {}),
    max,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    idleTimeoutMillis: opts.idleTimeoutMs ?? 10_000,
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
    ...(opts.timeouts
      ? {
          statement_timeout: opts.timeouts.statementMs,
          lock_timeout: opts.timeouts.lockMs,
          idle_in_transaction_session_timeout: opts.timeouts.idleInTransactionMs,
        }
      : {}),
  })
  const stallMs = opts.stallMs ?? 5_000
  let watch: StallWatch = { stop: () => {}, serverAway: () => false }
  let closed = false
  let urlKnown = typeof url === 'string'
  const known = Promise.resolve(url).then((resolved) => {
    pool.options.connectionString = resolved
    urlKnown = true
    if (stallMs > 0 && !closed) watch = watchStalls(pool, resolved, stallMs)
  })
  // Its failure is reported to each connect that waits on it.
  known.catch(() => {})
  // Code inside a transaction queries on its client, never here (see assertOutsideTransaction).
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown
  pool.query = ((...args: unknown[]) => {
    assertOutsideTransaction()
    return query(...args)
  }) as typeof pool.query
  pool.connect = ((...args: unknown[]) => {
    assertOutsideTransaction()
    const callback = args[0]
    const fail = (err: Error) => {
      if (typeof callback !== 'function') return Promise.reject(err)
      process.nextTick(() => (callback as (err: Error) => void)(err))
      return undefined
    }
    if (!urlKnown) {
      const connected = known.then(() => pool.connect(...(args as [])))
      if (typeof callback !== 'function') return connected
      connected.catch((err: Error) => (callback as (err: Error) => void)(err))
      return undefined
    }
    if (watch.serverAway()) return fail(awayError())
    return connect(...args)
  }) as typeof pool.connect
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  })
  pool.on('connect', (client) => {
    // A client in use whose connection drops (the server stopped or restarted) reports it here
    // as well as to its query; without a listener that would end the process. The pool drops
    // the client when it is released.
    client.on('error', () => {})
  })
  return {
    pool,
    close: () => {
      closed = true
      watch.stop()
      return pool.end()
    },
  }
}
