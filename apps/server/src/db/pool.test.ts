import net from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { openDatabase, type Database } from './pool.ts'

/**
 * A TCP relay to the test PostgreSQL that can stop relaying both ways, as a frozen server or a
 * cut network does: connections stay open and nothing answers.
 */
function startRelay(target: URL) {
  let frozen = false
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream)
    upstream.pipe(client)
    if (frozen) {
      client.pause()
      upstream.pause()
    }
  })
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    freeze() {
      frozen = true
      for (const s of sockets) s.pause()
    },
    thaw() {
      frozen = false
      for (const s of sockets) s.resume()
    },
    close() {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

describe('database pool', () => {
  let relay: ReturnType<typeof startRelay>
  let database: Database

  beforeAll(async () => {
    const target = new URL(inject('embeddedDatabaseUrl'))
    relay = startRelay(target)
    const url = new URL(target)
    // The relay is a TCP port: the embedded server's socket directory would bypass it.
    url.searchParams.delete('host')
    url.port = String(await relay.listen())
    database = openDatabase(url.toString(), 4, { stallMs: 500, connectTimeoutMs: 1_000 })
  })

  afterAll(async () => {
    relay.thaw()
    await database.close()
    relay.close()
  })

  test('a query on a server that stopped answering fails soon instead of hanging', async () => {
    expect((await database.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    // A transaction in progress when the server goes silent, and a plain query.
    const held = await database.pool.connect()
    await held.query('BEGIN')
    relay.freeze()
    const started = Date.now()
    const results = await Promise.allSettled([
      held.query('SELECT 1'),
      database.pool.query('SELECT 2'),
    ])
    held.release()
    expect(Date.now() - started).toBeLessThan(3_000)
    for (const r of results) {
      expect(r.status).toBe('rejected')
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/connection terminated/i)
    }
    // Still silent: new work fails at once (08006, answered as 503) instead of each request
    // waiting out a connection time-out behind the others.
    const queuedAt = Date.now()
    const queued = await database.pool.query('SELECT 5').catch((e: unknown) => e)
    expect(Date.now() - queuedAt).toBeLessThan(300)
    expect(queued).toMatchObject({ code: '08006' })
    relay.thaw()
    // Back again: once a probe answers, the pool connects afresh by itself.
    const deadline = Date.now() + 5_000
    let back: unknown
    while (Date.now() < deadline) {
      back = await database.pool.query('SELECT 3 AS three').catch((e: unknown) => e)
      if (!(back instanceof Error)) break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect((back as { rows: unknown }).rows).toEqual([{ three: 3 }])
  })

  test('a slow query on a server that answers is left to finish', async () => {
    const r = await database.pool.query('SELECT pg_sleep(1.5), 4 AS four')
    expect(r.rows[0]).toMatchObject({ four: 4 })
  })
})

describe('a pool opened before its database is up', () => {
  test('queries and connections wait for the URL, then run', async () => {
    let give!: (url: string) => void
    const database = openDatabase(new Promise<string>((r) => (give = r)), 2)
    try {
      let answered = false
      const query = database.pool.query('SELECT 1 AS one').then((r) => {
        answered = true
        return r.rows
      })
      const client = database.pool.connect()
      await new Promise((r) => setTimeout(r, 50))
      expect(answered).toBe(false)
      give(inject('embeddedDatabaseUrl'))
      expect(await query).toEqual([{ one: 1 }])
      const held = await client
      expect((await held.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }])
      held.release()
    } finally {
      await database.close()
    }
  })

  test('a database that fails to start fails the waiting queries with its reason', async () => {
    const database = openDatabase(Promise.reject(new Error('the database did not start')), 2)
    try {
      await expect(database.pool.query('SELECT 1')).rejects.toThrow('the database did not start')
      await expect(database.pool.connect()).rejects.toThrow('the database did not start')
    } finally {
      await database.close()
    }
  })
})

describe('connection limits', () => {
  const limitsOf = async (database: Database) => {
    const client = await database.pool.connect()
    try {
      const { rows } = await client.query<{ name: string; setting: string }>(
        `SELECT name, setting FROM pg_settings
          WHERE name IN ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout')
          ORDER BY name`,
      )
      return Object.fromEntries(rows.map((r) => [r.name, Number(r.setting)]))
    } finally {
      client.release()
    }
  }

  test('are in effect from a connection’s first query, and none on a setup pool', async () => {
    const url = inject('embeddedDatabaseUrl')
    const limited = openDatabase(url, 1, {
      timeouts: { statementMs: 1_500, lockMs: 700, idleInTransactionMs: 3_000 },
    })
    const setup = openDatabase(url, 1, { stallMs: 0 })
    try {
      expect(await limitsOf(limited)).toEqual({
        idle_in_transaction_session_timeout: 3_000,
        lock_timeout: 700,
        statement_timeout: 1_500,
      })
      expect(await limitsOf(setup)).toEqual({
        idle_in_transaction_session_timeout: 0,
        lock_timeout: 0,
        statement_timeout: 0,
      })
    } finally {
      await limited.close()
      await setup.close()
    }
  })

  test('a transaction raises its own with SET LOCAL, and the connection’s is back after it', async () => {
    const limited = openDatabase(inject('embeddedDatabaseUrl'), 1, {
      timeouts: { statementMs: 200, lockMs: 200, idleInTransactionMs: 3_000 },
    })
    try {
      const client = await limited.pool.connect()
      try {
        await client.query('BEGIN')
        await client.query(`SET LOCAL statement_timeout = '5s'`)
        await client.query('SELECT pg_sleep(0.4)')
        await client.query('COMMIT')
        await expect(client.query('SELECT pg_sleep(0.4)')).rejects.toMatchObject({ code: '57014' })
      } finally {
        client.release()
      }
    } finally {
      await limited.close()
    }
  })
})
