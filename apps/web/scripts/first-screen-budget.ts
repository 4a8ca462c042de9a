// The first-screen budget check, run by `npm test` after the build (`npm run test:first-screen`)
// and by the bench; never by `npm start`'s build, which needs no browser.
//
// It loads the BUILT app (dist/) in Debian's Chromium at 375×812 as a signed-in user on `/`,
// with a wallet injected and the API answered in the browser, waits until the screen is
// settled (no request for a while), and sums the gzip size (level 9) of every JavaScript file
// the browser fetched. It fails the build when:
//   - that total is over 120 KB (122,880 bytes);
//   - a fetched chunk holds modules of the wallet libraries (wagmi, viem), which load only when
//     a wallet action needs them (chunk contents from dist/.vite/chunk-packages.json, written
//     by the build);
//   - an image on the screen lacks width/height, or is not lazy (the first banner excepted);
//   - the home screen does not appear.
//   - an API call is sent twice (the page's early reads went unused, say);
// It measures every language the app speaks as a returning user's stored choice, and English
// once more as a first visit's browser language (no stored choice). The lists and totals are
// printed and written to dist/first-screen.json.
// FIRST_SCREEN_LANG=<zhcn|en|ko|ja|th|vi> measures that language only.
// FIRST_SCREEN_SERVER=<url> with FIRST_SCREEN_TOKEN and FIRST_SCREEN_ADDRESS (a session of
// that app) measures a running app with its real answers instead (the bench does).
//
// Chromium: /usr/bin/chromium, /usr/bin/chromium-browser or CHROMIUM_PATH. Without one the check
// fails and says so.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import {
  LANGS,
  type BannerItem,
  type Lang,
  type NewsItem,
  type Page as ListPage,
  type UserInfo,
} from '@hope/api'
import type { Page, Request } from 'playwright-core'
import { chromiumPath, launchBrowser, phonePage } from '../../../e2e/support/chromium.ts'
import { INTL_LOCALES } from '../src/lib/i18n/lang.ts'
import { balanceList } from '../test-support/fixtures.ts'

export const BUDGET_BYTES = 120 * 1024
/** Packages that load only on a wallet action (viem's own parts: ox, abitype). */
export const WALLET_PACKAGES = [
  'viem',
  'ox',
  'abitype',
  'wagmi',
  '@wagmi/core',
  '@wagmi/connectors',
]
/** The screen counts as settled once no request has been in flight for this long. */
const QUIET_MS = 1500
const SETTLE_TIMEOUT_MS = 30_000

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist')
const ADDRESS = '0x5b38da6a701c568545dcfcb03fcb875f56beddc4'
const TOKEN = 'f'.repeat(64)
const UPLOAD = `/uploads/${'ab'.repeat(32)}.png`

/** A 1×1 PNG: every uploaded picture the screen shows. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=',
  'base64',
)

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
}

export interface FetchedScript {
  file: string
  bytes: number
  gzipBytes: number
  packages: string[]
}

export interface FirstScreenReport {
  lang: Lang
  via: 'stored' | 'browser'
  realAnswers: boolean
  url: string
  viewport: { width: number; height: number }
  budgetBytes: number
  totalGzipBytes: number
  files: FetchedScript[]
  walletChunks: string[]
  imageProblems: string[]
  /** API calls (method, path and query) sent more than once, with the `lan` of each. */
  duplicateApiCalls: string[]
  unansweredApiCalls: string[]
  ok: boolean
}

/** Serves dist/ (uploads answer a pixel) on 127.0.0.1 at a free port. */
async function serveDist(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)
    if (pathname.startsWith('/uploads/')) {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL)
      return
    }
    const file = path.join(DIST, pathname === '/' ? 'index.html' : pathname)
    if (
      !file.startsWith(DIST + path.sep) ||
      !fs.existsSync(file) ||
      fs.statSync(file).isDirectory()
    ) {
      res.writeHead(404).end()
      return
    }
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream'
    res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(file))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

const user: UserInfo = {
  id: 2,
  userName: ADDRESS,
  nickName: 'Alice',
  image: UPLOAD,
  referralCode: 'K7Q2M9XW4D',
  level: 1,
  gamePoints: '0',
  invitationLink: `https://hope.example/#/invite?pusername=${ADDRESS}`,
  location: 1,
  isRobot: false,
}

