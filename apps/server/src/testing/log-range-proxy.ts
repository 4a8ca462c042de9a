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
 * A JSON-RPC proxy in front of a node (Anvil in tests) that writes down the ranges of the log
 * reads it forwards, refuses those wider than a cap the way hosted providers do, and can hold
 * a method's answers back for a while.
 */
export async function startLogRangeProxy(targetUrl: string): Promise<LogRangeProxy> {
  let cap: bigint | null = null
  let refusals = 0
  const delays = new Map<string, number>()
  const ranges: { from: bigint; to: bigint }[] = []

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
    const delay = call?.method ? (delays.get(call.method) ?? 0) : 0
    if (delay) await new Promise((r) => setTimeout(r, delay))
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

  return {
    url: await listenOnLoopback(server),
    capRange(blocks) {
      cap = blocks === null ? null : BigInt(blocks)
    },
    slow(method, ms) {
      delays.set(method, ms)
    },
    ranges,
    refused: () => refusals,
    clear() {
      ranges.length = 0
      refusals = 0
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
