import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import type { RouteObject } from 'react-router'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { NewsItem, Page as ListPage, SchoolItem } from '../packages/api/src/index.ts'
import { api, creditUser } from './support/api.ts'
import { screenshot, screenshotDir, useBrowser } from './support/browser.ts'
import { registerThroughUi, type SignedInUser } from './support/journeys.ts'

/**
 * Every screen of the router, in every language at phone width and in Chinese at desktop width,
 * checked for what a user would see as broken: a page wider than the window, cut text, a layer
 * outside the 750 px column, a raw translation key, an error, a screen that opens scrolled.
 */

const baseUrl = inject('baseUrl')
const LANGS = ['zhcn', 'en', 'ko', 'ja', 'th', 'vi'] as const
type Lang = (typeof LANGS)[number]
const PHONE = { width: 375, height: 812 }
const DESKTOP = { width: 1280, height: 800 }
const COLUMN_PX = 750
const SETTLE_TIMEOUT_MS = 5000
const QUIET_MS = 150

const webSrc = path.resolve(import.meta.dirname, '../apps/web/src')

/** The router's own route table: a screen added there is checked here without a word more. */
async function routerPaths(): Promise<string[]> {
  const routerModule = path.join(webSrc, 'app/router.tsx')
  const { routes } = (await import(routerModule)) as { routes: RouteObject[] }
  const paths: string[] = []
  const walk = (list: RouteObject[]) => {
    for (const route of list) {
      if (route.path && route.path !== '*') paths.push(route.path)
      if (route.children) walk(route.children)
    }
  }
  walk(routes)
  return paths
}

