// Debian's Chromium for the browser journeys, the first-screen budget check and the bench.
// No test runner here: plain scripts import it too.
import fs from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'

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
  // A Chinese browser, whatever the machine's locale: the app follows the browser's language
  // on a first visit, and the journeys start in its default. A context's `locale` overrides it.
  '--accept-lang=zh-CN',
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

/** A phone-sized page (375×812) with a fresh context, in a browser set to `locale` if given. */
export async function phonePage(browser: Browser, opts: { locale?: string } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    ...(opts.locale ? { locale: opts.locale } : {}),
  })
  return context.newPage()
}
