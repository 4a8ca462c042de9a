// The local channel between the web workers and the signer process: HTTP on 127.0.0.1 with a
// random bearer token the signer's parent made; bigints travel as decimal strings.
import { timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { Address, Hex } from 'viem'
import {
  SignerRefusal,
  type PayoutSigner,
  type PorSigner,
  type UnsignedTx,
} from './signer.service.ts'

type WireTx = Record<string, string | number | undefined>

const BIG = ['gas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'gasPrice', 'value'] as const

/** The transaction's type as it says, else legacy (type 0) when it carries a gas price. */
const typeOf = (tx: UnsignedTx): string =>
  tx.type ?? (tx.gasPrice !== undefined ? 'legacy' : 'eip1559')

export function txToWire(tx: UnsignedTx): WireTx {
  const wire: WireTx = { type: typeOf(tx), chainId: tx.chainId, to: tx.to, data: tx.data }
  if (tx.nonce !== undefined) wire.nonce = tx.nonce
  for (const k of BIG) if (tx[k] !== undefined) wire[k] = String(tx[k])
  return wire
}

export function txFromWire(wire: WireTx): UnsignedTx {
  const hex = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v) ? v : null)
  const to = hex(wire.to)
  const data = hex(wire.data)
  if (!to || to.length !== 42 || !data || typeof wire.chainId !== 'number')
    throw new Error('a transaction needs chainId, to and data')
  const type = wire.type ?? 'eip1559'
  if (type !== 'eip1559' && type !== 'legacy')
    throw new Error('a transaction is of type eip1559 or legacy')
  // Every fee field as sent, whatever the type: the signer's rules refuse a mix of the two kinds.
  const tx: Record<string, unknown> = { type, chainId: wire.chainId, to, data }
  if (typeof wire.nonce === 'number') tx.nonce = wire.nonce
  for (const k of BIG) {
    const v = wire[k]
    if (typeof v === 'string' && /^\d{1,78}$/.test(v)) tx[k] = BigInt(v)
  }
  return tx as UnsignedTx
}

const MAX_BODY = 64 * 1024

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0
    const parts: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new Error('too large'))
        req.destroy()
      } else parts.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function sameToken(given: string | undefined, token: string): boolean {
  const a = Buffer.from(given ?? '')
  const b = Buffer.from(`Bearer ${token}`)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The signer's side: POST /payout { withdrawalId, tx } and POST /por { tx } answer { raw }. */
export function createSignerServer(
  signer: PayoutSigner & Partial<PorSigner>,
  token: string,
): http.Server {
  return http.createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.method !== 'POST' || !sameToken(req.headers.authorization, token)) {
      answer(401, { error: 'unauthorized' })
      req.resume()
      return
    }
    void (async () => {
      try {
        const body = JSON.parse(await readBody(req)) as { withdrawalId?: unknown; tx?: WireTx }
        const tx = txFromWire(body.tx ?? {})
        if (req.url === '/payout') {
          const id = body.withdrawalId
          if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
            return answer(400, { error: 'withdrawalId' })
          return answer(200, { raw: await signer.signPayout(id, tx) })
        }
        if (req.url === '/por' && signer.signPor)
          return answer(200, { raw: await signer.signPor(tx) })
        answer(404, { error: 'not_found' })
      } catch (e) {
        if (e instanceof SignerRefusal) answer(403, { error: 'refused', reason: e.reason })
        else answer(400, { error: e instanceof Error ? e.message : 'bad request' })
      }
    })()
  })
}

/** The workers' side: the same signer, asked over the channel. */
export function createRemoteSigner(opts: {
  url: string
  token: string
  hotWallet: Address
  porPublisher: Address | null
}): PayoutSigner & Partial<PorSigner> & { porPublisher: Address | null } {
  const ask = async (path: string, body: object): Promise<Hex> => {
    const res = await fetch(`${opts.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    })
    const answer = (await res.json()) as {
      raw?: Hex
      reason?: SignerRefusal['reason']
      error?: string
    }
    if (res.status === 403 && answer.reason) throw new SignerRefusal(answer.reason)
    if (!res.ok || !answer.raw)
      throw new Error(`the signer answered ${res.status}: ${answer.error}`)
    return answer.raw
  }
  return {
    address: opts.hotWallet,
    porPublisher: opts.porPublisher,
    signPayout: (withdrawalId, tx) => ask('/payout', { withdrawalId, tx: txToWire(tx) }),
    ...(opts.porPublisher
      ? { signPor: (tx: UnsignedTx) => ask('/por', { tx: txToWire(tx) }) }
      : {}),
  }
}
