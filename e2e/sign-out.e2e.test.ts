import { describe, expect, inject, test } from 'vitest'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi } from './support/journeys.ts'

const baseUrl = inject('baseUrl')

describe('sign out', () => {
  const browser = useBrowser()

  test('a signed-out user stays signed out, also after a reload, until they sign in', async () => {
    const { page, wallet } = await registerThroughUi(browser())
    expect(wallet.signCalls).toBe(1)

    await page.goto(`${baseUrl}/#/account`)
    await page.getByTestId('account-page').waitFor()
    await page.getByTestId('logout-button').click()
    await page.locator('.adm-dialog').getByRole('button', { name: '退出登录' }).click()

    // A sign-in starts by asking the server for the message to sign: none may be asked once
    // signed out. Checked after the page's traffic has settled, not after a fixed wait.
    const asked: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/user/loginMessage')) asked.push(request.url())
    })
    const signedOut = page.getByTestId('guard-signed-out')
    await signedOut.waitFor()
    await page.waitForLoadState('networkidle')
    expect(asked).toEqual([])
    expect(wallet.signCalls).toBe(1)
    expect(await signedOut.isVisible()).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await screenshot(page, '60-signed-out')

    await page.reload({ waitUntil: 'networkidle' })
    await signedOut.waitFor()
    await page.waitForLoadState('networkidle')
    expect(asked).toEqual([])
    expect(wallet.signCalls).toBe(1)

    await signedOut.getByRole('button', { name: '登录' }).click()
    await page.getByTestId('home-page').waitFor()
    expect(wallet.signCalls).toBe(2)
    expect(await page.evaluate(() => localStorage.getItem('signedOut'))).toBeNull()

    // Signed in again: a reload keeps the session without another signature.
    await page.reload()
    await page.getByTestId('home-page').waitFor()
    expect(wallet.signCalls).toBe(2)
    await page.context().close()
  })
})
