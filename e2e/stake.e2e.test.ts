import { describe, expect, inject, test } from 'vitest'
import { creditUser, settleDay } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi } from './support/journeys.ts'
import { appTexts } from './support/texts.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }
const money = appTexts<{ accountLog: { types: Record<string, string> } }>('zhcn', 'money')
const game = appTexts<{ exchange: { problems: { amountRequired: string } } }>('zhcn', 'game')

/** The settlement day that holds "now" in the default settlement time zone (UTC+8). */
const localToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10)

describe('stake journey', () => {
  const browser = useBrowser()

  test('stake 100 USDT, the day settles, the consensus reward shows in the log, redeem it into a pledge', async () => {
    const user = await registerThroughUi(browser())
    const { page } = user
    await creditUser(user.address, '150')

    await page.goto(`${baseUrl}/#/stake`)
    await page.getByTestId('screen-stake').waitFor()
    await expect.poll(() => page.getByTestId('stake-available').innerText(), POLL).toContain('150')
    // 50 USDT is below the minimum: said while typing, with no HOPE estimate.
    await page.getByTestId('stake-amount-input').fill('50')
    await page.getByTestId('stake-problem').waitFor()
    expect(await page.getByTestId('stake-estimate').count()).toBe(0)
    await page.getByTestId('stake-problem').scrollIntoViewIfNeeded()
    await screenshot(page, '29-stake-below-minimum')
    await page.getByTestId('stake-amount-input').fill('100')
    await page.getByTestId('stake-submit').click()
    await page.getByTestId('stake-confirm-sheet').waitFor()
    await screenshot(page, '30-stake-confirm')
    await page.getByTestId('stake-confirm').click()
    await page.getByTestId('stake-result').waitFor()
    expect(await page.getByTestId('stake-result-amount').innerText()).toContain('100')
    await screenshot(page, '31-stake-result')
    await page.getByTestId('stake-again').click()
    await expect.poll(() => page.getByTestId('stake-position').count(), POLL).toBe(1)
    await expect.poll(() => page.getByTestId('stake-available').innerText(), POLL).toContain('50')

    const run = await settleDay(localToday())
    expect(run.status).toBe('done')
    expect(run.positions).toBeGreaterThanOrEqual(1)

    await page.goto(`${baseUrl}/#/accountLog?account=community`)
    await page.getByTestId('account-log-page').waitFor()
    const item = page.getByTestId('account-log-item').first()
    await item.waitFor()
    expect(await item.innerText()).toContain(money.accountLog.types.consensusRightsReward)
    await screenshot(page, '32-community-log')

    await page.goto(`${baseUrl}/#/exchange`)
    await page.getByTestId('exchange-page').waitFor()
    await page.getByTestId('exchange-submit').click()
    await page.getByText(game.exchange.problems.amountRequired).first().waitFor()
    await expect
      .poll(() => page.getByTestId('exchange-available').innerText(), POLL)
      .toMatch(/[1-9]/)
    await page.getByTestId('exchange-all').click()
    await page.getByTestId('exchange-net').waitFor()
    await screenshot(page, '33-exchange-form')
    await page.getByTestId('exchange-submit').click()
    await page.getByTestId('exchange-confirm-sheet').waitFor()
    await screenshot(page, '33-exchange-confirm')
    await page.getByTestId('exchange-confirm').click()
    await page.getByTestId('exchange-result').waitFor()
    await screenshot(page, '34-exchange-result')

    // The result leads to the pledges; the same record names the consensus position too.
    await page.getByTestId('exchange-result-pledges').click()
    await page.getByTestId('pledge-record-page').waitFor()
    await expect.poll(() => page.getByTestId('pledge-item').count(), POLL).toBe(1)
    expect(await page.getByTestId('pledge-item-amount').innerText()).toMatch(/[1-9]/)
    await screenshot(page, '35-pledge-record')
    await page.getByTestId('pledge-tab-positions').click()
    await expect.poll(() => page.getByTestId('stake-position').count(), POLL).toBe(1)
    expect(await page.getByTestId('stake-position-principal').innerText()).toBe('100 USDT')
    await screenshot(page, '35-pledge-record-positions')

    // Assets counts the staked and the pledged HOPE beside the accounts, without a reload.
    await page.goto(`${baseUrl}/#/assets`)
    await page.getByTestId('account-card-held-hope').waitFor()
    expect(await page.getByTestId('assets-staked-hope').innerText()).toMatch(/[1-9]/)
    expect(await page.getByTestId('assets-pledged-hope').innerText()).toMatch(/[1-9]/)
    await page.getByTestId('account-card-held-hope').scrollIntoViewIfNeeded()
    await screenshot(page, '36-assets-staked-pledged')
  })
})
