import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/**
 * Production headers. Inline scripts stay allowed: several wallets' in-app browsers inject
 * their provider as an inline script, and a policy blocking it breaks the app there.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' https: wss:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ')

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    reply.header('x-frame-options', 'DENY')
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
  })
}

/** Serves the built web app: hashed assets cached for a year, index.html never cached. */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string | undefined,
): Promise<boolean> {
  if (!distDir || !fs.existsSync(path.join(distDir, 'index.html'))) return false
  await app.register(fastifyStatic, {
    root: distDir,
    index: ['index.html'],
    setHeaders(res, file) {
      const immutable = file.includes(`${path.sep}assets${path.sep}`)
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })
  return true
}

/** A page navigation to a path that is no file gets the app shell (routes live in the hash). */
export function isAppNavigation(method: string, url: string): boolean {
  const p = url.split('?')[0] ?? '/'
  return method === 'GET' && !p.startsWith('/api/') && !p.startsWith('/assets/')
}
