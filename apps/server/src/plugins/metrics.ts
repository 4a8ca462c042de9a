import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type pg from 'pg'
import client from 'prom-client'
import { erc20Abi, type Address } from 'viem'
import type { ChainConnection } from '../chain/chain.service.ts'
import { jobLastSuccess } from '../jobs/interval-job.ts'
import { withTimeout } from '../lib/with-timeout.ts'
import { CHAIN_ALARM_KINDS, type ChainAlarmKind } from '../modules/reconcile/reconcile.rules.ts'
import { readOpsFigures } from './metrics.repository.ts'

/** How long a scrape waits for the database or the chain before leaving a figure out. */
const SCRAPE_READ_TIMEOUT_MS = 2_000

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus metrics (`GET /metrics`). */
    metrics: AppMetrics
  }
}

export interface AppMetrics {
  registry: client.Registry
  /** A refused sign-in: a wallet's signature, or an operator's password or code. */
  signInFailed(kind: 'wallet' | 'operator'): void
  /** The hot wallet whose token balance is reported (set once the server knows it). */
  watchHotWallet(address: Address | null): void
  /**
   * The chain scan raised an alarm: a vault payout the books do not know or that differs from
   * its withdrawal, or tokens that left the platform's addresses otherwise.
   */
  chainAlarmRaised(kind: ChainAlarmKind): void
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** Whether `req` may read the metrics: from this machine, or with the token. */
function mayScrape(req: FastifyRequest, token: string | undefined): boolean {
  const header = req.headers.authorization
  if (token && typeof header === 'string') {
    const given = Buffer.from(header.replace(/^Bearer\s+/i, ''))
    const want = Buffer.from(token)
    if (given.length === want.length && timingSafeEqual(given, want)) return true
  }
  // Both the peer and the client it speaks for (behind a trusted proxy) must be this machine.
  return LOOPBACK.has(req.socket.remoteAddress ?? '') && LOOPBACK.has(req.ip)
}

/** `work`'s value, or null when it fails or takes longer than `ms`. */
const within = <T>(ms: number, work: Promise<T>): Promise<T | null> =>
  withTimeout(work, ms).catch(() => null)

/**
 * `GET /metrics`: Prometheus text, every name starting `hope_`. Readable from loopback, or from
 * anywhere with `Authorization: Bearer <METRICS_TOKEN>`; others get 404. What it shows: requests
 * per route and their latency, the event loop's lag and the process (Node's default metrics),
 * the pool's connections in use, idle and waiting, ledger transfers, how far the deposit watcher
 * is behind the chain's head, open withdrawals by state and the oldest one's age, the hot
 * wallet's token balance, each job's last success, the proof-of-liabilities snapshot's age and
 * coverage, refused sign-ins, and the chain scan's alarms (money out that the books do not
 * know): raised by this process, and open in the books. Figures read from the database or the
 * chain at scrape time are left out of that scrape when they do not come within 2 s.
 */
export function registerMetrics(
  app: FastifyInstance,
  deps: {
    pool: pg.Pool
    chain: ChainConnection | undefined
    token: string | undefined
    tokenAddress: () => Promise<string>
    tokenDecimals: () => Promise<number>
    /** The payout vault whose float is reported (settings.payoutVaultAddress; '' for none). */
    vaultAddress: () => Promise<string>
    /** Sign-ins this process opened, by message (legacy `HOPE Login<ms>` or EIP-4361). */
    signIns: () => { legacy: number; siwe: number }
  },
): AppMetrics {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, prefix: 'hope_' })
  let hotWallet: Address | null = null

  const requests = new client.Counter({
    name: 'hope_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  })
  const latency = new client.Histogram({
    name: 'hope_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  new client.Gauge({
    name: 'hope_signins_by_message',
    help: 'Sign-ins opened by this process since it started, by message: legacy (HOPE Login<ms>, no site named) or siwe (EIP-4361)',
    labelNames: ['message'] as const,
    registers: [registry],
    collect() {
      const { legacy, siwe } = deps.signIns()
      this.set({ message: 'legacy' }, legacy)
      this.set({ message: 'siwe' }, siwe)
    },
  })
  const chainAlarms = new client.Counter({
    name: 'hope_chain_unexplained_outflows_total',
    help: "Alarms the chain scan raised, by kind: vault payouts the books do not know (payout_unknown) or that differ from their withdrawal (payout_mismatch), and tokens out of the platform's addresses not paid by the vault (unexplained_outflow)",
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  // Each kind from 0, so the first alarm after a start is an increase, not a new series.
  for (const kind of CHAIN_ALARM_KINDS) chainAlarms.inc({ kind }, 0)
  const signInFailures = new client.Counter({
    name: 'hope_signin_failures_total',
    help: 'Refused sign-ins: wallet signatures, operator passwords or codes',
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  new client.Gauge({
    name: 'hope_db_pool_connections',
    help: 'Database pool connections of this process by state (in_use, idle, waiting requests)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { totalCount, idleCount, waitingCount } = deps.pool
      this.set({ state: 'in_use' }, totalCount - idleCount)
      this.set({ state: 'idle' }, idleCount)
      this.set({ state: 'waiting' }, waitingCount)
    },
  })
  new client.Gauge({
    name: 'hope_job_last_success_timestamp_seconds',
    help: 'When each background job last finished a run in this process (Unix time)',
    labelNames: ['job'] as const,
    registers: [registry],
    collect() {
      for (const [job, ms] of jobLastSuccess()) this.set({ job }, ms / 1000)
    },
  })

  // The figures read from the database and the chain: one read per scrape, shared by the gauges.
  let scrape: Promise<Awaited<ReturnType<typeof readAll>>> | null = null
  async function readAll() {
    const head = deps.chain
      ? within(SCRAPE_READ_TIMEOUT_MS, deps.chain.client.getBlockNumber({ cacheTime: 0 }))
      : Promise.resolve(null)
    const figures = within(
      SCRAPE_READ_TIMEOUT_MS,
      readOpsFigures(deps.pool, deps.chain?.chainId ?? null),
    )
    const hot = readTokenBalance(hotWallet)
    const vault = deps
      .vaultAddress()
      .catch(() => '')
      .then((a) => (/^0x[0-9a-fA-F]{40}$/.test(a) ? readTokenBalance(a as Address) : null))
    return { head: await head, figures: await figures, hot: await hot, vault: await vault }
  }
  async function readTokenBalance(holder: Address | null): Promise<number | null> {
    if (!deps.chain || !holder) return null
    const token = await deps.tokenAddress().catch(() => '')
    if (!/^0x[0-9a-fA-F]{40}$/.test(token)) return null
    const [raw, decimals] = await Promise.all([
      within(
        SCRAPE_READ_TIMEOUT_MS,
        deps.chain.client.readContract({
          address: token as Address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [holder],
        }),
      ),
      deps.tokenDecimals().catch(() => null),
    ])
    if (raw === null || decimals === null) return null
    // A gauge is a float: exact to the cent far past any wallet's or vault's balance.
    return Number(raw) / 10 ** decimals
  }
  const shared = () => (scrape ??= readAll().finally(() => setTimeout(() => (scrape = null), 0)))

  const fromScrape = (
    name: string,
    help: string,
    pick: (
      s: Awaited<ReturnType<typeof readAll>>,
      set: (v: number, labels?: object) => void,
    ) => void,
    labelNames: string[] = [],
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset()
        // Unknown this scrape (the read failed or timed out): NaN, never a made-up 0.
        if (!labelNames.length) this.set(Number.NaN)
        pick(await shared(), (v, labels) => (labels ? this.set(labels, v) : this.set(v)))
      },
    })

  fromScrape(
    'hope_ledger_transfers',
    'Ledger transfers recorded (the newest transfer id)',
    (s, set) => {
      if (s.figures) set(Number(s.figures.transfers))
    },
  )
  fromScrape(
    'hope_deposit_watcher_blocks_behind',
    "Blocks between the chain's head and the last block the deposit watcher scanned",
    (s, set) => {
      if (s.head !== null && s.figures?.scannedBlock != null)
        set(Math.max(0, Number(s.head) - Number(s.figures.scannedBlock)))
    },
  )
  fromScrape(
    'hope_withdrawals_open',
    'Withdrawals not yet final, by state (0 pending review, 1 approved, 5 on chain)',
    (s, set) => {
      for (const state of ['0', '1', '5'])
        if (s.figures) set(s.figures.openWithdrawals[state] ?? 0, { state })
    },
    ['state'],
  )
  fromScrape(
    'hope_withdrawal_oldest_open_age_seconds',
    'Age of the oldest withdrawal not yet final (0 when there is none)',
    (s, set) => {
      if (s.figures) set(s.figures.oldestOpenSeconds ?? 0)
    },
  )
  fromScrape(
    'hope_hot_wallet_balance',
    "The hot wallet's balance of the withdrawal token (payouts come from the vault: normally 0)",
    (s, set) => {
      if (s.hot !== null) set(s.hot)
    },
  )
  fromScrape(
    'hope_payout_vault_balance',
    "The payout vault's float: its balance of the withdrawal token",
    (s, set) => {
      if (s.vault !== null) set(s.vault)
    },
  )
  fromScrape(
    'hope_por_snapshot_age_seconds',
    'How long the books have gone unproven: the age of the newest published proof-of-liabilities snapshot, or of the books when none is',
    (s, set) => {
      if (s.figures?.porTakenAgeSeconds != null) set(s.figures.porTakenAgeSeconds)
    },
  )
  fromScrape(
    'hope_chain_alarms_open',
    "Open operator alarms of the chain scan by kind (payout_unknown, payout_mismatch, unexplained_outflow): money out of the vault or the platform's addresses that the books do not account for",
    (s, set) => {
      for (const kind of CHAIN_ALARM_KINDS)
        if (s.figures) set(s.figures.chainAlarmsOpen[kind] ?? 0, { kind })
    },
    ['kind'],
  )
  fromScrape(
    'hope_por_coverage_ratio',
    'Users in the newest published snapshot over the users registered by its time (0 before the first)',
    (s, set) => {
      const f = s.figures
      if (!f) return
      if (f.porUsers === null) set(0)
      else set(f.usersAtSnapshot ? f.porUsers / f.usersAtSnapshot : 1)
    },
  )

  app.addHook('onResponse', async (req, reply) => {
    // The route's pattern, never the raw URL: the label set stays bounded whatever is asked.
    const route = req.routeOptions.url ?? 'unmatched'
    requests.inc({ route, method: req.method, status: String(reply.statusCode) })
    latency.observe({ route, method: req.method }, reply.elapsedTime / 1000)
  })

  app.get('/metrics', async (req, reply) => {
    if (!mayScrape(req, deps.token)) return reply.callNotFound()
    const text = await registry.metrics()
    return reply.header('content-type', registry.contentType).send(text)
  })

  return {
    registry,
    signInFailed: (kind) => signInFailures.inc({ kind }),
    watchHotWallet: (address) => {
      hotWallet = address
    },
    chainAlarmRaised: (kind) => chainAlarms.inc({ kind }),
  }
}
