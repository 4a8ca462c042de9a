import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import fastifyStatic from '@fastify/static'
import { BANNER_SIZES, imageSrcSet, SHELL_BOOT_ELEMENT_ID, type ShellBoot } from '@hope/api'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../lib/app-error.ts'

/**
 * Production headers.
 *
 * script-src: the app's own files, and each inline script of the shells by its SHA-256 hash
 * (the build's first-screen preloads and early reads, the shell's banner preload): no
 * `'unsafe-inline'`, so an injected `<script>` in a page cannot run. Wallets are not affected:
 * in-app browsers (MetaMask Mobile, TokenPocket, imToken, Trust, OKX, Bitget) inject their
 * provider through the webview's own script injection, and extensions through content scripts
 * in the page's world; page policy governs neither. Styles keep `'unsafe-inline'`: the UI kit
 * sets style attributes and the entry stylesheet is inlined.
 *
 * connect-src: the app itself talks to its own origin (the API, and the chat socket, which
 * CSP 3 counts as `'self'`) and reads the chain through the wallet; only the proof-of-liabilities
 * check reads the proof's chain without one, through the public RPC URL operators give wallets
 * (https). `https:` also stays for the wallets: some injected providers (Trust's, TokenPocket's)
 * send read calls with `fetch` from inside the page to an RPC node the wallet chooses, which no
 * list here can name. `chainOrigins` names a chain on this machine's loopback (the local chain
 * of `npm start`, plain http) so the check works there too; no other plain `http:` and no
 * foreign `wss:` is allowed.
 *
 * CSRF does not apply: the session travels in the `token` header, set by the app's own script,
 * never in a cookie, so a page on another origin cannot make a browser send it.
 */
