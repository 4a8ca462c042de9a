import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * How a faulty node answers: an HTTP 500, an HTTP 429 (a provider's rate limit), a JSON-RPC
 * internal error (HTTP 200), no answer at all (the request hangs until the client gives up), or
 * null as a node behind its peers answers for a block or a transaction it does not have yet.
 */
export type RpcFault = 'http_500' | 'http_429' | 'rpc_error' | 'hang' | 'null'

export interface RpcProxy {
  /** Point the client under test here. */
  url: string
  /** From now on, answer every call of `method` (`*`: of every method) with `fault`. */
  fail(method: string, fault: RpcFault): void
  /** Forward `method` again (every method when none is given). */
  heal(method?: string): void
  /** How many calls of `method` were answered with a fault so far. */
  faulted(method: string): number
  /** How many calls of `method` (of every method when none is given) reached the proxy. */
  called(method?: string): number
  close(): Promise<void>
}

interface RpcCall {
  id?: unknown
  method?: string
}

/**
 * A JSON-RPC proxy in front of a node (Anvil in tests) that forwards every call, except the
 * methods told to fail, which get the chosen fault.
 */
export async function startRpcProxy(targetUrl: string): Promise<RpcProxy> {
  const faults = new Map<string, RpcFault>()
  const counts = new Map<string, number>()
  const seen = new Map<string, number>()

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void answer(Buffer.concat(chunks).toString('utf8'), res)
    })
  })

  async function answer(body: string, res: http.ServerResponse): Promise<void> {
    let calls: RpcCall[]
    try {
      const parsed = JSON.parse(body) as RpcCall | RpcCall[]
      calls = Array.isArray(parsed) ? parsed : [parsed]
    } catch {
      calls = []
    }
    for (const c of calls) if (c.method) seen.set(c.method, (seen.get(c.method) ?? 0) + 1)
    const hit = calls.find((c) => c.method && (faults.has(c.method) || faults.has('*')))
    if (hit) {
      const fault = (faults.get(hit.method!) ?? faults.get('*'))!
      counts.set(hit.method!, (counts.get(hit.method!) ?? 0) + 1)
      if (fault === 'hang') return // left open; closed with the proxy
      if (fault === 'http_500') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream failed')
        return
      }
      if (fault === 'http_429') {
        res.writeHead(429, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: hit.id ?? null,
            error: { code: 429, message: 'Too Many Requests' },
          }),
        )
        return
      }
      const errors = calls.map((c) =>
        fault === 'null'
          ? { jsonrpc: '2.0', id: c.id ?? null, result: null }
          : {
              jsonrpc: '2.0',
              id: c.id ?? null,
              error: { code: -32603, message: 'internal error' },
            },
      )
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(calls.length === 1 ? errors[0] : errors))
      return
    }
    await forwardRpc(targetUrl, body, res)
  }

  return {
    url: await listenOnLoopback(server),
    fail(method, fault) {
      faults.set(method, fault)
    },
    heal(method) {
      if (method) faults.delete(method)
      else faults.clear()
    },
    faulted: (method) => counts.get(method) ?? 0,
    called: (method) =>
      method ? (seen.get(method) ?? 0) : [...seen.values()].reduce((a, b) => a + b, 0),
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Sends a JSON-RPC body on to the node and its answer back; 502 when the node is gone. */
export async function forwardRpc(
  targetUrl: string,
  body: string,
  res: http.ServerResponse,
): Promise<void> {
  try {
    const upstream = await fetch(targetUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    res
      .writeHead(upstream.status, { 'content-type': 'application/json' })
      .end(await upstream.text())
  } catch {
    res.writeHead(502).end()
  }
}

/** Starts `server` on a free port of 127.0.0.1: its URL. */
export async function listenOnLoopback(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
