import {
  CURRENCY_DECIMALS,
  formatAmount,
  LEVELS,
  NODE_TYPES,
  type DirectMember,
  type NodeType,
  type VipInfo,
} from '@hope/api'
import { ratePercent } from '../../lib/format/format.ts'
import type { Checked } from '../../lib/money-flow/checks.ts'
import { isEvmAddress, toUnits } from '../../lib/format/money-input.ts'

// The holder and activation screens' rules over bigint USDT units (6 decimals), as the
// server's membership.rules.ts (upgradeCost) and the collect transfer work them out.

export const USDT_DECIMALS = CURRENCY_DECIMALS.USDT
export const usdtUnits = (value: string): bigint => toUnits(value, USDT_DECIMALS)
export const showUsdt = (units: bigint): string => formatAmount(units, USDT_DECIMALS)

/** The accounts a balance can be collected from into the own USDT account. */
export type CollectAccount = 'node' | 'shareholder'

export type LevelName = (typeof LEVELS)[number]
export type NodeName = (typeof NODE_TYPES)[number]

/** Membership levels that can be paid for: 1 bronze .. 7 supreme. */
export const PAID_LEVELS = [1, 2, 3, 4, 5, 6, 7] as const
export const NODE_CODES = [1, 2, 3] as const satisfies readonly NodeType[]

/** Placement partitions by location; each is translated under `invite:partitions`. */
export const PARTITIONS = { 1: 'left', 2: 'central', 3: 'right' } as const
export type Location = keyof typeof PARTITIONS
export const LOCATION_CODES = [1, 2, 3] as const satisfies readonly Location[]

/** The translation key of a membership level 0..7 (`levels.<name>`). */
export const levelName = (level: number): LevelName => LEVELS[level] ?? 'none'

/** The translation key of a node type 1..3 (`holder:nodeTypes.<name>`). */
export const nodeName = (type: NodeType): NodeName => NODE_TYPES[type - 1] ?? 'shareholder'

/** One node type as the holder screen offers it (decimal strings). */
export interface NodeOffer {
  type: NodeType
  name: NodeName
  price: string
  /** share of the day's new community HOPE value, as a percentage */
  ratePercent: string
  /** how the user holds it, or null while not held */
  held: 'bought' | 'granted' | null
}

/**
 * The three node types with their price, reward share and whether the user holds them.
 * @example nodeOffers(info)[0] // { type: 1, name: 'shareholder', price: '1000', ratePercent: '1', held: null }
 */
export function nodeOffers(info: Pick<VipInfo, 'nodes' | 'nodePrices' | 'nodeRewardRates'>) {
  return NODE_CODES.map((type): NodeOffer => ({
    type,
    name: nodeName(type),
    price: showUsdt(usdtUnits(info.nodePrices[type - 1] ?? '0')),
    ratePercent: ratePercent(info.nodeRewardRates[type - 1] ?? '0'),
    held: info.nodes.find((n) => n.type === type)?.source ?? null,
  }))
}

export type CollectProblem = 'amountRequired' | 'amountInvalid' | 'insufficient'

/**
 * The collect checks before the confirmation: an amount ("Please enter quantity"), above
 * zero, then no more than the account holds. `units` is the field's amount (null when empty).
 * @example checkCollect(12_500000n, '20') // { quote: { amount: '12.5' } }
 */
export function checkCollect(
  units: bigint | null,
  available: string,
): Checked<CollectProblem, { amount: string }> {
  if (units === null) return { problem: 'amountRequired' }
  if (units <= 0n) return { problem: 'amountInvalid' }
  if (units > usdtUnits(available)) return { problem: 'insufficient' }
  return { quote: { amount: showUsdt(units) } }
}

/**
 * What a level costs a member at level `from`: the difference of the cumulative prices
 * (levelPrices[i] is level i + 1's), or null when `to` is not above `from` or not priced.
 * @example levelCost(['100', '300', '600'], 1, 3) // 500_000000n
 */
export function levelCost(levelPrices: readonly string[], from: number, to: number): bigint | null {
  if (!(to > from) || to < 1 || to > levelPrices.length) return null
  const price = (level: number) => (level <= 0 ? 0n : usdtUnits(levelPrices[level - 1] ?? '0'))
  return price(to) - price(from)
}

/** One membership level on the activation screen. */
export interface LevelOption {
  level: number
  /** USDT to pay; for a member whose level is unknown, the most it can be */
  cost: string | null
  /** false when the member already has this level or a higher one */
  selectable: boolean
}

/**
 * The levels 1..7 for a member at `memberLevel`: those above it with the difference to pay.
 * An address outside the direct members has no known level: every level is offered with its
 * full price as the most it can cost (the server charges only the difference).
 */
export function levelOptions(
  levelPrices: readonly string[],
  memberLevel: number | null,
): LevelOption[] {
  return PAID_LEVELS.filter((level) => level <= levelPrices.length).map((level) => {
    const cost = levelCost(levelPrices, memberLevel ?? 0, level)
    return { level, cost: cost === null ? null : showUsdt(cost), selectable: cost !== null }
  })
}

/** The direct member with this address (addresses compare case-insensitively). */
export function findMember(
  members: readonly DirectMember[],
  address: string,
): DirectMember | undefined {
  const wanted = address.trim().toLowerCase()
  return wanted ? members.find((m) => m.userName.toLowerCase() === wanted) : undefined
}

/**
 * A member keeps their partition once they have a level, a team or consensus of their own
 * (the server's `placement_locked`); before that the payer may place them.
 */
export function placementLocked(member: Pick<DirectMember, 'level' | 'teamPeople' | 'consensus'>) {
  return member.level > 0 || member.teamPeople > 0 || usdtUnits(member.consensus) > 0n
}

export type ActivateProblem =
  'addressRequired' | 'addressInvalid' | 'levelRequired' | 'notAnUpgrade'

/** A checked activation, ready for the confirmation (decimal strings). */
export interface ActivationQuote {
  address: string
  level: number
  location: Location | null
  /** what is paid; with `exact` false the most it can be */
  amount: string
  exact: boolean
  /** the least it can cost: the amount, or one level's step for a member of unknown level */
  least: string
}

/**
 * The activation checks in the order of the form (spec §5 "Please enter the address"): an
 * address, a valid one, a level, above the member's. The quote to confirm, or the first problem.
 * `member` is the direct member the address belongs to, when it is one.
 */
export function checkActivation(
  form: { address: string; level: number | null; location: Location | null },
  ctx: { levelPrices: readonly string[]; member: DirectMember | undefined },
): { problem: ActivateProblem } | { quote: ActivationQuote } {
  const address = form.address.trim()
  if (!address) return { problem: 'addressRequired' }
  if (!isEvmAddress(address)) return { problem: 'addressInvalid' }
  if (form.level === null) return { problem: 'levelRequired' }
  const from = ctx.member?.level ?? 0
  const cost = levelCost(ctx.levelPrices, from, form.level)
  if (cost === null) return { problem: 'notAnUpgrade' }
  const exact = ctx.member !== undefined
  const step = levelCost(ctx.levelPrices, form.level - 1, form.level) ?? cost
  return {
    quote: {
      address,
      level: form.level,
      location: form.location,
      amount: showUsdt(cost),
      exact,
      least: showUsdt(exact ? cost : step),
    },
  }
}

/** Whether the available USDT cannot pay an amount (decimal strings). */
export const cannotPay = (available: string, amount: string): boolean =>
  usdtUnits(available) < usdtUnits(amount)

/** The USDT account's log, where a node purchase or a collection stands. */
export const USDT_LOG = '/accountLog?account=usdt'
