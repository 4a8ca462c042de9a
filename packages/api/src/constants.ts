// Plain constants (no zod), safe for the web app's first bundle.

/** Placement partitions under the inviter: 1 left, 2 central, 3 right (spec "location", default 1). */
export const LOCATIONS = [1, 2, 3] as const
export const DEFAULT_LOCATION = 1

/** Membership level 0 means ordinary user; 1..7 bronze..supreme. */
export const LEVELS = [
  'none',
  'bronze',
  'silver',
  'gold',
  'platinum',
  'diamond',
  'stars',
  'supreme',
] as const

/** Ranks by team performance: 0 none; 1..5 bluestone .. the King. */
export const RANKS = ['none', 'bluestone', 'blackIron', 'purpleCopper', 'gold', 'king'] as const

/** Node types 1..3: shareholder node, guarding node, director node. */
export const NODE_TYPES = ['shareholder', 'guarding', 'director'] as const
export type NodeType = 1 | 2 | 3

/** The five accounts every user holds (spec §1) and the currency each keeps. */
export const ACCOUNT_CURRENCY = {
  usdt: 'USDT',
  community: 'HOPE',
  shareholder: 'USDT',
  node: 'USDT',
  split: 'HOPE',
} as const satisfies Record<string, 'USDT' | 'HOPE'>
export type AccountKind = keyof typeof ACCOUNT_CURRENCY
export const ACCOUNT_KINDS = Object.keys(ACCOUNT_CURRENCY) as AccountKind[]

/**
 * Accounts whose whole balance is locked: the split account's HOPE is released into the
 * community account day by day and cannot be spent, transferred or redeemed before.
 */
export const LOCKED_ACCOUNTS: readonly AccountKind[] = ['split']
