/**
 * PostgreSQL text cannot hold U+0000: a value carrying one fails in the database, which would
 * answer a 500 for what is only bad input. Names the first field (of a parsed query string or
 * a socket frame) whose text holds one, or null.
 * @example fieldWithNul({ userName: 'a\u0000b' }) // 'userName'
 */
export function fieldWithNul(values: unknown): string | null {
  if (!values || typeof values !== 'object') return null
  for (const [key, value] of Object.entries(values)) {
    const texts: unknown[] = Array.isArray(value) ? value : [value]
    if (texts.some((t) => typeof t === 'string' && t.includes('\u0000'))) return key
  }
  return null
}
