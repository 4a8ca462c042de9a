import { custom, http, type Chain, type EIP1193RequestFn, type Transport } from 'viem'

/**
 * One transport over several RPC endpoints (CHAIN_RPC_URLS): each call goes to the healthiest
 * endpoint first and fails over to the next on a transient failure (no answer in time, an HTTP
 * 429 or 5xx, a node's internal error or rate limit), in at most `rounds` rounds over all of
 * them with a growing pause between rounds. A node's deliberate answer (a revert, a refused log
 * range, "nonce too low") is returned at once: another endpoint would say the same. A block
 * asked by number that an endpoint does not have (null: it is behind its peers) is asked of the
 * next one before null is believed. Every endpoint keeps its figures (calls, errors, latency,
 * the head it last told) for the metrics and the ranking; nothing here calls a node on its own.
 */

export interface EndpointStats {
  /** The endpoint's label: its position and host, never its path or key. */
  endpoint: string
  calls: number
  errors: number
  /** Sum of the answered calls' seconds (the mean latency is this over calls). */
  seconds: number
  /** Recent latency (ms, moving average) and recent failure rate (0..1). */
  latencyMs: number
  failureRate: number
  /** The head the endpoint last told (eth_blockNumber), null before it was asked. */
  head: bigint | null
}

export interface ChainEndpoints {
  transport: Transport
  /** The endpoints' figures, in configured order. */
  stats(): EndpointStats[]
  /** The highest head any endpoint told. */
  bestHead(): bigint | null
}

export interface TransportOptions {
  /** Per call and endpoint. */
  timeoutMs?: number
  /** Rounds over all endpoints before a transient failure is thrown. */
  rounds?: number
  /** The pause before the second round; doubled for each next one. */
  backoffMs?: number
}

/** An endpoint's label for logs and metrics: `0:host`, without credentials, path or query. */
export function endpointLabel(url: string, index: number): string {
  try {
    return `${index}:${new URL(url).host}`
  } catch {
    return `${index}:invalid`
  }
}

/** The endpoints of CHAIN_RPC_URLS (a comma list), else CHAIN_RPC_URL; empty for none. */
export function rpcUrlsOf(env: { CHAIN_RPC_URLS?: string; CHAIN_RPC_URL?: string }): string[] {
  const list = (env.CHAIN_RPC_URLS || env.CHAIN_RPC_URL || '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
  return [...new Set(list)]
}

/**
 * Whether a failed call says nothing about the chain and may be asked again, of this or another
 * endpoint: no answer, an HTTP 408/429/5xx, or a node's internal error or rate limit.
 */
export function isTransientFailure(error: unknown): boolean {
  const e = error as { name?: string; code?: unknown; status?: unknown; cause?: unknown }
  for (let c: typeof e | undefined = e, depth = 0; c && depth < 5; depth++) {
    if (c.name === 'TimeoutError' || c.name === 'AbortError') return true
    if (c.name === 'HttpRequestError') {
      const status = typeof c.status === 'number' ? c.status : null
      return status === null || status === 408 || status === 429 || status >= 500
    }
    if (typeof c.code === 'number' && [-32603, -32005, -32007, 429, -1].includes(c.code))
      return true
    c = c.cause as typeof e | undefined
  }
  return false
}

const BLOCK_BY_NUMBER = 'eth_getBlockByNumber'

/** Builds the transport; `chain` is only viem's description of the chain. */
export function createChainEndpoints(
  urls: string[],
  chain: Chain,
  opts: TransportOptions = {},
): ChainEndpoints {
  if (!urls.length) throw new Error('No RPC endpoint configured (CHAIN_RPC_URLS).')
  const timeout = opts.timeoutMs ?? 10_000
  const rounds = opts.rounds ?? 3
  const backoffMs = opts.backoffMs ?? 250
  const endpoints = urls.map((url, i) => ({
    request: http(url, { timeout, retryCount: 0 })({ chain, retryCount: 0 })
      .request as EIP1193RequestFn,
    stats: {
      endpoint: endpointLabel(url, i),
      calls: 0,
      errors: 0,
      seconds: 0,
      latencyMs: 0,
      failureRate: 0,
      head: null,
    } as EndpointStats,
  }))

  /** Healthiest first: fewer recent failures, then lower latency; the configured order breaks ties. */
  function ranked() {
    return endpoints
      .map((e, i) => ({ e, i }))
      .sort(
        (a, b) =>
          Math.round(a.e.stats.failureRate * 10) - Math.round(b.e.stats.failureRate * 10) ||
          a.e.stats.latencyMs * 0.8 - b.e.stats.latencyMs ||
          a.i - b.i,
      )
      .map(({ e }) => e)
  }

  function note(s: EndpointStats, ms: number, failed: boolean) {
    s.calls += 1
    if (failed) s.errors += 1
    else s.seconds += ms / 1000
    s.failureRate = s.failureRate * 0.9 + (failed ? 0.1 : 0)
    if (!failed) s.latencyMs = s.latencyMs ? s.latencyMs * 0.8 + ms * 0.2 : ms
  }

  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    let lastError: unknown
    for (let round = 0; round < rounds; round++) {
      if (round) await new Promise((r) => setTimeout(r, backoffMs * 2 ** (round - 1)))
      let absent = false
      for (const e of ranked()) {
        const started = performance.now()
        let result: unknown
        try {
          result = await e.request({ method, params } as never)
        } catch (err) {
          note(e.stats, performance.now() - started, true)
          if (!isTransientFailure(err)) throw err
          lastError = err
          continue
        }
        note(e.stats, performance.now() - started, false)
        if (method === 'eth_blockNumber' && typeof result === 'string')
          e.stats.head = BigInt(result)
        // A block by number this endpoint lacks may be one it has not reached: ask the others.
        if (result === null && method === BLOCK_BY_NUMBER && endpoints.length > 1) {
          absent = true
          continue
        }
        return result
      }
      // Every endpoint answered or failed; those that answered said null.
      if (absent) return null
    }
    throw lastError
  }) as EIP1193RequestFn

  return {
    transport: custom({ request }, { retryCount: 0, key: 'endpoints', name: 'HOPE endpoints' }),
    stats: () => endpoints.map((e) => ({ ...e.stats })),
    bestHead: () =>
      endpoints.reduce<bigint | null>(
        (best, e) =>
          e.stats.head !== null && (best === null || e.stats.head > best) ? e.stats.head : best,
        null,
      ),
  }
}
