import type {
  DEFAULT_LOCATION as ApiDefaultLocation,
  LEVELS as ApiLevels,
  LOCATIONS as ApiLocations,
} from '@hope/api'

/**
 * Contract constants the first screen needs. `@hope/api` keeps them in `user.ts`, whose zod
 * schemas would put all of zod (~22 KB gzip) into the first bundle, so the web holds copies
 * that the compiler proves identical to the contract's.
 */
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
export const LOCATIONS = [1, 2, 3] as const
export const DEFAULT_LOCATION = 1

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameAsContract: [
  Same<typeof LEVELS, typeof ApiLevels>,
  Same<typeof LOCATIONS, typeof ApiLocations>,
  Same<typeof DEFAULT_LOCATION, typeof ApiDefaultLocation>,
] = [true, true, true]
void sameAsContract
