import { describe, expect, inject, test } from 'vitest'
import { creditUser } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi } from './support/journeys.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }

describe('one money flow', () => {
  const browser = useBrowser()

  test('"-5" cannot be entered as a recharge, and the user is told why', async () => {
    const user = await registerThroughUi(browser())
    await user.page.goto(`${baseUrl}/#/recharge`)
    await user.page.getByTestId('recharge-page').waitFor()
    await user.page.getByTestId('recharge-amount-input').fill('-5')
    const reason = user.page.getByTestId('recharge-amount-problem')
    await reason.waitFor()
    expect(await reason.innerText()).toBe('数量不能为负数，请去掉减号')
    await screenshot(user.page, '60-recharge-refused')
    await user.page.getByTestId('recharge-submit').click()
    expect(await user.page.getByTestId('recharge-confirm-sheet').count()).toBe(0)
    expect(user.wallet.sentTransactions).toHaveLength(0)
  })

  test('"1,000" in English transfers one thousand', async () => {
    const alice = await registerThroughUi(browser())
    const bob = await registerThroughUi(browser(), alice.address)
    await creditUser(alice.address, '1500')
    await alice.page.evaluate(() => localStorage.setItem('lang', 'en'))
    await alice.page.goto(`${baseUrl}/#/transfer`)
    await alice.page.reload()
    await alice.page.getByTestId('transfer-page').waitFor()
    await alice.page.getByTestId('transfer-address-input').fill(bob.address)
    await alice.page.getByTestId('transfer-amount-input').fill('1,000')
    await alice.page.getByTestId('transfer-submit').click()
    await alice.page.getByTestId('transfer-confirm-sheet').waitFor()
    expect(await alice.page.getByTestId('transfer-confirm-amount').innerText()).toBe('1,000 USDT')
    await screenshot(alice.page, '61-transfer-en-confirm')
    await alice.page.getByTestId('transfer-confirm').click()
    await alice.page.getByTestId('transfer-result').waitFor()
    expect(await alice.page.getByTestId('transfer-result-amount').innerText()).toBe('1,000 USDT')
    await expect
      .poll(() => alice.page.getByTestId('transfer-result-balance').innerText(), POLL)
      .toMatch(/^USDT.*[0-9][0-9,.]* USDT$/)
    await screenshot(alice.page, '62-transfer-en-result')
  })

  test('an address outside the downline is refused before the sheet opens', async () => {
    const alice = await registerThroughUi(browser())
    const stranger = await registerThroughUi(browser())
    await creditUser(alice.address, '50')
    await alice.page.goto(`${baseUrl}/#/transfer`)
    await alice.page.getByTestId('transfer-page').waitFor()
    await alice.page.getByTestId('transfer-address-input').fill(stranger.address)
    await alice.page.getByTestId('transfer-amount-input').fill('5')
    const problem = alice.page.getByTestId('transfer-problem')
    await problem.waitFor()
    expect(await problem.innerText()).toBe('接收地址必须是自己共识体系的下级')
    await alice.page.getByTestId('transfer-address-input').fill(alice.address)
    await expect.poll(() => problem.innerText(), POLL).toBe('这是你自己的地址')
    await screenshot(alice.page, '63-transfer-self-refused')
    await alice.page.getByTestId('transfer-submit').click()
    expect(await alice.page.getByTestId('transfer-confirm-sheet').count()).toBe(0)
  })

  test('the node sheet shows the shortfall and the way to recharge', async () => {
    const user = await registerThroughUi(browser())
    await creditUser(user.address, '100')
    await user.page.goto(`${baseUrl}/#/holder`)
    await user.page.getByTestId('screen-holder').waitFor()
    await user.page.getByTestId('node-buy-1').click()
    await user.page.getByTestId('node-confirm-sheet').waitFor()
    await expect
      .poll(() => user.page.getByTestId('node-shortfall').innerText(), POLL)
      .toBe('还差 900 USDT。')
    await screenshot(user.page, '64-node-shortfall')
    await user.page.getByTestId('node-go-recharge').click()
    await user.page.getByTestId('recharge-page').waitFor()
  })
})
