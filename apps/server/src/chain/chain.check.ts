import { createPublicClient, erc20Abi, http, type Address, type PublicClient } from 'viem'
import type { Settings } from '../modules/settings/settings.rules.ts'
import { endpointLabel } from './chain.transport.ts'
import { localChain } from './local-chain.ts'
import { PAYOUT_VAULT_ABI } from './payout-vault.ts'
import { errorText } from './log-range.ts'

/**
 * `npm run chain:check`: the configured network asked line by line — the chain id, the token's
 * decimals and symbol, the vault's and the registry's code, each endpoint's latency and the log
 * range it accepts, the finality tag, the hot wallet's gas — each with a verdict.
 */

export type Verdict = 'ok' | 'warn' | 'fail'

export interface CheckLine {
  name: string
  value: string
  verdict: Verdict
  /** Why, when the verdict is not ok. */
  note?: string
}

/** Log ranges asked of each endpoint, widest first: the widest accepted is its limit. */
const PROBE_RANGES = [10_000n, 5_000n, 2_000n, 1_000n, 500n, 100n, 10n]
/** Payouts' worth of gas below which the hot wallet is flagged. */
const GAS_PAYOUTS_LOW = 20n

type CheckSettings = Pick<
  Settings,
  | 'chainTokenAddress'
  | 'chainTokenDecimals'
  | 'chainDepositAddress'
  | 'payoutVaultAddress'
  | 'porRegistryAddress'
  | 'chainLogRange'
  | 'chainFinality'
  | 'payoutGasLimit'
>

/** Every line of the check; a line whose read fails is a `fail` with the node's words. */
export async function checkChain(input: {
  urls: string[]
  /** CHAIN_ID when given: the chain the deployment means. */
  expectedChainId?: number
  settings: CheckSettings
  timeoutMs?: number
}): Promise<CheckLine[]> {
  const lines: CheckLine[] = []
  const s = input.settings
  const clients = input.urls.map(
    (url) =>
      createPublicClient({
        chain: localChain(url),
        transport: http(url, { timeout: input.timeoutMs ?? 10_000, retryCount: 0 }),
      }) as PublicClient,
  )
  const client = clients[0]!
  const line = async (name: string, read: () => Promise<Omit<CheckLine, 'name'>>) => {
    try {
      lines.push({ name, ...(await read()) })
    } catch (e) {
      lines.push({ name, value: '-', verdict: 'fail', note: firstLine(errorText(e)) })
    }
  }

  for (const [i, c] of clients.entries()) {
    const label = endpointLabel(input.urls[i]!, i)
    await line(`chain id (${label})`, async () => {
      const id = await c.getChainId()
      const expected = input.expectedChainId
      if (expected !== undefined && id !== expected)
        return { value: String(id), verdict: 'fail', note: `CHAIN_ID says ${expected}` }
      return { value: String(id), verdict: 'ok' }
    })
    await line(`latency and head (${label})`, async () => {
      const t0 = performance.now()
      const head = await c.getBlockNumber({ cacheTime: 0 })
      const ms = performance.now() - t0
      return {
        value: `${ms.toFixed(0)} ms, block ${head}`,
        verdict: ms > 2_000 ? 'warn' : 'ok',
        ...(ms > 2_000 ? { note: 'slower than 2 s' } : {}),
      }
    })
    await line(`log range accepted (${label})`, async () => {
      const head = await c.getBlockNumber({ cacheTime: 0 })
      let accepted: bigint | null = null
      for (const span of PROBE_RANGES) {
        const from = head - span + 1n > 0n ? head - span + 1n : 0n
        try {
          await c.getLogs({
            address: (s.chainTokenAddress || undefined) as Address | undefined,
            fromBlock: from,
            toBlock: head,
          })
          accepted = span
          break
        } catch {
          continue
        }
      }
      if (accepted === null)
        return { value: 'none', verdict: 'fail', note: 'refused even 10 blocks' }
      const fits = BigInt(s.chainLogRange) <= accepted
      return {
        value: `${accepted === PROBE_RANGES[0] ? '≥ ' : ''}${accepted} blocks`,
        verdict: fits ? 'ok' : 'fail',
        ...(fits ? {} : { note: `chainLogRange is ${s.chainLogRange}: set it to ${accepted}` }),
      }
    })
  }

  await line('token decimals and symbol', async () => {
    if (!s.chainTokenAddress)
      return { value: '-', verdict: 'fail', note: 'chainTokenAddress is not set' }
    const token = s.chainTokenAddress as Address
    const [decimals, symbol] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }),
      client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }),
    ])
    const same = decimals === s.chainTokenDecimals
    return {
      value: `${decimals} decimals, ${symbol}`,
      verdict: same ? 'ok' : 'fail',
      ...(same ? {} : { note: `chainTokenDecimals says ${s.chainTokenDecimals}` }),
    }
  })
  for (const [name, address] of [
    ['payout vault code', s.payoutVaultAddress],
    ['proof-of-liabilities registry code', s.porRegistryAddress],
  ] as const)
    await line(name, async () => {
      if (!address) return { value: '-', verdict: 'warn', note: 'not configured' }
      const code = await client.getCode({ address: address as Address })
      const has = !!code && code !== '0x'
      return {
        value: has ? `${(code.length - 2) / 2} bytes at ${address}` : `none at ${address}`,
        verdict: has ? 'ok' : 'fail',
        ...(has ? {} : { note: 'no contract at that address on this chain' }),
      }
    })
  await line('finality', async () => {
    let tagged: bigint | null = null
    try {
      tagged = (await client.getBlock({ blockTag: 'finalized' })).number
    } catch {
      tagged = null
    }
    if (tagged === null)
      return s.chainFinality === 'finalized'
        ? { value: 'no finalized tag', verdict: 'fail', note: 'chainFinality is finalized' }
        : { value: 'no finalized tag: confirmations', verdict: 'ok' }
    return {
      value: `finalized tag at block ${tagged}`,
      verdict: s.chainFinality === 'finalized' ? 'ok' : 'warn',
      ...(s.chainFinality === 'finalized'
        ? {}
        : { note: 'the chain has the tag: chainFinality finalized is safer' }),
    }
  })
  await line("hot wallet's gas", async () => {
    if (!s.payoutVaultAddress) return { value: '-', verdict: 'warn', note: 'no payout vault' }
    const payer = await client.readContract({
      address: s.payoutVaultAddress as Address,
      abi: PAYOUT_VAULT_ABI,
      functionName: 'payer',
    })
    const [wei, price] = await Promise.all([
      client.getBalance({ address: payer }),
      client.getGasPrice(),
    ])
    const perPayout = price * BigInt(s.payoutGasLimit)
    const left = perPayout > 0n ? wei / perPayout : null
    const low = left !== null && left < GAS_PAYOUTS_LOW
    return {
      value: `${wei} wei at ${payer}${left === null ? '' : `, ${left} payouts`}`,
      verdict: low ? 'fail' : 'ok',
      ...(low ? { note: `fewer than ${GAS_PAYOUTS_LOW} payouts of gas: top it up` } : {}),
    }
  })
  return lines
}

/** The lines as a table. */
export function formatCheck(lines: CheckLine[]): string {
  const rows = [
    ['check', 'value', 'verdict'],
    ...lines.map((l) => [l.name, l.value, l.note ? `${l.verdict}: ${l.note}` : l.verdict]),
  ]
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows
    .map((r, n) => {
      const text = r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')
      return n === 0 ? `${text}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}` : text
    })
    .join('\n')
}

const firstLine = (text: string) => text.split('\n').find((l) => l.trim()) ?? text
