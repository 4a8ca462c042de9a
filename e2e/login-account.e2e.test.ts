import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, inject, test } from 'vitest'
import { api } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi, sessionToken } from './support/journeys.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }

describe('login by account', () => {
  const browser = useBrowser()

  test('a wallet with two registered addresses signs in with the one chosen, and keeps it', async () => {
    const second = privateKeyToAccount(generatePrivateKey())
    await registerThroughUi(browser(), undefined, { account: second })
    const user = await registerThroughUi(browser(), undefined, { others: [second] })
    const { page, wallet } = user
    const first = await api<{ userName: string }>('user/getUserInfo', {}, await sessionToken(page))
    expect(first.userName).toBe(user.address)

    await page.goto(`${baseUrl}/#/loginAccount`)
    await page.getByTestId('screen-login-account').waitFor()
    const items = page.getByTestId('login-account-item')
    await expect.poll(() => items.count(), POLL).toBe(2)
    expect(await items.nth(0).getAttribute('data-current')).toBe('true')
    expect(await items.nth(1).getAttribute('data-address')).toBe(second.address.toLowerCase())
    await expect
      .poll(() => items.nth(1).getByTestId('login-account-status').innerText(), POLL)
      .toBe('已注册')
    await screenshot(page, '55-login-account')

    const signsBefore = wallet.signCalls
    await items.nth(1).click()
    await page.getByRole('button', { name: '切换' }).click()
    await page.getByTestId('home-page').waitFor()
    await expect.poll(() => wallet.signCalls, POLL).toBe(signsBefore + 1)
    await expect
      .poll(() => page.evaluate(() => window.localStorage.getItem('token')), POLL)
      .not.toBeNull()
    const now = await api<{ userName: string }>('user/getUserInfo', {}, await sessionToken(page))
    expect(now.userName).toBe(second.address.toLowerCase())

    // Opening the app again stays on the chosen address without another signature.
    await page.reload()
    await page.getByTestId('home-page').waitFor()
    expect(wallet.signCalls).toBe(signsBefore + 1)
    const again = await api<{ userName: string }>('user/getUserInfo', {}, await sessionToken(page))
    expect(again.userName).toBe(second.address.toLowerCase())
  })
})
