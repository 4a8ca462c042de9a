import fs from 'node:fs'
import path from 'node:path'
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, inject, test } from 'vitest'
import { screenshot, screenshotDir, useBrowser } from './support/browser.ts'
import { registerThroughUi } from './support/journeys.ts'

const baseUrl = inject('baseUrl')
/** jsqr is a CommonJS module: its default import is `module.exports`, typed as the namespace. */
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ??
  jsQRModule) as unknown as typeof jsQRModule.default

/** The text of the QR code in a PNG data URL, or null when none is found. */
function readQr(dataUrl: string): string | null {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null
}

describe('invite friends', () => {
  const browser = useBrowser()

  test('the event poster is a PNG whose QR code opens my invitation link', async () => {
    const alice = await registerThroughUi(browser())
    const { page } = alice
    await page.goto(`${baseUrl}/#/share`)
    await page.getByTestId('screen-share').waitFor()
    const link = await page.getByTestId('share-link').innerText()
    expect(link).toBe(`${baseUrl}/#/invite?pusername=${alice.address}`)
    expect(await page.getByTestId('share-code').innerText()).toMatch(/^[A-Z0-9]{4,}$/)
    const qr = await page.getByTestId('share-qr').getAttribute('src')
    expect(readQr(qr!)).toBe(link)
    await screenshot(page, '50-share')

    await page.getByTestId('share-poster-make').click()
    const poster = page.getByTestId('share-poster')
    await poster.waitFor()
    const src = (await poster.getAttribute('src'))!
    expect(src.startsWith('data:image/png;base64,')).toBe(true)
    const png = PNG.sync.read(Buffer.from(src.split(',')[1]!, 'base64'))
    expect([png.width, png.height]).toEqual([750, 1334])
    expect(readQr(src)).toBe(link)
    await poster.scrollIntoViewIfNeeded()
    await screenshot(page, '51-share-poster')
    const dir = screenshotDir()
    if (dir) fs.writeFileSync(path.join(dir, '52-poster.png'), PNG.sync.write(png))

    // A friend opening the link lands on the invite page with Alice named as the inviter.
    await registerThroughUi(browser(), alice.address)
    await alice.page.goto(`${baseUrl}/#/team`)
    await alice.page.getByTestId('team-member').first().waitFor()
    expect(await alice.page.getByTestId('team-direct').innerText()).toBe('1')
  })
})
