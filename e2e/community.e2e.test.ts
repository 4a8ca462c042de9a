import { describe, expect, inject, test } from 'vitest'
import { creditUser, settleDay } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi } from './support/journeys.ts'
import { appTexts } from './support/texts.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }
const money = appTexts<{ accountLog: { types: Record<string, string> } }>('zhcn', 'money')

/**
 * The settlement day after the one that holds "now" (UTC+8): every position opened so far
 * is due on it, and no other journey settles it, so this one's node reward is its own.
 */
const localTomorrow = () => new Date(Date.now() + 32 * 3_600_000).toISOString().slice(0, 10)

describe('community journey', () => {
  const browser = useBrowser()

  test('activate a member into a partition, upgrade, buy a node, see the team and the earnings, collect the node reward', async () => {
    const alice = await registerThroughUi(browser())
    const bob = await registerThroughUi(browser(), alice.address)
    await creditUser(alice.address, '2000')
    await creditUser(bob.address, '100')
    const { page } = alice

    // Alice pays Bob's level 1 and places him in the central partition.
    await page.goto(`${baseUrl}/#/active`)
    await page.getByTestId('screen-active').waitFor()
    await page.getByTestId('active-member-picker').click()
    await page.getByTestId('active-member-option').first().click()
    await page.getByTestId('active-level-1').click()
    await page.getByTestId('active-partition-2').click()
    await screenshot(page, '40-active')
    await page.getByTestId('active-submit').click()
    await page.getByTestId('active-confirm-sheet').waitFor()
    await screenshot(page, '41-active-confirm')
    await page.getByTestId('active-confirm').click()
    await page.getByTestId('active-result').waitFor()
    expect(await page.getByTestId('active-result').innerText()).toContain('100')

    // Her own level 2 costs its whole price: she had none.
    await page.goto(`${baseUrl}/#/vip`)
    await page.getByTestId('screen-vip').waitFor()
    await page.getByTestId('vip-upgrade-2').waitFor()
    await screenshot(page, '42-vip')
    await page.getByTestId('vip-upgrade-2').click()
    await page.getByTestId('vip-confirm-sheet').waitFor()
    await screenshot(page, '42-vip-confirm-sheet')
    await page.getByTestId('vip-confirm').click()
    await page.getByTestId('vip-result').waitFor()
    expect(await page.getByTestId('vip-result-paid').innerText()).toContain('300')
    expect(await page.getByTestId('vip-result-hope').innerText()).toMatch(/[1-9]/)
    await screenshot(page, '43-vip-result')

    // A shareholder node for 1,000 USDT.
    await page.goto(`${baseUrl}/#/holder`)
    await page.getByTestId('screen-holder').waitFor()
    await page.getByTestId('node-buy-1').click()
    await page.getByTestId('node-confirm-sheet').waitFor()
    await page.getByTestId('node-confirm').click()
    await page.getByTestId('node-result').waitFor()
    expect(await page.getByTestId('node-result').innerText()).toContain('1,000')
    await expect.poll(() => page.getByTestId('node-buy-1').count(), POLL).toBe(0)
    await screenshot(page, '44-holder')

    // Both purchases bought HOPE into the split account.
    await page.goto(`${baseUrl}/#/split`)
    await page.getByTestId('screen-split').waitFor()
    await expect.poll(() => page.getByTestId('split-total').innerText(), POLL).toMatch(/[1-9]/)
    await expect.poll(() => page.getByTestId('split-log-item').count(), POLL).toBe(2)
    await screenshot(page, '47-split')

    // Bob stakes 100 USDT.
    await bob.page.goto(`${baseUrl}/#/stake`)
    await bob.page.getByTestId('screen-stake').waitFor()
    await expect
      .poll(() => bob.page.getByTestId('stake-available').innerText(), POLL)
      .toContain('100')
    await bob.page.getByTestId('stake-amount-input').fill('100')
    await bob.page.getByTestId('stake-submit').click()
    await bob.page.getByTestId('stake-confirm').click()
    await bob.page.getByTestId('stake-result').waitFor()

    // Alice's team: Bob in the central partition with his 100 USDT of consensus.
    await page.goto(`${baseUrl}/#/team`)
    await page.getByTestId('screen-team').waitFor()
    await expect.poll(() => page.getByTestId('team-people').innerText(), POLL).toBe('1')
    const central = page.getByTestId('team-partition-2')
    expect(await central.getByTestId('team-partition-people').innerText()).toBe('1')
    expect(await central.getByTestId('team-partition-consensus').innerText()).toContain('100')
    expect(
      await page.getByTestId('team-partition-1').getByTestId('team-partition-people').innerText(),
    ).toBe('0')
    expect(await page.getByTestId('team-member-address').first().innerText()).toContain(
      bob.address.slice(2, 6),
    )
    await screenshot(page, '45-team')

    const run = await settleDay(localTomorrow())
    expect(run.status).toBe('done')

    // The node reward paid by the settlement shows among today's earnings …
    await page.goto(`${baseUrl}/#/community`)
    await page.getByTestId('screen-community').waitFor()
    const nodeReward = page.getByTestId('earning-10')
    await nodeReward.waitFor()
    await expect
      .poll(() => nodeReward.getByTestId('earning-today').innerText(), POLL)
      .toMatch(/[1-9]/)
    await screenshot(page, '46-community')

    // … and Alice collects it into her USDT account.
    await page.goto(`${baseUrl}/#/holder`)
    await page.getByTestId('screen-holder').waitFor()
    await expect
      .poll(() => page.getByTestId('holder-account-node').innerText(), POLL)
      .toMatch(/[1-9]/)
    await page.getByTestId('holder-collect-node').click()
    await page.getByTestId('collect-all').click()
    await page.getByTestId('collect-submit').click()
    await page.getByTestId('collect-confirm').click()
    await expect
      .poll(() => page.getByTestId('holder-account-node').innerText(), POLL)
      .not.toMatch(/[1-9]/)

    await page.goto(`${baseUrl}/#/accountLog?account=usdt`)
    await page.getByTestId('account-log-page').waitFor()
    const item = page.getByTestId('account-log-item').first()
    await item.waitFor()
    expect(await item.innerText()).toContain(money.accountLog.types.internalTransfer)
  })
})