/** Every key path of the web texts (`titles.assets`): shown as such, a text is missing. */
function translationKeys(): string[] {
  const keys = new Set<string>()
  const dir = path.join(webSrc, 'locales/zhcn')
  const walk = (value: unknown, prefix: string) => {
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}.${k}` : k)
    } else if (prefix.includes('.')) keys.add(prefix)
  }
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')))
    walk(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), '')
  return [...keys]
}

/** Requests under way, and the errors and failed requests since the last `take`. */
function watch(page: Page) {
  let inFlight = 0
  let lastChange = Date.now()
  let problems: string[] = []
  const origin = new URL(baseUrl).origin
  page.on('request', () => {
    inFlight += 1
    lastChange = Date.now()
  })
  const done = () => {
    inFlight = Math.max(0, inFlight - 1)
    lastChange = Date.now()
  }
  page.on('requestfinished', done)
  page.on('requestfailed', (request) => {
    done()
    const failure = request.failure()?.errorText ?? ''
    // A read the app cancels when the user moves on is no failure.
    if (!failure.includes('ERR_ABORTED'))
      problems.push(`request failed: ${request.url()} ${failure}`)
  })
  page.on('response', (response) => {
    if (response.status() >= 400 && response.url().startsWith(origin))
      problems.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  // The browser's complaints about the server's headers (an unknown Permissions-Policy feature).
  page.on('console', (message) => {
    if (/Unrecognized feature|Permissions-Policy|Content Security Policy/i.test(message.text()))
      problems.push(`console: ${message.text()}`)
  })
  return {
    quiet: () => inFlight === 0 && Date.now() - lastChange >= QUIET_MS,
    take: () => {
      const taken = problems
      problems = []
      return taken
    },
  }
}

/** Notes in the page when its DOM last changed (see `settle`). */
function noteChanges() {
  const note = () => ((window as unknown as { lastChange: number }).lastChange = performance.now())
  note()
  new MutationObserver(note).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
  })
}

/**
 * Waits until the screen has settled: no request under way, the DOM unchanged for a moment,
 * no skeleton, the fonts loaded.
 */
async function settle(page: Page, network: ReturnType<typeof watch>): Promise<boolean> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS
  while (Date.now() < deadline) {
    const loading = await page.evaluate(
      (quietMs) =>
        document.fonts.status !== 'loaded' ||
        document.querySelector('.adm-skeleton, .guard-ring') !== null ||
        // the screen of the address on show (navigation is a transition: the old one stays a while)
        document.querySelector('main')?.dataset.screen !==
          window.location.hash.slice(1).split('?')[0] ||
        performance.now() - (window as unknown as { lastChange: number }).lastChange < quietMs,
      QUIET_MS,
    )
    if (!loading && network.quiet()) return true
    await page.waitForTimeout(40)
  }
  return false
}

/**
 * What is wrong with the screen as drawn, in words. Runs in the page: everything it uses is
 * declared inside.
 */
function audit({
  keys,
  columnPx,
  desktop,
}: {
  keys: string[]
  columnPx: number
  desktop: boolean
}) {
  const problems: string[] = []
  const doc = document.documentElement
  const label = (el: Element) => {
    const id = el.getAttribute('data-testid')
    const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : ''
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
    return `<${el.tagName.toLowerCase()}${id ? ` ${id}` : ''}${cls ? ` .${cls}` : ''}> "${text}"`
  }
  const shown = (el: Element) => {
    const style = getComputedStyle(el)
    if (style.visibility === 'hidden' || style.display === 'none') return false
    const rect = el.getBoundingClientRect()
    return rect.width > 0 && rect.height > 0
  }
  type Box = { left: number; right: number; top: number; bottom: number }
  /** The padding box of `el`: what it shows of its content when it clips. */
  const inner = (el: Element): Box => {
    const box = el.getBoundingClientRect()
    const left = box.left + el.clientLeft
    const top = box.top + el.clientTop
    return { left, right: left + el.clientWidth, top, bottom: top + el.clientHeight }
  }
  const clips = (s: CSSStyleDeclaration) => [s.overflowX, s.overflowY].some((o) => o !== 'visible')
  const scrolls = (s: CSSStyleDeclaration) =>
    [s.overflowX, s.overflowY].some((o) => o === 'auto' || o === 'scroll')
  /** What of `el` can be seen through the boxes around it that clip, or null for nothing. */
  const seenPart = (el: Element): Box | null => {
    const r = el.getBoundingClientRect()
    let box: Box = { left: r.left, right: r.right, top: r.top, bottom: r.bottom }
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (!clips(getComputedStyle(up))) continue
      const c = inner(up)
      box = {
        left: Math.max(box.left, c.left),
        right: Math.min(box.right, c.right),
        top: Math.max(box.top, c.top),
        bottom: Math.min(box.bottom, c.bottom),
      }
      if (box.right - box.left < 1 || box.bottom - box.top < 1) return null
    }
    return box
  }

  if (doc.scrollWidth > doc.clientWidth + 1)
    problems.push(`overflows horizontally: ${doc.scrollWidth} > ${doc.clientWidth}`)

  // Layers: whatever is fixed or absolute shows inside the column.
  const column = document.getElementById('root')!.getBoundingClientRect()
  if (column.width > columnPx + 0.5) problems.push(`column ${column.width} px wide`)
  const rootFont = parseFloat(getComputedStyle(doc).fontSize)
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el)
    if (style.position !== 'fixed' && style.position !== 'absolute') continue
    if (!shown(el) || Number(style.opacity) === 0) continue
    const part = seenPart(el)
    if (part && (part.left < column.left - 1 || part.right > column.right + 1))
      problems.push(
        `layer outside the column (${Math.round(part.left)}–${Math.round(part.right)} of ${Math.round(column.left)}–${Math.round(column.right)}): ${label(el)}`,
      )
  }

  // Text: every text node, with the box that clips it (if any).
  const canvas = document.createElement('canvas').getContext('2d')!
  const measure = (style: CSSStyleDeclaration, text: string) => {
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
    return canvas.measureText(text)
  }
  interface Run {
    node: Text
    el: HTMLElement
    style: CSSStyleDeclaration
    clip: Element | null
    scroller: Element | null
    clamped: boolean
  }
  const runs: Run[] = []
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement
    if (!node.textContent?.trim() || !el || !shown(el)) continue
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION'].includes(el.tagName)) continue
    let clip: Element | null = null
    let scroller: Element | null = null
    let clamped = false
    for (let up: Element | null = el; up && up !== document.body; up = up.parentElement) {
      const s = getComputedStyle(up)
      if (s.webkitLineClamp && s.webkitLineClamp !== 'none') clamped = true
      if (!clips(s)) continue
      if (scrolls(s)) scroller = up
      else clip = up
      break
    }
    runs.push({ node: node as Text, el, style: getComputedStyle(el), clip, scroller, clamped })
  }

  const reported = new Set<Element>()
  const report = (el: Element, what: string) => {
    if (reported.has(el)) return
    reported.add(el)
    problems.push(`${what}: ${label(el)}`)
  }
  for (const { el, style } of runs) {
    if (desktop && parseFloat(style.fontSize) / rootFont < 0.55)
      report(el, `text off the rem scale (${style.fontSize} at ${rootFont}px rem)`)
    const wider = style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1
    if (!wider) continue
    if (style.textOverflow !== 'ellipsis')
      report(el, `text wider than its box (${el.scrollWidth} > ${el.clientWidth})`)
    else if (/\*{3}/.test(el.textContent ?? ''))
      report(el, 'masked value cut by an ellipsis (it is short already)')
  }

  // Where each clipped run's first and last baselines are: a zero-size probe at each end.
  const probed = runs
    .filter((run) => run.clip || run.scroller)
    .map((run) => {
      const wrap = document.createElement('span')
      const first = document.createElement('span')
      const last = document.createElement('span')
      for (const probe of [first, last])
        probe.style.cssText = 'display:inline-block;width:0;height:0;vertical-align:baseline'
      run.node.before(wrap)
      wrap.append(first, run.node, last)
      return { run, wrap, first, last }
    })
  const checks = probed.map(({ run, first, last }) => ({
    run,
    firstBaseline: first.getBoundingClientRect().bottom,
    lastBaseline: last.getBoundingClientRect().bottom,
    lines: (() => {
      const range = document.createRange()
      range.selectNodeContents(run.node)
      return [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0)
    })(),
  }))
  for (const { run, wrap } of probed) {
    wrap.before(run.node)
    wrap.remove()
  }
  for (const { run, firstBaseline, lastBaseline, lines } of checks) {
    const { el, style, clip, scroller, clamped } = run
    const box = inner((clip ?? scroller)!)
    const visibleLines = lines.filter(
      (l) => l.right > box.left && l.left < box.right && l.bottom > box.top && l.top < box.bottom,
    )
    if (visibleLines.length === 0) continue // a slide or a clamped line out of view on purpose
    const cutAtSide = visibleLines.some((l) => l.right > box.right + 1 || l.left < box.left - 1)
    if (scroller) {
      // A row that scrolls sideways shows that it does: its edge fades (a mask), or nothing is cut.
      const fades = getComputedStyle(scroller).maskImage !== 'none'
      if (cutAtSide && !fades) report(el, 'text cut at the edge of a scrolling row')
      continue
    }
    if (cutAtSide && style.textOverflow !== 'ellipsis') report(el, 'text cut at the side')
    const ink = measure(style, run.node.textContent!.trim())
    const inkTop = firstBaseline - ink.actualBoundingBoxAscent
    const inkBottom = lastBaseline + ink.actualBoundingBoxDescent
    if (inkTop < box.top - 1 || (!clamped && inkBottom > box.bottom + 1))
      report(
        el,
        `glyphs cut (ink ${Math.round(inkTop)}–${Math.round(inkBottom)}, box ${Math.round(box.top)}–${Math.round(box.bottom)})`,
      )
  }

  // Text laid over a picture stays inside it: a long headline must not run off the picture.
  const pictures = [...document.querySelectorAll('img')].filter(shown)
  for (const { el } of runs) {
    const t = el.getBoundingClientRect()
    const under = pictures.find((img) => {
      const p = img.getBoundingClientRect()
      return t.left < p.right && t.right > p.left && t.top < p.bottom && t.bottom > p.top
    })
    if (!under || el.contains(under)) continue
    const p = seenPart(under) ?? under.getBoundingClientRect()
    if (
      t.top < p.top - 1 ||
      t.bottom > p.bottom + 1 ||
      t.left < p.left - 1 ||
      t.right > p.right + 1
    )
      report(el, 'text runs off the picture it is laid over')
  }

  // Words a label keeps whole (Thai marks them): none is split across lines.
  for (const word of document.querySelectorAll<HTMLElement>('.word'))
    if (shown(word) && word.getClientRects().length > 1) report(word, 'a word split across lines')

  // Placeholders: the hint fits its field.
  for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
    if (input.value || !input.placeholder || !shown(input)) continue
    const own = getComputedStyle(input)
    const room = input.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight)
    const width = measure(getComputedStyle(input, '::placeholder'), input.placeholder).width
    if (width > room + 1)
      problems.push(
        `placeholder cut (${Math.round(width)} > ${Math.round(room)}): "${input.placeholder}"`,
      )
  }

  // Raw keys: a text shown as its key path (a known key, or one under a known group).
  const keySet = new Set(keys)
  const groups = new Set(keys.map((k) => k.split('.')[0]))
  const texts = [
    document.body.innerText,
    ...[...document.querySelectorAll('[placeholder], [aria-label]')].map(
      (el) => `${el.getAttribute('placeholder') ?? ''} ${el.getAttribute('aria-label') ?? ''}`,
    ),
  ].join('\n')
  for (const [token] of texts.matchAll(/[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+/g))
    if (keySet.has(token) || groups.has(token.split('.')[0]!))
      problems.push(`raw translation key: ${token}`)
  return problems
}

interface Pass {
  lang: Lang
  viewport: { width: number; height: number }
}

const PASSES: Pass[] = [
  ...LANGS.map((lang) => ({ lang, viewport: PHONE })),
  ...LANGS.map((lang) => ({ lang, viewport: DESKTOP })),
]

describe('every route', () => {
  const browser = useBrowser()
  let user: SignedInUser
  let network: ReturnType<typeof watch>
  let paths: string[]
  const keys = translationKeys()

  beforeAll(async () => {
    paths = await routerPaths()
    user = await registerThroughUi(browser(), undefined, { onChain: true })
    await creditUser(user.address, '500')
    await creditUser(user.address, '120', 'community')
    const news = await api<ListPage<NewsItem>>('main/news', { pageNum: '1', pageSize: '1' })
    const school = await api<ListPage<SchoolItem>>('main/school', { pageNum: '1', pageSize: '1' })
    const ids: Record<string, string | undefined> = {
      '/news/:id': String(news.list[0]?.id ?? ''),
      '/school/:id': String(school.list[0]?.id ?? ''),
    }
    paths = paths.map((p) => {
      if (!p.includes(':')) return p
      const id = ids[p]
      if (!id) throw new Error(`no seeded id for ${p}`)
      return p.replace(/:\w+/, id)
    })
    network = watch(user.page)
    await user.page.addInitScript(noteChanges)
  })

  afterAll(async () => {
    await user?.page.context().close()
  })

  test('the router has its screens', () => {
    expect(paths.length).toBeGreaterThan(20)
  })

  for (const { lang, viewport } of PASSES) {
    const desktop = viewport.width > COLUMN_PX
    test(`${lang} at ${viewport.width}×${viewport.height}`, async () => {
      const { page } = user
      await page.setViewportSize(viewport)
      await page.evaluate((l) => localStorage.setItem('lang', l), lang)
      await page.goto(`${baseUrl}/#/`)
      await page.reload()
      await settle(page, network)
      network.take()
      const problems: string[] = []
      for (const route of paths) {
        // Leave the previous screen scrolled down: the next one still opens at its top.
        await page.evaluate((hash) => {
          if (window.location.hash === hash) return
          window.scrollTo(0, document.documentElement.scrollHeight)
          window.location.hash = hash
        }, `#${route}`)
        const settled = await settle(page, network)
        const found = await page.evaluate(audit, { keys, columnPx: COLUMN_PX, desktop })
        if (!settled) found.push(`still loading after ${SETTLE_TIMEOUT_MS / 1000} s`)
        const scrollY = await page.evaluate(() => window.scrollY)
        if (scrollY !== 0) found.push(`opens scrolled to y=${scrollY}`)
        found.push(...network.take())
        problems.push(...found.map((p) => `${route}: ${p}`))
        const name = `routes-${viewport.width}-${lang}${route.replace(/\//g, '-')}`
        const dir = screenshotDir()
        if (dir)
          await page.screenshot({
            path: path.join(dir, `${name.replace(/-$/, '-home')}.png`),
            fullPage: true,
          })
      }
      expect(problems).toEqual([])
    })
  }

  test('sheets, dialogs and toasts stay in the column on the rem scale at 1280×800', async () => {
    const { page } = user
    await page.setViewportSize(DESKTOP)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: baseUrl,
    })
    await page.evaluate(() => localStorage.setItem('lang', 'zhcn'))
    await page.goto(`${baseUrl}/#/account`)
    await page.reload()
    await page.getByTestId('account-page').waitFor()
    await settle(page, network)
    const check = async (name: string) => {
      await page.waitForTimeout(400) // the opening animation
      const found = await page.evaluate(audit, { keys, columnPx: COLUMN_PX, desktop: true })
      await screenshot(page, `routes-1280-layer-${name}`)
      return [...found, ...network.take()].map((p) => `${name}: ${p}`)
    }
    const problems: string[] = []

    await page.getByTestId('lang-switch').click()
    await page.locator('.adm-popup-body').waitFor()
    problems.push(...(await check('sheet')))
    await page.mouse.click(DESKTOP.width / 2, 40)
    await page.locator('.adm-popup-body').waitFor({ state: 'hidden' })

    await page.getByTestId('logout-button').click()
    const dialog = page.locator('.adm-dialog-body')
    await dialog.waitFor()
    problems.push(...(await check('dialog')))
    await dialog.locator('.adm-dialog-button').first().click()
    await dialog.waitFor({ state: 'hidden' })

    await page.getByRole('button', { name: '复制' }).first().click()
    await page.locator('.adm-toast-main').waitFor()
    problems.push(...(await check('toast')))
    expect(problems).toEqual([])
  })

  test('the page lets users zoom, describes itself, and robots get their own file', async () => {
    const shell = await (await fetch(`${baseUrl}/`)).text()
    const viewport = shell.match(/<meta\s+name="viewport"\s+content="([^"]*)"/)?.[1] ?? ''
    expect(viewport).toContain('width=device-width')
    expect(viewport).not.toMatch(/user-scalable\s*=\s*no|maximum-scale\s*=\s*1\b/)
    expect(shell).toMatch(/<meta\s+name="description"\s+content="[^"]{20,}"/)
    const robots = await fetch(`${baseUrl}/robots.txt`)
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await robots.text()).toMatch(/^User-agent: \*/m)
  })

  test('a screen opened from a link starts at the top; back returns to where the user was', async () => {
    const { page } = user
    await page.setViewportSize(PHONE)
    await page.goto(`${baseUrl}/#/`)
    await page.reload()
    await page.getByTestId('home-page').waitFor()
    await settle(page, network)
    // Scrolled down to the latest news, the user opens one.
    const item = page.getByTestId('news-item').first()
    await item.scrollIntoViewIfNeeded()
    const where = await page.evaluate(() => window.scrollY)
    expect(where).toBeGreaterThan(0)
    await item.click()
    await page.waitForURL(/#\/news\/\d+/)
    await settle(page, network)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    await page.goBack()
    await page.getByTestId('home-page').waitFor()
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(where)
    expect(network.take()).toEqual([])
  })
})