export function contentSecurityPolicy(
  scriptHashes: Iterable<string> = [],
  chainOrigins: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...[...scriptHashes].map((h) => `'${h}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self' data:",
    ["connect-src 'self' https:", ...chainOrigins].join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ')
}

/** A year, subdomains included; sent only when the app is reached over TLS. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains'

/**
 * Headers every answer carries, whatever sent it (a route, a static file, Fastify's own refusal
 * of a malformed URL, Node's refusal of an oversized head).
 * - COOP `same-origin-allow-popups`: no other page keeps a handle on the app's window, while a
 *   wallet's sign-in pop-up opened by the app can still answer it.
 * - CORP `same-origin`: another site cannot embed the app's answers or pictures.
 * - Permissions-Policy: the app uses no camera, microphone, location, payment request, USB or
 *   sensors; clipboard writing (the copy buttons) keeps its default, the own origin.
 */
export const COMMON_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), accelerometer=(), gyroscope=(), magnetometer=()',
}

/**
 * The hashes of a page's inline scripts, as CSP names them (`sha256-…`): every `<script>`
 * without `src` whose type runs (none, a JavaScript type, or `module`); data blocks such as
 * `type="application/json"` never run and need none.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? ''
    if (/\bsrc\s*=/i.test(attrs)) continue
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase()
    if (type && type !== 'module' && !type.includes('javascript') && !type.includes('ecmascript'))
      continue
    hashes.push(
      `sha256-${createHash('sha256')
        .update(m[2] ?? '', 'utf8')
        .digest('base64')}`,
    )
  }
  return hashes
}

/**
 * The request came over TLS: to this process itself, through a trusted proxy that says so
 * (`x-forwarded-proto: https` with TRUST_PROXY=true), or the app's public address is https.
 * An untrusted `x-forwarded-proto` is ignored (Fastify reads it only when proxies are trusted).
 */
function reachedOverTls(req: FastifyRequest): boolean {
  return req.protocol === 'https' || Boolean(req.server.config?.publicUrl?.startsWith('https://'))
}

/** The inline scripts each app's shells may run; the policy names their hashes. */
const shellScripts = new WeakMap<FastifyInstance, Set<string>>()

function allowInlineScripts(app: FastifyInstance, hashes: Iterable<string>): void {
  const known = shellScripts.get(app)
  if (known) for (const h of hashes) known.add(h)
}

/**
 * The production headers on every answer: those above, the policy, HSTS over TLS, and
 * `cache-control: no-store` on the API (answers carry balances and sessions; no browser or
 * proxy keeps them).
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  chainOrigins: readonly string[] = [],
): void {
  const hashes = new Set<string>()
  shellScripts.set(app, hashes)
  let policy = { size: -1, text: '' }
  app.addHook('onSend', async (req, reply) => {
    for (const [name, value] of Object.entries(COMMON_SECURITY_HEADERS)) reply.header(name, value)
    if (policy.size !== hashes.size)
      policy = { size: hashes.size, text: contentSecurityPolicy(hashes, chainOrigins) }
    reply.header('content-security-policy', policy.text)
    if (reachedOverTls(req)) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY)
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store')
  })
}

/**
 * The shell's banner preload: for a signed-in visitor opening the home, a request for the first
 * banner's picture (the home's largest paint), started while the scripts still download. It
 * reads the picture from the boot data, so its text (and the hash the policy names) never
 * changes. The request has the same srcset and sizes as the <img>, so it fetches the same file.
 */
export const BANNER_PRELOAD_SCRIPT =
  '(function(){try{' +
  "var h=location.hash.replace(/^#/,'').split('?')[0];" +
  "if((h===''||h==='/')&&localStorage.getItem('token')){" +
  `var p=JSON.parse(document.getElementById('${SHELL_BOOT_ELEMENT_ID}').textContent).picture;` +
  "if(p){var i=new Image();i.fetchPriority='high';" +
  'if(p.srcset){i.sizes=p.sizes;i.srcset=p.srcset}i.src=p.src}}' +
  '}catch(e){}})()'

/** JSON that stays JSON inside an HTML <script> element: no `<` can close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

/**
 * The shell with its boot data, placed at the end of <head>:
 * - the home's banners in every language, so the home draws its carousel without asking
 *   `main/bannnerInfo` first;
 * - the first banner's picture and the script that starts it for a signed-in home
 *   (`BANNER_PRELOAD_SCRIPT`). The picture is the same in every language.
 */
export function renderShell(template: string, boot: ShellBoot): string {
  const first = Object.values(boot.banners).find((list) => list && list.length > 0)?.[0]
  const data: ShellBoot = first
    ? {
        ...boot,
        picture: { src: first.image, srcset: imageSrcSet(first.image), sizes: BANNER_SIZES },
      }
    : boot
  let head = `<script id="${SHELL_BOOT_ELEMENT_ID}" type="application/json">${scriptJson(data)}</script>`
  if (first) head += `<script>${BANNER_PRELOAD_SCRIPT}</script>`
  // A function, so that `$&` or `$1` in a title is not read as a replacement pattern.
  return template.includes('</head>')
    ? template.replace('</head>', () => `${head}</head>`)
    : head + template
}

/** Sends the web app's shell, never cached. */
export type ShellSender = (reply: FastifyReply) => Promise<FastifyReply>

/**
 * Serves the built web app: hashed assets cached for a year, the shell (index.html with its
 * boot data, see `renderShell`) never cached. Answers the shell's sender; null without a build.
 * When `boot` fails (the database is away), the shell goes out without boot data and the app
 * asks for what it needs as usual.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string | undefined,
  boot: () => Promise<ShellBoot>,
): Promise<ShellSender | null> {
  if (!distDir || !fs.existsSync(path.join(distDir, 'index.html'))) return null
  const template = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8')
  allowInlineScripts(app, [
    ...inlineScriptHashes(template),
    ...inlineScriptHashes(`<script>${BANNER_PRELOAD_SCRIPT}</script>`),
  ])
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    // The build writes .br/.gz copies beside its files (apps/web/vite.config.ts).
    preCompressed: true,
    setHeaders(res, file) {
      const immutable = file.includes(`${path.sep}assets${path.sep}`)
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })
  // The last shell sent and its compressed copies: the banners change seldom.
  let last: { html: string; br: Buffer; gzip: Buffer } | null = null
  const sendShell: ShellSender = async (reply) => {
    let html = template
    try {
      html = renderShell(template, await boot())
    } catch (err) {
      reply.log.warn({ err }, 'shell sent without boot data')
    }
    if (last?.html !== html) {
      last = {
        html,
        br: zlib.brotliCompressSync(html, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 },
        }),
        gzip: zlib.gzipSync(html, { level: 9 }),
      }
    }
    void reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
    const accepted = reply.request.headers['accept-encoding'] ?? ''
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null
    if (!encoding) return reply.send(html)
    return reply.header('content-encoding', encoding).send(last[encoding])
  }
  app.get('/', (_req, reply) => sendShell(reply))
  app.get('/index.html', (_req, reply) => sendShell(reply))
  return sendShell
}

/** Where the operator console is served. */
export const ADMIN_PREFIX = '/admin'

/**
 * Serves the built operator console at `/admin/` beside the web app, with the same caching and
 * the same security headers (the root's hook). A navigation to any other `/admin/…` path that
 * is no file gets the console's shell (its routes live in the hash); a missing asset is a 404.
 */
export async function registerAdminApp(
  app: FastifyInstance,
  distDir: string | undefined,
): Promise<boolean> {
  if (!distDir || !fs.existsSync(path.join(distDir, 'index.html'))) return false
  const shell = path.join(distDir, 'index.html')
  allowInlineScripts(app, inlineScriptHashes(fs.readFileSync(shell, 'utf8')))
  await app.register(
    async (scope) => {
      await scope.register(fastifyStatic, {
        root: distDir,
        index: ['index.html'],
        decorateReply: false,
        setHeaders(res, file) {
          const immutable = file.includes(`${path.sep}assets${path.sep}`)
          res.header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          )
        },
      })
      // `/admin` itself would otherwise fall to the web app's catch-all.
      scope.get('/', { prefixTrailingSlash: 'no-slash' }, (_req, reply) =>
        reply.redirect(`${ADMIN_PREFIX}/`),
      )
      scope.setNotFoundHandler(async (req, reply) => {
        const p = req.url.split('?')[0] ?? ''
        if (req.method !== 'GET' || p.startsWith(`${ADMIN_PREFIX}/assets/`)) {
          throw new AppError('not_found')
        }
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(await fs.promises.readFile(shell))
      })
    },
    { prefix: ADMIN_PREFIX },
  )
  return true
}

/** A page navigation to a path that is no file gets the app shell (routes live in the hash). */
export function isAppNavigation(method: string, url: string): boolean {
  const p = url.split('?')[0] ?? '/'
  return (
    method === 'GET' &&
    !p.startsWith('/api/') &&
    !p.startsWith('/assets/') &&
    !p.startsWith('/uploads/')
  )
}
