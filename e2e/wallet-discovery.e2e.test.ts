import type { Page } from 'playwright-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, inject, test } from 'vitest'
import { phonePage, screenshot, useBrowser } from './support/browser.ts'
import { ROOT_CODE } from './support/journeys.ts'
import { installWallet, type WalletQuirks } from './support/wallet.ts'

const baseUrl = inject('baseUrl')

describe('every wallet finds the app', () => {
  const browser = useBrowser()

  /** Opens the app with a new wallet that has `quirks`. */
  async function openWith(quirks: WalletQuirks) {
    const page = await phonePage(browser())
    const wallet = await installWallet(
      page,
      privateKeyToAccount(generatePrivateKey()),
      1,
      undefined,
      [],
      quirks,
    )
    await page.goto(`${baseUrl}/`)
    return { page, wallet }
  }

  /** Registers with the root code on the invite page and lands on home. */
  async function registerOn(page: Page) {
    await page.getByTestId('invite-page').waitFor()
    await page.locator('[data-testid="invitation-code-input"] input').fill(ROOT_CODE)
    await page.getByTestId('register-button').click()
    await page.getByTestId('home-page').waitFor()
  }

  test('a wallet that only announces itself through EIP-6963 signs up and in', async () => {
    const { page, wallet } = await openWith({ announceOnly6963: true })
    expect(await page.evaluate(() => 'ethereum' in window)).toBe(false)
    await registerOn(page)
    expect(wallet.signCalls).toBe(1)
    await page.reload()
    await page.getByTestId('home-page').waitFor()
    expect(wallet.signCalls).toBe(1)
    await page.context().close()
  })

  test('a wallet injected after the wait leaves "No wallet found" on its own', async () => {
    const { page, wallet } = await openWith({ injectAfterMs: 5000 })
    await page.getByTestId('guard-no-wallet').waitFor()
    await page.getByTestId('no-wallet-help').waitFor()
    await screenshot(page, '61-no-wallet')
    await registerOn(page)
    expect(wallet.signCalls).toBe(1)
    await page.context().close()
  })

  test('without any wallet the page offers its link, wallet apps and a language switch', async () => {
    const page = await phonePage(browser())
    await page.goto(`${baseUrl}/#/invite?pusername=0xabc`)
    await page.getByTestId('no-wallet-help').waitFor()
    const metamask = await page.getByTestId('open-in-metamask').getAttribute('href')
    expect(metamask).toMatch(
      /^https:\/\/link\.metamask\.io\/dapp\/[^/]+\/#\/invite\?pusername=0xabc$/,
    )
    const trust = await page.getByTestId('open-in-trust').getAttribute('href')
    expect(new URL(trust!).searchParams.get('url')).toBe(`${baseUrl}/#/invite?pusername=0xabc`)
    await page.getByTestId('lang-select').selectOption('en')
    await page.getByText('No wallet found').waitFor()
    await screenshot(page, '62-no-wallet-en')
    // On a phone the QR code comes when asked for, for another device's wallet to scan.
    expect(await page.getByTestId('no-wallet-qr').count()).toBe(0)
    await page.getByTestId('no-wallet-show-qr').click()
    await page.getByTestId('no-wallet-qr').waitFor()
    await screenshot(page, '63-no-wallet-qr')
    await page.context().close()
  })
})