const banners: BannerItem[] = [1, 2, 3].map((id) => ({
  id,
  image: UPLOAD,
  title: `横幅 ${id}`,
  link: id === 1 ? '/stake' : '',
  sort: id,
  lang: 'zhcn',
}))

function newsPage(pageSize: number): ListPage<NewsItem> {
  const list = Array.from({ length: pageSize }, (_, i) => ({
    id: 20 - i,
    type: 1 as const,
    title: `平台公告 ${20 - i}：质押收益发放时间调整`,
    summary: '自下周起，每日收益于北京时间 00:30 发放。',
    content: '<p>自下周起，每日收益于北京时间 00:30 发放。</p>',
    image: '',
    lang: 'zhcn' as const,
    publishedAt: new Date(Date.UTC(2026, 2, 20 - i, 8)).toISOString(),
  }))
  return { list, total: 20, pageNum: 1, pageSize }
}

/** What the server answers the home screen's calls with, as `data` of a success envelope. */
function apiData(route: string, query: URLSearchParams): { found: boolean; data: unknown } {
  switch (route) {
    case 'user/getUserInfo':
      return { found: true, data: user }
    case 'user/getUserInfoByName':
      return { found: true, data: { userName: user.userName, nickName: user.nickName, image: '' } }
    case 'userAccount/balance':
      return { found: true, data: balanceList() }
    case 'main/bannnerInfo':
      return { found: true, data: banners }
    case 'main/news':
      return { found: true, data: newsPage(Number(query.get('pageSize') ?? 10)) }
    case 'userAccount/notices':
      return { found: true, data: { list: [], total: 2, pageNum: 1, pageSize: 1, unread: 2 } }
    case 'main/getETHPrice':
      return { found: true, data: '3120.55' }
    case 'main/getETLDPrice':
      return { found: true, data: '0.11' }
    case 'main/priceHistory': {
      const symbol = query.get('symbol') ?? 'ETH'
      const price = symbol === 'ETH' ? '3120.55' : '0.11'
      const points = [{ t: 1_790_000_000, price }]
      return {
        found: true,
        data: { symbol, range: '24h', price, open24h: price, change24h: '0.00', points },
      }
    }
    default:
      return { found: false, data: null }
  }
}

/** The wallet's in-app browser: an injected provider exposing one account on Ethereum. */
function installSignedInState({
  address,
  token,
  lang,
}: {
  address: string
  token: string
  lang: string | null
}): void {
  // A returning member's browser keeps the token and the address it was issued to.
  window.localStorage.setItem('token', token)
  window.localStorage.setItem('tokenAddress', address)
  if (lang) window.localStorage.setItem('lang', lang)
  const provider = {
    request: async ({ method }: { method: string }) => {
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [address]
      if (method === 'eth_chainId') return '0x1'
      throw Object.assign(new Error(`${method} is not supported`), { code: 4200 })
    },
    on: () => provider,
    removeListener: () => provider,
  }
  Object.defineProperty(window, 'ethereum', { value: provider, configurable: true })
}

/** Resolves once no request has been in flight for QUIET_MS; rejects after SETTLE_TIMEOUT_MS. */
function networkSettled(page: Page): Promise<void> {
  const inFlight = new Set<Request>()
  let timer: NodeJS.Timeout | undefined
  return new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => {
      finish()
      reject(new Error(`the screen was still fetching after ${SETTLE_TIMEOUT_MS} ms`))
    }, SETTLE_TIMEOUT_MS)
    const arm = () => {
      clearTimeout(timer)
      if (inFlight.size === 0)
        timer = setTimeout(() => {
          finish()
          resolve()
        }, QUIET_MS)
    }
    const started = (req: Request) => {
      inFlight.add(req)
      arm()
    }
    const ended = (req: Request) => {
      inFlight.delete(req)
      arm()
    }
    const finish = () => {
      clearTimeout(timer)
      clearTimeout(deadline)
      page.off('request', started)
      page.off('requestfinished', ended)
      page.off('requestfailed', ended)
    }
    page.on('request', started)
    page.on('requestfinished', ended)
    page.on('requestfailed', ended)
    arm()
  })
}

/** Images without width/height, and images that load eagerly (the first banner may). */
async function imageProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const firstBanner = document.querySelector('[data-testid="home-banner"] img')
    const problems: string[] = []
    document.querySelectorAll('img').forEach((img, i) => {
      const name = `img #${i + 1} (${img.getAttribute('src') ?? ''})`
      if (
        !/^\d+$/.test(img.getAttribute('width') ?? '') ||
        !/^\d+$/.test(img.getAttribute('height') ?? '')
      )
        problems.push(`${name} has no width/height`)
      if (img !== firstBanner && img.getAttribute('loading') !== 'lazy')
        problems.push(`${name} is not lazy`)
    })
    return problems
  })
}

