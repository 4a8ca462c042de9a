import { describe, expect, inject, test } from 'vitest'
import { api, creditUser } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi, sessionToken } from './support/journeys.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }

describe('activation journey', () => {
  const browser = useBrowser()

  test('a user activates a downline member with the wallet’s signature of that price', async () => {
    const alice = await registerThroughUi(browser())
    const bob = await registerThroughUi(browser(), alice.address)
    await creditUser(alice.address, '500')
    const { page } = alice
    // What the app sends to game/activate: once, already signed (no unsigned try first).
    const activations: URLSearchParams[] = []
    page.on('request', (req) => {
      const url = new URL(req.url())
      if (url.pathname === '/api/game/activate') activations.push(url.searchParams)
    })

    await page.goto(`${baseUrl}/#/active`)
    await page.getByTestId('screen-active').waitFor()
    await page.getByTestId('active-member-picker').click()
    await page.getByTestId('active-member-option').first().click()
    await page.getByTestId('active-level-2').click()
    await page.getByTestId('active-submit').click()
    const sheet = page.getByTestId('active-confirm-sheet')
    await sheet.waitFor()
    // The sheet says what the wallet is about to sign: the price, for whom.
    const note = await page.getByTestId('activate-sign-note').innerText()
    expect(note).toContain('300 USDT')
    expect(note).toContain(`${bob.address.slice(0, 6)}******${bob.address.slice(-6)}`)
    await screenshot(page, '41b-active-sign-note')
    await page.getByTestId('active-confirm').click()
    await page.getByTestId('active-result').waitFor()
    expect(await page.getByTestId('active-result-amount').innerText()).toContain('300')

    // The wallet signed exactly this activation, once.
    expect(alice.wallet.typedSigned).toHaveLength(1)
    const signed = JSON.parse(alice.wallet.typedSigned[0]!) as {
      message: { idempotencyKey: string }
    }
    expect(signed).toMatchObject({
      primaryType: 'Outflow',
      message: {
        action: 'activate',
        from: alice.address,
        to: bob.address,
        amount: '300',
        currency: 'USDT',
      },
    })
    expect(activations).toHaveLength(1)
    expect(activations[0]!.get('signature')).toMatch(/^0x[0-9a-f]{130}$/)
    expect(activations[0]!.get('idempotencyKey')).toBe(signed.message.idempotencyKey)

    // Bob is activated at level 2; Alice paid 300 USDT.
    const vip = await api<{ level: number }>('game/vipInfo', {}, await sessionToken(bob.page))
    expect(vip.level).toBe(2)
    await page.goto(`${baseUrl}/#/assets`)
    await expect
      .poll(() => page.getByTestId('account-balance-usdt').innerText(), POLL)
      .toContain('200')
  })
})
