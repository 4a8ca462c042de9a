// Proof of liabilities: what a user is owed, at which scale, how well the reserves cover it,
// which block a snapshot is taken at and when the next one is due. No I/O.
import { getAddress } from 'viem'

/** The scales the tree commits amounts at: USDT as on Ethereum, HOPE as an 18-decimal token. */
export const USDT_SCALE = 6
export const HOPE_SCALE = 18

/**
 * An exact decimal (a NUMERIC column's text) as an integer at `scale` decimals. Throws on a
 * negative value or on more decimals than the scale holds: the books must fit the tree exactly.
 * @example toScaledUnits('12.5', 6) // 12500000n
 */
export function toScaledUnits(value: string, scale: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value.trim())
  if (!m) throw new RangeError(`not a non-negative decimal: ${value}`)
  const fraction = (m[2] ?? '').replace(/0+$/, '')
  if (fraction.length > scale) throw new RangeError(`${value} has more than ${scale} decimals`)
  return BigInt(m[1]!) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0')
}

/**
 * An integer at `scale` decimals as a decimal string without trailing zeros.
 * @example formatScaled(12500000n, 6) // '12.5'
 */
export function formatScaled(units: bigint, scale: number): string {
  const sign = units < 0n ? '-' : ''
  const abs = units < 0n ? -units : units
  const base = 10n ** BigInt(scale)
  const fraction = (abs % base).toString().padStart(scale, '0').replace(/0+$/, '')
  return `${sign}${abs / base}${fraction ? `.${fraction}` : ''}`
}

/**
 * `units` at `from` decimals restated at `to` decimals, rounded down (a reserve is never
 * counted for more than it holds).
 * @example rescale(1_500_000_000_000_000_000n, 18, 6) // 1500000n
 */
export function rescale(units: bigint, from: number, to: number): bigint {
  return to >= from ? units * 10n ** BigInt(to - from) : units / 10n ** BigInt(from - to)
}

/** One user's books as the liabilities read gives them: NUMERIC texts of the ledger. */
export interface UserBooks {
  address: string
  /** usdt + node + shareholder balances, withdrawals still pending in the ledger included. */
  usdtAccounts: string
  /** community + split balances. */
  hopeAccounts: string
  /** The HOPE active consensus positions hold for the user. */
  positionsHope: string
  /** What pledge items not yet redeemed still owe (amount − released). */
  pledgesHope: string
}

/**
 * What the platform owes one user, at the tree's scales:
 * - USDT = the usdt, node and shareholder accounts' posted balances. A withdrawal stays in the
 *   balance as a pending transfer until the chain confirms it (under review, approved,
 *   broadcast), so it is owed until then; a deposit not yet final is not.
 * - HOPE = the community and split accounts, plus the HOPE of each active consensus position
 *   (held in the stake pool in the user's name until the position is out), plus what each
 *   pledge item has still to release back to the user.
 * @example userLiability({ address, usdtAccounts: '10', hopeAccounts: '1', positionsHope: '2', pledgesHope: '0.5' })
 *   // { address, usdt: 10000000n, hope: 3500000000000000000n }
 */
export function userLiability(b: UserBooks): { address: string; usdt: bigint; hope: bigint } {
  return {
    address: b.address,
    usdt: toScaledUnits(b.usdtAccounts, USDT_SCALE),
    hope:
      toScaledUnits(b.hopeAccounts, HOPE_SCALE) +
      toScaledUnits(b.positionsHope, HOPE_SCALE) +
      toScaledUnits(b.pledgesHope, HOPE_SCALE),
  }
}

/**
 * Reserves ÷ liabilities to four decimals, rounded down; null when nothing is owed.
 * @example coverageRatio(1_025_000n, 1_000_000n) // '1.025'
 */
export function coverageRatio(reserves: bigint, liabilities: bigint): string | null {
  if (liabilities <= 0n) return null
  return formatScaled((reserves * 10_000n) / liabilities, 4)
}

/** Whether the reserves fall short of what is owed in USDT (both at the USDT scale). */
export const reservesShort = (reservesUsdt: bigint, liabilitiesUsdt: bigint): boolean =>
  reservesUsdt < liabilitiesUsdt

