const KEEP = 6
const STARS = '******'

/**
 * Masks the middle of a string (spec §9): keeps the first 6 and last 6 characters.
 * Strings of 12 characters or fewer are returned unchanged.
 * @example mask('0x1234567890abcdef1234567890abcdef12345678') // '0x1234******345678'
 */
export function mask(value: string): string {
  if (value.length <= KEEP * 2) return value
  return `${value.slice(0, KEEP)}${STARS}${value.slice(-KEEP)}`
}
