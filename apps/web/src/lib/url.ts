/**
 * A query parameter from the page URL: the normal query string or the query part inside the
 * hash route (`#/invite?pusername=0xabc`). The hash wins when both carry it.
 */
export function readUrlParam(
  name: string,
  loc: Pick<Location, 'search' | 'hash'> = window.location,
): string | null {
  const hashQuery = loc.hash.includes('?') ? loc.hash.slice(loc.hash.indexOf('?')) : ''
  const value =
    new URLSearchParams(hashQuery).get(name) ?? new URLSearchParams(loc.search).get(name)
  const trimmed = value?.trim()
  return trimmed ? trimmed : null
}
