import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type pg from 'pg'
import client from 'prom-client'
import { erc20Abi, formatEther, type Address } from 'viem'
import type { ChainConnection } from '../chain/chain.service.ts'
import type { EndpointStats } from '../chain/chain.transport.ts'
import { jobLastSuccess, jobStarted } from '../jobs/interval-job.ts'
import { withTimeout } from '../lib/with-timeout.ts'
import { CHAIN_ALARM_KINDS, type ChainAlarmKind } from '../modules/reconcile/reconcile.rules.ts'
import type { DependencyProbe } from './health.ts'
import { answerMetricsRequests, askPrimaryForMetrics, inCluster } from './metrics.cluster.ts'
import { readOpsFigures, type OpsFigures } from './metrics.repository.ts'

/** How long one sample's read of the database or the chain may take before it counts as failed. */
const SAMPLE_READ_TIMEOUT_MS = 2_000
/**
 * How long a scrape waits for a fresh sample before answering with the last one: a scrape never
 * waits on the pool or the chain longer than this.
 */
export const SCRAPE_WAIT_MS = 300

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
 * `read()`, but while an earlier call's work is still pending (a query queued behind an
 * exhausted pool, a chain call that does not answer) the same promise again: reads never pile up.
 */
function single<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null
  return () =>
    (pending ??= read().finally(() => {
      pending = null
    }))
}

/** A value and when it was read. */
interface Sampled<T> {
  value: T
  atMs: number
}

interface MetricsDeps {
  pool: pg.Pool
  chain: ChainConnection | undefined
  token: string | undefined
  tokenAddress: () => Promise<string>
  tokenDecimals: () => Promise<number>
  /** The payout vault whose float is reported (settings.payoutVaultAddress; '' for none). */
  vaultAddress: () => Promise<string>
  /** The gas a payout may use (settings.payoutGasLimit): what one payout costs the hot wallet. */
  payoutGasLimit?: () => Promise<number>
  /** Sign-ins this process opened, by message (legacy `HOPE Login<ms>` or EIP-4361). */
  signIns: () => { legacy: number; siwe: number }
  /** The checks of PostgreSQL, the chain and Redis that `/readyz` runs too. */
  dependencies: DependencyProbe
}

/**
 * `GET /metrics`: Prometheus text, every name starting `hope_`. Readable from loopback, or from
 * anywhere with `Authorization: Bearer <METRICS_TOKEN>`; others get 404. Under a primary with
 * several workers the answer is every worker's metrics in one view (counters summed, figures of
 * the books and the chain once). What it shows: requests
 * per route and their latency, the event loop's lag and the process (Node's default metrics),
 * the pool's connections in use, idle and waiting, ledger transfers, how far the deposit watcher
 * is behind the chain's head, open withdrawals by state and the oldest one's age, the hot
 * wallet's token balance, each job's last success, the proof-of-liabilities snapshot's age and
 * coverage, refused sign-ins, the chain scan's alarms (money out that the books do not
 * know): raised by this process, and open in the books, and whether PostgreSQL, the chain and
 * Redis answer. Figures of the database and the chain are sampled: a scrape starts a new
 * sample and waits for it at most SCRAPE_WAIT_MS, then answers with the last values read (their
 * age in `hope_metrics_sample_age_seconds`), so a scrape never waits on an exhausted pool and a
 * figure never turns NaN during an outage (NaN only before its first read).
 */
