/**
 * The parts of configured service URLs that may hold a credential (user, password, path,
 * query: RPC providers put their API key in the path), each replaced by `[redacted]` wherever
 * it appears inside a value about to be logged. Libraries put the URL they called in their
 * errors' messages and fields (viem's `HTTP request failed. URL: …`).
 * @example redactUrls(['https://rpc.example/v3/KEY'])('URL: https://rpc.example/v3/KEY') // 'URL: https://rpc.example/[redacted]'
 */
export function redactUrls(urls: (string | undefined)[]): <T>(value: T) => T {
  const replacements: [string, string][] = []
  for (const raw of urls) {
    if (!raw) continue
    let u: URL
    try {
      u = new URL(raw)
    } catch {
      continue
    }
    const bare = `${u.protocol}//${u.host}`
    const secret = u.username || u.password || u.search || u.pathname.replace(/^\/$/, '')
    if (!secret) continue
    // The whole URL as configured and as normalised, then the credential parts on their own.
    for (const whole of new Set([raw, u.toString(), raw.replace(/\/+$/, '')]))
      replacements.push([whole, `${bare}/[redacted]`])
    if (u.password.length >= 6) replacements.push([u.password, '[redacted]'])
    const rest = u.pathname.length > 1 ? u.pathname + u.search : u.search
    if (rest.length >= 6) replacements.push([rest, '/[redacted]'])
    // A long segment or query value is a key even where it is quoted on its own.
    const pieces = [...u.pathname.split('/'), ...[...u.searchParams.values()]]
    for (const piece of pieces) if (piece.length >= 12) replacements.push([piece, '[redacted]'])
  }
  // Longest first, so a whole URL is replaced before a part of it.
  replacements.sort((a, b) => b[0].length - a[0].length)
  const scrub = (s: string) => replacements.reduce((acc, [from, to]) => acc.split(from).join(to), s)
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrub(value)
    if (depth > 6 || value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, depth + 1)]))
  }
  return <T>(value: T): T => (replacements.length ? (walk(value, 0) as T) : value)
}
