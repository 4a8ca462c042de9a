import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchBrowser } from './chromium.ts'

export { CHROMIUM_ARGS, chromiumPath, launchBrowser, phonePage } from './chromium.ts'

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
