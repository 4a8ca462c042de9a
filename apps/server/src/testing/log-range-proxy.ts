import http from 'node:http'
import { forwardRpc, listenOnLoopback } from './rpc-proxy.ts'

export interface LogRangeProxy {
  /** Point the client under test here. */
  url: string
  /**
   * From now on, refuse an `eth_getLogs` over more than `blocks` blocks as a provider does
   * (Alchemy's words); null forwards every range again.
   */
  capRange(blocks: number | null): void
  /** Answers each call of `method` only after `ms` (0: at once again). */
  slow(method: string, ms: number): void
  /**
   * Behaves as a node `blocks` behind the chain (0: in step again): its head is that much lower,
   * and a block above it is null, as a lagging node answers.
   */
  lag(blocks: number): void
  /** Answers every `n`th call with an HTTP 429, as a provider's rate limit does (0: never). */
  rateLimit(n: number): void
  /** Drops every `n`th call: the connection is closed without an answer (0: never). */
  drop(n: number): void
  /** Calls received, by method. */
  readonly calls: Map<string, number>
  /** The block ranges of the `eth_getLogs` calls forwarded, in order; `clear` empties it. */
  readonly ranges: { from: bigint; to: bigint }[]
  /** How many `eth_getLogs` calls were refused as too large. */
  refused(): number
  clear(): void
  close(): Promise<void>
}

interface RpcCall {
  id?: unknown
  method?: string
  params?: { fromBlock?: string; toBlock?: string }[]
}

/**
 * A JSON-RPC proxy in front of a node (Anvil in tests) that behaves like a hosted provider: it
 * writes down the ranges of the log reads it forwards and refuses those wider than a cap, can
 * hold a method's answers back, lag behind the head, answer 429s and drop calls.
 */
export async function startLogRangeProxy(targetUrl: string): Promise<LogRangeProxy> {
  let cap: bigint | null = null
  let refusals = 0
  const delays = new Map<string, number>()
  const ranges: { from: bigint; to: bigint }[] = []
  const calls = new Map<string, number>()
  let lagBlocks = 0n
  let every429 = 0
  let everyDrop = 0
  let received = 0

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void answer(Buffer.concat(chunks).toString('utf8'), res)
    })
  })

  async function answer(body: string, res: http.ServerResponse): Promise<void> {
    let call: RpcCall | null = null
    try {
      const parsed = JSON.parse(body) as RpcCall | RpcCall[]
      if (!Array.isArray(parsed)) call = parsed
    } catch {
      call = null
    }
    const method = call?.method ?? 'batch'
    calls.set(method, (calls.get(method) ?? 0) + 1)
    received += 1
    if (everyDrop && received % everyDrop === 0) {
      res.destroy()
      return
    }
    if (every429 && received % every429 === 0) {
      res.writeHead(429, { 'content-type': 'text/plain' }).end('Too Many Requests')
      return
    }
    const delay = call?.method ? (delays.get(call.method) ?? 0) : 0
    if (delay) await new Promise((r) => setTimeout(r, delay))
    if (lagBlocks && call && (await answerLagging(call, res))) return
    if (call?.method === 'eth_getLogs') {
      const filter = call.params?.[0] ?? {}
      const from = BigInt(filter.fromBlock ?? '0x0')
      const to = BigInt(filter.toBlock ?? '0x0')
      if (cap !== null && to - from + 1n > cap) {
        refusals += 1
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: call.id ?? null,
            error: {
              code: -32602,
              message: `Log response size exceeded. You can make eth_getLogs requests with up to a ${cap} block range and no limit on the response size.`,
            },
          }),
        )
        return
      }
      ranges.push({ from, to })
    }
    await forwardRpc(targetUrl, body, res)
  }

  /** The node's head, asked straight. */
  async function realHead(): Promise<bigint> {
    const r = await fetch(targetUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    })
    return BigInt(((await r.json()) as { result: string }).result)
  }

  /** Answers `call` as a node `lagBlocks` behind would; false when the real answer will do. */
  async function answerLagging(call: RpcCall, res: http.ServerResponse): Promise<boolean> {
    const reply = (result: unknown) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, result }))
      return true
    }
    const head = (await realHead()) - lagBlocks
    if (call.method === 'eth_blockNumber') return reply(`0x${head.toString(16)}`)
    if (call.method === 'eth_getBlockByNumber') {
      const tag = (call.params as unknown as [string])[0]
      if (tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: call.id ?? null,
          method: 'eth_getBlockByNumber',
          params: [`0x${head.toString(16)}`, (call.params as unknown as unknown[])[1] ?? false],
        })
        await forwardRpc(targetUrl, body, res)
        return true
      }
      if (BigInt(tag) > head) return reply(null)
    }
    return false
  }

  return {
    url: await listenOnLoopback(server),
    capRange(blocks) {
      cap = blocks === null ? null : BigInt(blocks)
    },
    slow(method, ms) {
      delays.set(method, ms)
    },
    lag(blocks) {
      lagBlocks = BigInt(blocks)
    },
    rateLimit(n) {
      every429 = n
    },
    drop(n) {
      everyDrop = n
    },
    calls,
    ranges,
    refused: () => refusals,
    clear() {
      ranges.length = 0
      refusals = 0
      calls.clear()
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