export function registerMetrics(app: FastifyInstance, deps: MetricsDeps): AppMetrics {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, prefix: 'hope_' })
  let hotWallet: Address | null = null

  const { requests, latency, chainAlarms, signInFailures } = registerRequestMetrics(registry, deps)
  registerEndpointMetrics(registry, deps)
  registerPoolAndJobMetrics(registry, deps)
  const sampler = createSampler(deps, () => hotWallet)
  registerSampleHealth(registry, deps, sampler)
  registerSampledFigures(registry, sampler)

  app.addHook('onResponse', async (req, reply) => {
    // The route's pattern, never the raw URL: the label set stays bounded whatever is asked.
    const route = req.routeOptions.url ?? 'unmatched'
    requests.inc({ route, method: req.method, status: String(reply.statusCode) })
    latency.observe({ route, method: req.method }, reply.elapsedTime / 1000)
  })

  // Under a primary, this worker answers the primary's requests for its metrics, and a scrape
  // reaching it answers every worker's (its own alone should the primary not answer in time).
  if (inCluster()) answerMetricsRequests(registry)
  app.get('/metrics', async (req, reply) => {
    if (!mayScrape(req, deps.token)) return reply.callNotFound()
    const text = (inCluster() && (await askPrimaryForMetrics())) || (await registry.metrics())
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

/** Requests, sign-ins and the chain scan's alarms, as this process counts them. */
function registerRequestMetrics(registry: client.Registry, deps: MetricsDeps) {
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
    name: 'hope_workers_reporting',
    help: 'Server processes whose metrics this answer holds (the workers under one primary)',
    registers: [registry],
    aggregator: 'sum',
    collect() {
      this.set(1)
    },
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
  return { requests, latency, chainAlarms, signInFailures }
}

/** The chain client's endpoints (CHAIN_RPC_URLS), each labelled by its position and host. */
function registerEndpointMetrics(registry: client.Registry, deps: MetricsDeps): void {
  const endpointFigure = (
    name: string,
    help: string,
    pick: (e: EndpointStats, best: bigint | null) => number | null,
    aggregator: 'sum' | 'max',
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['endpoint'] as const,
      registers: [registry],
      aggregator,
      collect() {
        this.reset()
        const endpoints = deps.chain?.endpoints
        if (!endpoints) return
        const best = endpoints.bestHead()
        for (const e of endpoints.stats()) {
          const v = pick(e, best)
          if (v !== null) this.set({ endpoint: e.endpoint }, v)
        }
      },
    })
  endpointFigure(
    'hope_chain_rpc_calls_total',
    'Calls this process made to each chain endpoint (CHAIN_RPC_URLS), failed ones included',
    (e) => e.calls,
    'sum',
  )
  endpointFigure(
    'hope_chain_rpc_errors_total',
    'Calls to each chain endpoint that failed (no answer in time, HTTP 429 or 5xx, a node error)',
    (e) => e.errors,
    'sum',
  )
  endpointFigure(
    'hope_chain_rpc_seconds_total',
    'Seconds spent on the answered calls of each chain endpoint (over the calls: the mean latency)',
    (e) => e.seconds,
    'sum',
  )
  endpointFigure(
    'hope_chain_rpc_head_lag_blocks',
    'How many blocks the head each endpoint last told is behind the highest head any endpoint told',
    (e, best) => (e.head === null || best === null ? null : Number(best - e.head)),
    'max',
  )
}

/** The pool's connections and the background jobs of this process. */
function registerPoolAndJobMetrics(registry: client.Registry, deps: MetricsDeps): void {
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
  // The label is `task`, never `job`: Prometheus's own target label would rename it.
  new client.Gauge({
    name: 'hope_job_last_success_timestamp_seconds',
    help: 'When each background job (task) last finished a run in this process (Unix time)',
    labelNames: ['task'] as const,
    registers: [registry],
    aggregator: 'max',
    collect() {
      for (const [task, ms] of jobLastSuccess()) this.set({ task }, ms / 1000)
    },
  })
  new client.Gauge({
    name: 'hope_job_started_timestamp_seconds',
    help: 'When each background job (task) was started in this process (Unix time): a job that never finished a run is late counting from here',
    labelNames: ['task'] as const,
    registers: [registry],
    aggregator: 'min',
    collect() {
      for (const [task, ms] of jobStarted()) this.set({ task }, ms / 1000)
    },
  })
}

/** The figures read from the database and the chain: each the last value read. */
interface LastRead {
  figures?: Sampled<OpsFigures>
  head?: Sampled<bigint>
  hot?: Sampled<number>
  vault?: Sampled<number>
  gas?: Sampled<{ balance: number; payoutsLeft: number }>
}

interface Sampler {
  last: LastRead
  /** One wait per scrape, shared by the gauges: a fresh sample, or the last one after SCRAPE_WAIT_MS. */
  fresh: () => Promise<unknown>
}

/**
 * Reads the figures of the database and the chain, each refreshed by at most one sample at a
 * time; `hotWallet` is the wallet the server knows by now.
 */
function createSampler(deps: MetricsDeps, hotWallet: () => Address | null): Sampler {
  const last: LastRead = {}
  const readFigures = single(() =>
    readOpsFigures(deps.pool, deps.chain?.chainId ?? null).then((value) => {
      last.figures = { value, atMs: Date.now() }
    }),
  )
  const readHead = single(async () => {
    if (!deps.chain) return
    const value = await deps.chain.client.getBlockNumber({ cacheTime: 0 })
    last.head = { value, atMs: Date.now() }
  })
  const readHot = single(async () => {
    const value = await readTokenBalance(hotWallet())
    if (value !== null) last.hot = { value, atMs: Date.now() }
  })
  const readVault = single(async () => {
    const address = await deps.vaultAddress()
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return
    const value = await readTokenBalance(address as Address)
    if (value !== null) last.vault = { value, atMs: Date.now() }
  })
  // The hot wallet pays each payout's gas: its native balance, and how many payouts it covers at
  // the node's gas price now.
  const readGas = single(async () => {
    const wallet = hotWallet()
    if (!deps.chain || !wallet) return
    const [wei, price, gasLimit] = await Promise.all([
      deps.chain.client.getBalance({ address: wallet }),
      deps.chain.client.getGasPrice(),
      deps.payoutGasLimit?.() ?? Promise.resolve(200_000),
    ])
    const perPayout = price * BigInt(gasLimit)
    last.gas = {
      value: {
        balance: Number(formatEther(wei)),
        payoutsLeft: perPayout > 0n ? Number(wei / perPayout) : Number.POSITIVE_INFINITY,
      },
      atMs: Date.now(),
    }
  })
  const checkDependencies = single(() => deps.dependencies.check())
  async function readTokenBalance(holder: Address | null): Promise<number | null> {
    if (!deps.chain || !holder) return null
    const token = await deps.tokenAddress()
    if (!/^0x[0-9a-fA-F]{40}$/.test(token)) return null
    const [raw, decimals] = await Promise.all([
      deps.chain.client.readContract({
        address: token as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [holder],
      }),
      deps.tokenDecimals(),
    ])
    // A gauge is a float: exact to the cent far past any wallet's or vault's balance.
    return Number(raw) / 10 ** decimals
  }
  const sample = single(() =>
    Promise.all(
      [readFigures, readHead, readHot, readVault, readGas, checkDependencies].map(
        (read: () => Promise<unknown>) => within(SAMPLE_READ_TIMEOUT_MS, read()),
      ),
    ),
  )
  let waiting: Promise<unknown> | null = null
  const fresh = () =>
    (waiting ??= within(SCRAPE_WAIT_MS, sample()).finally(() =>
      setTimeout(() => (waiting = null), 0),
    ))
  return { last, fresh }
}

/** Whether the dependencies answer, and how old the sampled figures are. */
function registerSampleHealth(
  registry: client.Registry,
  deps: MetricsDeps,
  sampler: Sampler,
): void {
  const { last, fresh } = sampler
  new client.Gauge({
    name: 'hope_dependency_up',
    help: 'Whether a dependency answered its last check within 2 s (1) or not (0): database (PostgreSQL), chain (the RPC), redis (the limit counters)',
    labelNames: ['dependency'] as const,
    registers: [registry],
    aggregator: 'min',
    async collect() {
      await fresh()
      this.reset()
      for (const [dependency, { ok }] of deps.dependencies.last())
        this.set({ dependency }, ok ? 1 : 0)
    },
  })
  new client.Gauge({
    name: 'hope_metrics_sample_age_seconds',
    help: 'Age of the figures read from each source (database, chain) shown by this answer: grows while the source does not answer',
    labelNames: ['source'] as const,
    registers: [registry],
    aggregator: 'min',
    async collect() {
      await fresh()
      this.reset()
      const now = Date.now()
      if (last.figures) this.set({ source: 'database' }, (now - last.figures.atMs) / 1000)
      if (last.head) this.set({ source: 'chain' }, (now - last.head.atMs) / 1000)
    },
  })
}

/** A figure of the last sample: `pick` sets its value (with its labels) from what was read. */
interface SampledFigure {
  name: string
  help: string
  labelNames?: string[]
  pick: (s: LastRead, set: (v: number, labels?: object) => void) => void
}

/** The figures each scrape shows from the last sample, in the order they are listed. */
const SAMPLED_FIGURES: SampledFigure[] = [
  {
    name: 'hope_ledger_transfers',
    help: 'Ledger transfers recorded (the newest transfer id)',
    pick: (s, set) => {
      if (s.figures) set(Number(s.figures.value.transfers))
    },
  },
  {
    name: 'hope_deposit_watcher_blocks_behind',
    help: "Blocks between the chain's head and the last block the deposit watcher scanned",
    pick: (s, set) => {
      const scanned = s.figures?.value.scannedBlock
      if (s.head && scanned != null) set(Math.max(0, Number(s.head.value) - Number(scanned)))
    },
  },
  {
    name: 'hope_withdrawals_open',
    help: 'Withdrawals not yet final, by state (0 pending review, 1 approved, 5 on chain)',
    labelNames: ['state'],
    pick: (s, set) => {
      for (const state of ['0', '1', '5'])
        if (s.figures) set(s.figures.value.openWithdrawals[state] ?? 0, { state })
    },
  },
  {
    name: 'hope_withdrawal_oldest_open_age_seconds',
    help: 'Age of the oldest withdrawal not yet final (0 when there is none)',
    pick: (s, set) => {
      const oldest = s.figures?.value.oldestOpenSeconds
      // Aged by the time since the read: a withdrawal open then is older now.
      if (s.figures) set(oldest == null ? 0 : oldest + (Date.now() - s.figures.atMs) / 1000)
    },
  },
  {
    name: 'hope_hot_wallet_balance',
    help: "The hot wallet's balance of the withdrawal token (payouts come from the vault: normally 0)",
    pick: (s, set) => {
      if (s.hot) set(s.hot.value)
    },
  },
  {
    name: 'hope_hot_wallet_gas_balance',
    help: "The hot wallet's balance of the chain's native coin, which pays the payouts' gas",
    pick: (s, set) => {
      if (s.gas) set(s.gas.value.balance)
    },
  },
  {
    name: 'hope_hot_wallet_gas_payouts_left',
    help: 'How many payouts (payoutGasLimit each) the hot wallet can still pay the gas of at the gas price now',
    pick: (s, set) => {
      if (s.gas) set(s.gas.value.payoutsLeft)
    },
  },
  {
    name: 'hope_payout_vault_balance',
    help: "The payout vault's float: its balance of the withdrawal token",
    pick: (s, set) => {
      if (s.vault) set(s.vault.value)
    },
  },
  {
    name: 'hope_por_snapshot_age_seconds',
    help: 'How long the books have gone unproven: the age of the newest published proof-of-liabilities snapshot, or of the books when none is',
    pick: (s, set) => {
      const age = s.figures?.value.porTakenAgeSeconds
      if (age != null && s.figures) set(age + (Date.now() - s.figures.atMs) / 1000)
    },
  },
  {
    name: 'hope_chain_alarms_open',
    help: "Open operator alarms of the chain scan by kind (payout_unknown, payout_mismatch, unexplained_outflow): money out of the vault or the platform's addresses that the books do not account for",
    labelNames: ['kind'],
    pick: (s, set) => {
      for (const kind of CHAIN_ALARM_KINDS)
        if (s.figures) set(s.figures.value.chainAlarmsOpen[kind] ?? 0, { kind })
    },
  },
  {
    name: 'hope_payouts_stuck',
    help: 'Payouts not mined with their fees at the cap (payoutMaxFeeGwei): open payout_stuck alarms',
    pick: (s, set) => {
      if (s.figures) set(s.figures.value.payoutsStuck)
    },
  },
  {
    name: 'hope_por_coverage_ratio',
    help: 'Users in the newest published snapshot over the users registered by its time (0 before the first)',
    pick: (s, set) => {
      const f = s.figures?.value
      if (!f) return
      if (f.porUsers === null) set(0)
      else set(f.usersAtSnapshot ? f.porUsers / f.usersAtSnapshot : 1)
    },
  },
]

/** Each of SAMPLED_FIGURES as a gauge: the same figure in every worker, shown once. */
function registerSampledFigures(registry: client.Registry, sampler: Sampler): void {
  const { last, fresh } = sampler
  for (const { name, help, pick, labelNames = [] } of SAMPLED_FIGURES)
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      aggregator: 'max',
      async collect() {
        await fresh()
        this.reset()
        // Never read yet: NaN, never a made-up 0. Once read, the last value stays.
        if (!labelNames.length) this.set(Number.NaN)
        pick(last, (v, labels) => (labels ? this.set(labels, v) : this.set(v)))
      },
    })
}
