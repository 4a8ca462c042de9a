// Which chain RPC URLs the app's page may reach: shared by the server's content security
// policy and the web's proof check. No schemas here, so a screen importing it pulls in no zod.

/**
 * Whether the app's page may read a chain at `url` (the page's policy, connect-src): any https
 * URL, or plain http on this machine's loopback (the local chain of `npm start`, whose origin
 * the server names in the policy). Anything else would be refused by the browser.
 */
export function pageMayReadRpc(url: string): boolean {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return false
  }
  return u.protocol === 'https:' || isLoopbackHttp(u)
}

/** The origin of a plain-http URL on the loopback (127.0.0.1, localhost, [::1]); else null. */
export function loopbackHttpOrigin(url: string | undefined): string | null {
  if (!url) return null
  try {
    const u = new URL(url)
    return isLoopbackHttp(u) ? u.origin : null
  } catch {
    return null
  }
}

const isLoopbackHttp = (u: URL): boolean =>
  u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)