function readChunkPackages(): Record<string, string[]> {
  const file = path.join(DIST, '.vite/chunk-packages.json')
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run vite build first`)
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>
}

/** How the screen is measured: in which language, chosen how, against which server. */
export interface FirstScreenCase {
  lang: Lang
  /** `stored`: a returning user's choice; `browser`: a first visit's browser language. */
  via?: 'stored' | 'browser'
  /** A running app and a session of its (its real answers); else dist/ with the check's own. */
  server?: { baseUrl: string; token: string; address: string }
}

/** Loads the app as a signed-in user on `/` and measures what it fetched. */
export async function measureFirstScreen({
  lang,
  via = 'stored',
  server,
}: FirstScreenCase): Promise<FirstScreenReport> {
  if (!fs.existsSync(path.join(DIST, 'index.html')))
    throw new Error(`${DIST}/index.html is missing: run vite build first`)
  const chunkPackages = readChunkPackages()
  const dist = server ? { baseUrl: server.baseUrl, close: async () => {} } : await serveDist()
  const browser = await launchBrowser()
  try {
    const page = await phonePage(browser, { locale: INTL_LOCALES[lang] })
    await page.addInitScript(installSignedInState, {
      address: server?.address ?? ADDRESS,
      token: server?.token ?? TOKEN,
      lang: via === 'stored' ? lang : null,
    })
    const unanswered: string[] = []
    const apiCalls = new Map<string, string[]>()
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (!url.pathname.startsWith('/api/')) return
      // In any language: an early read in another language than the app's is a wasted one.
      const key = `${request.method()} ${url.pathname}${url.search}`
      apiCalls.set(key, [...(apiCalls.get(key) ?? []), request.headers().lan ?? ''])
    })
    if (!server)
      await page.route('**/api/**', async (route) => {
        const url = new URL(route.request().url())
        const name = url.pathname.replace(/^\/api\//, '')
        const { found, data } = apiData(name, url.searchParams)
        if (!found) unanswered.push(name)
        await route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify(
            found
              ? { code: 200, msg: 'success', data }
              : { code: 404, msg: 'not found', reason: 'not_found', data: null },
          ),
        })
      })

    const scripts = new Map<string, Promise<FetchedScript | null>>()
    page.on('response', (response) => {
      const url = new URL(response.url())
      if (url.origin !== dist.baseUrl || !/\.m?js$/.test(url.pathname)) return
      const file = url.pathname.replace(/^\//, '')
      if (scripts.has(file)) return
      scripts.set(
        file,
        response
          .body()
          .then((body) => ({
            file,
            bytes: body.length,
            gzipBytes: gzipSync(body, { level: 9 }).length,
            packages: chunkPackages[file] ?? [],
          }))
          .catch(() => null),
      )
    })

    const settled = networkSettled(page)
    // Awaited below; a time-out meanwhile must not surface as an unhandled rejection first.
    settled.catch(() => undefined)
    await page.goto(`${dist.baseUrl}/#/`)
    await page
      .getByTestId('home-page')
      .waitFor({ timeout: SETTLE_TIMEOUT_MS })
      .catch(async (error: unknown) => {
        // What the screen showed instead says why.
        const shown = await page
          .locator('body')
          .innerText()
          .catch(() => '')
        throw new Error(`${String(error)}\nthe screen showed: ${shown.slice(0, 300)}`)
      })
    await page.getByTestId('home-balance-total').waitFor({ timeout: SETTLE_TIMEOUT_MS })
    if (!server) await page.getByTestId('news-item').first().waitFor({ timeout: SETTLE_TIMEOUT_MS })
    await settled

    const files = (await Promise.all(scripts.values()))
      .filter((s): s is FetchedScript => s !== null)
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
    const totalGzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0)
    const walletChunks = files
      .filter((f) => f.packages.some((p) => WALLET_PACKAGES.includes(p)))
      .map((f) => f.file)
    const problems = await imageProblems(page)
    const duplicateApiCalls = [...apiCalls]
      .filter(([, lans]) => lans.length > 1)
      .map(([key, lans]) => `${key} (lan ${lans.join(', ')})`)
    return {
      lang,
      via,
      realAnswers: Boolean(server),
      url: '/#/',
      viewport: { width: 375, height: 812 },
      budgetBytes: BUDGET_BYTES,
      totalGzipBytes,
      files,
      walletChunks,
      imageProblems: problems,
      unansweredApiCalls: [...new Set(unanswered)],
      duplicateApiCalls,
      ok:
        totalGzipBytes <= BUDGET_BYTES &&
        walletChunks.length === 0 &&
        problems.length === 0 &&
        duplicateApiCalls.length === 0,
    }
  } finally {
    await browser.close()
    await dist.close()
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

function printReport(report: FirstScreenReport): void {
  const width = Math.max(...report.files.map((f) => f.file.length), 4)
  const language = `${report.lang}, ${report.via === 'stored' ? 'stored choice' : 'browser language'}`
  const answers = report.realAnswers ? 'real answers' : 'the check’s answers'
  console.info(
    `first screen (${report.url}, signed in, 375×812, ${language}, ${answers}): JavaScript fetched, gzip -9`,
  )
  for (const f of report.files)
    console.info(
      `  ${f.file.padEnd(width)}  ${kb(f.gzipBytes).padStart(9)}  ${f.packages.join(', ')}`,
    )
  const verdict = report.totalGzipBytes <= report.budgetBytes ? 'within' : 'OVER'
  console.info(
    `  ${'total'.padEnd(width)}  ${kb(report.totalGzipBytes).padStart(9)}  ${verdict} the budget of ${kb(report.budgetBytes)} (${report.totalGzipBytes} of ${report.budgetBytes} bytes)`,
  )
  for (const file of report.walletChunks)
    console.error(`  wallet libraries fetched on the first screen: ${file}`)
  for (const problem of report.imageProblems) console.error(`  image: ${problem}`)
  for (const call of report.duplicateApiCalls) console.error(`  sent twice: ${call}`)
  for (const call of report.unansweredApiCalls)
    console.warn(`  the check has no answer for api/${call}: add one to apiData()`)
}

async function main(): Promise<void> {
  try {
    chromiumPath()
  } catch (error) {
    console.error(
      `first-screen budget: ${(error as Error).message}.\n` +
        'The first-screen check runs in Chromium (apt-get install -y chromium).',
    )
    process.exitCode = 1
    return
  }
  const only = process.env.FIRST_SCREEN_LANG as Lang | undefined
  if (only && !LANGS.includes(only)) {
    console.error(`first-screen budget: FIRST_SCREEN_LANG must be one of ${LANGS.join(', ')}`)
    process.exitCode = 1
    return
  }
  const { FIRST_SCREEN_SERVER, FIRST_SCREEN_TOKEN, FIRST_SCREEN_ADDRESS } = process.env
  const server = FIRST_SCREEN_SERVER
    ? {
        baseUrl: FIRST_SCREEN_SERVER.replace(/\/$/, ''),
        token: FIRST_SCREEN_TOKEN ?? '',
        address: FIRST_SCREEN_ADDRESS ?? '',
      }
    : undefined
  const cases: FirstScreenCase[] = (
    only
      ? [{ lang: only }]
      : [...LANGS.map((lang) => ({ lang })), { lang: 'en' as const, via: 'browser' as const }]
  ).map((one) => ({ ...one, server }))
  fs.rmSync(path.join(DIST, 'first-screen.json'), { force: true })
  const reports: FirstScreenReport[] = []
  for (const one of cases) {
    try {
      reports.push(await measureFirstScreen(one))
    } catch (error) {
      console.error(
        `first-screen budget: could not measure the first screen (${one.lang}): ${String(error)}`,
      )
      process.exitCode = 1
      return
    }
    printReport(reports.at(-1)!)
  }
  const totalGzipBytes = Math.max(...reports.map((r) => r.totalGzipBytes))
  const summary = { budgetBytes: BUDGET_BYTES, totalGzipBytes, reports }
  fs.writeFileSync(path.join(DIST, 'first-screen.json'), `${JSON.stringify(summary, null, 2)}\n`)
  console.info('first screen per language (gzip bytes of JavaScript):')
  for (const r of reports)
    console.info(`  ${`${r.lang} (${r.via})`.padEnd(16)} ${String(r.totalGzipBytes).padStart(7)}`)
  if (reports.some((r) => !r.ok)) {
    console.error('first-screen budget: FAILED (see above)')
    process.exitCode = 1
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