/**
 * Block B: the newest block with `confirmations` confirmations (itself counting as one).
 * @example snapshotBlock(100n, 12) // 89n
 */
export function snapshotBlock(head: bigint, confirmations: number): bigint {
  const b = head - BigInt(confirmations) + 1n
  return b < 0n ? 0n : b
}

/**
 * The last moment at or before `nowMs` the local clock (UTC + `offsetMinutes`) read `time`.
 * @example lastScheduled(Date.parse('2026-11-22T18:30:00Z'), 480, '02:00') // 2026-11-22T18:00:00Z
 */
export function lastScheduled(nowMs: number, offsetMinutes: number, time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number]
  const localMs = nowMs + offsetMinutes * 60_000
  const dayStart = localMs - (((localMs % 86_400_000) + 86_400_000) % 86_400_000)
  let at = dayStart + (h * 60 + m) * 60_000
  if (at > localMs) at -= 86_400_000
  return at - offsetMinutes * 60_000
}

/** Whether the daily snapshot is due: the scheduled time passed since the last one was taken. */
export function snapshotDue(
  nowMs: number,
  offsetMinutes: number,
  time: string,
  lastTakenMs: number | null,
): boolean {
  return lastTakenMs === null || lastTakenMs < lastScheduled(nowMs, offsetMinutes, time)
}

/** What to do with a publish transaction sent earlier, from what the chain says of it. */
export type PublishState = 'published' | 'waiting' | 'dropped' | 'reverted'

/**
 * The publish transaction's state: at the depth (published), mined or in the pool but not yet
 * deep enough (waiting), unknown to the node (dropped: a reorg took its block and it did not
 * come back), or mined and reverted.
 */
export function publishState(p: {
  receipt: { blockNumber: bigint; success: boolean } | null
  known: boolean
  head: bigint
  confirmations: number
}): PublishState {
  if (p.receipt) {
    if (!p.receipt.success) return 'reverted'
    return p.head - p.receipt.blockNumber + 1n >= BigInt(p.confirmations) ? 'published' : 'waiting'
  }
  return p.known ? 'waiting' : 'dropped'
}

/**
 * Whether a published snapshot has settled: the chain is `confirmations` blocks past its check
 * block (where the reserves are counted again), so verifiers accept it and users are served it.
 */
export const snapshotSettled = (head: bigint, checkBlock: bigint, confirmations: number): boolean =>
  head - checkBlock + 1n >= BigInt(confirmations)

/**
 * When the registry takes the next snapshot (seconds since 1970, by the chain's clock): its
 * minimum interval after the previous publication; at once before the first.
 */
export const nextPublicationAt = (
  previousPublishedAt: bigint | null,
  minInterval: bigint,
): bigint => (previousPublishedAt === null ? 0n : previousPublishedAt + minInterval)

/**
 * Whether block B is too old to publish now: the registry refuses a block more than
 * `maxBlockAge` blocks before the publication, which is at least the block after the head.
 */
export const blockTooOld = (head: bigint, blockNumber: bigint, maxBlockAge: bigint): boolean =>
  blockNumber + maxBlockAge < head + 1n

/** The moment before which past snapshots' proofs are dropped. */
export const retentionCutoff = (nowMs: number, days: number): Date =>
  new Date(nowMs - days * 86_400_000)

/**
 * The message a reserve address signs once (EIP-191), as the verifier of `@hope/por-verify`
 * rebuilds it: it names the address, the chain, the registry and the token, so a signature made
 * for anything else cannot be shown as HOPE's.
 */
export function reserveMessage(
  address: string,
  chainId: number,
  registry: string,
  token: string,
): string {
  return [
    'HOPE proof of reserves',
    `The address ${address.toLowerCase()} holds funds that HOPE owes to its users.`,
    `Chain: ${chainId}`,
    `Registry: ${registry.toLowerCase()}`,
    `Token: ${token.toLowerCase()}`,
  ].join('\n')
}

/** The reserve set as the registry takes it: checksummed, each once, ascending. */
export function registryReserveSet(addresses: readonly string[]): `0x${string}`[] {
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))].sort()
  return unique.map((a) => getAddress(a))
}
