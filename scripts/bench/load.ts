// Load generation and the processes it is aimed at: a server child started with its port told
// over IPC, its resident memory sampled from /proc, and autocannon runs against 127.0.0.1
// bounded in time, with every response's latency kept (autocannon's own histogram rounds to
// whole milliseconds, too coarse for sub-millisecond answers).
import { fork, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'

export interface ServerChild {
  pid: number
  port: number
  stop(): Promise<void>
}

/** Forks `script` with `args`; resolves once it reports `{ port }` over IPC. */
export async function startServerChild(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<ServerChild> {
  const child: ChildProcess = fork(path.resolve(import.meta.dirname, script), args, {
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} did not start within ${timeoutMs} ms`))
    }, timeoutMs)
    child.once('message', (m) => {
      clearTimeout(timer)
      resolve((m as { port: number }).port)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited with ${code} before listening`))
    })
  })
  return {
    pid: child.pid!,
    port,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** Resident memory of a process in MiB, from /proc (0 where /proc is absent). */
export function rssMiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    return kb / 1024
  } catch {
    return 0
  }
}

/** Samples a process's resident memory every 200 ms; `stop` answers the highest seen. */
export function sampleRss(pid: number): { stop(): number } {
  let max = rssMiB(pid)
  const timer = setInterval(() => {
    max = Math.max(max, rssMiB(pid))
  }, 200)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(max, rssMiB(pid))
    },
  }
}

export interface LoadTarget {
  port: number
  /** The path with its query string, e.g. `/api/main/news?pageNum=1`. */
  path: string
  /** A token header per request, drawn in turn from these. */
  tokens?: string[]
}

export interface LoadResult {
  /** Answered requests per second over the run. */
  rps: number
  p50: number
  p99: number
  requests: number
  /** Responses other than 2xx, plus connection errors and timeouts. */
  failures: number
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

async function cannon(
  target: LoadTarget,
  opts: { connections: number; seconds?: number; amount?: number; rate?: number },
  latencies: number[],
): Promise<autocannon.Result> {
  let turn = 0
  const tokens = target.tokens ?? []
  const options: autocannon.Options = {
    url: `http://127.0.0.1:${target.port}`,
    connections: opts.connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds ?? 10 }),
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: target.path,
        setupRequest: (req) =>
          tokens.length
            ? { ...req, headers: { ...req.headers, token: tokens[turn++ % tokens.length]! } }
            : req,
      },
    ],
  }
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (err, result) => (err ? reject(err) : resolve(result)))
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
    })
  })
}

/** Figures of runs made side by side: their rates add up, their latencies are pooled. */
function summarize(results: autocannon.Result[], latencies: number[]): LoadResult {
  const sorted = Float64Array.from(latencies).sort()
  return {
    rps: results.reduce((t, r) => t + r['2xx'] / r.duration, 0),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    requests: results.reduce((t, r) => t + r['2xx'], 0),
    failures: results.reduce((t, r) => t + r.non2xx + r.errors + r.timeouts, 0),
  }
}

/** As many requests as `connections` keep in flight for `seconds`: throughput at saturation. */
export async function saturate(
  target: LoadTarget,
  opts: { connections: number; seconds: number },
): Promise<LoadResult> {
  const latencies: number[] = []
  return summarize([await cannon(target, opts, latencies)], latencies)
}

/**
 * `rate` requests per second for `seconds`. autocannon's rate limit lets each connection send
 * its quota as fast as it can at the start of every second, so the load comes from `spread`
 * instances started 1/spread s apart, each with 1/spread of the rate: the requests arrive in
 * `spread` bursts per second instead of one.
 */
export async function steady(
  target: LoadTarget,
  opts: { rate: number; seconds: number; connections: number; spread?: number },
): Promise<LoadResult> {
  const spread = opts.spread ?? 10
  const latencies: number[] = []
  const runs = Array.from({ length: spread }, async (_, i) => {
    await new Promise((r) => setTimeout(r, (i * 1000) / spread))
    return cannon(
      target,
      {
        connections: Math.max(1, Math.round(opts.connections / spread)),
        seconds: opts.seconds,
        rate: Math.round(opts.rate / spread),
      },
      latencies,
    )
  })
  return summarize(await Promise.all(runs), latencies)
}

/** `amount` requests one after another on one connection: the unloaded answer time. */
export async function sequential(target: LoadTarget, amount: number): Promise<LoadResult> {
  const latencies: number[] = []
  return summarize([await cannon(target, { connections: 1, amount }, latencies)], latencies)
}
