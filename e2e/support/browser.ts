import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'

/** Debian's Chromium, with the flags that keep it off the network and quiet. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
]

export function chromiumPath(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ].filter(Boolean) as string[]
  const found = candidates.find((p) => fs.existsSync(p))
  if (!found)
    throw new Error('Chromium is missing: apt-get install -y chromium (or set CHROMIUM_PATH)')
  return found
}

/** Each launch gets a fresh temporary profile from playwright. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true })
}

/** A phone-sized page (375×812) with a fresh context. */
export async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  })
  return context.newPage()
}

const shotsDir = process.env.SCREENSHOT_DIR

/** Where screenshots go when SCREENSHOT_DIR is set (to look at the screens), else null. */
export function screenshotDir(): string | null {
  if (!shotsDir) return null
  fs.mkdirSync(shotsDir, { recursive: true })
  return shotsDir
}

/** Saves `<name>.png` of the page under SCREENSHOT_DIR when it is set. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = screenshotDir()
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`) })
}

/** One Chromium for a file's tests: launched before them, closed after them. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll')
    return browser
  }
}
