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
