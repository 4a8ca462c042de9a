import type { Page } from 'playwright-core'
import { describe, expect, inject, test } from 'vitest'
import { TOTP_STEP_SECONDS } from '../apps/server/src/lib/totp.ts'
import { api, creditUser, totpCode } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi, sessionToken } from './support/journeys.ts'
import type { E2eOperator } from './support/global-setup.ts'
import { consoleTexts } from './support/texts.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }
/** A payout is mined within seconds and completes at 12 confirmations of a second each. */
const CHAIN_WAIT = { timeout: 60_000, interval: 500 }

/**
 * Signs in on the console's login form as an operator would, typing the code their
 * authenticator shows. A code works once: when it was spent already, the next one is typed.
 */
async function consoleLogin(page: Page, op: E2eOperator): Promise<void> {
  await page.goto(`${baseUrl}/admin/`)
  await page.getByTestId('admin-login-username').fill(op.username)
  await page.getByTestId('admin-login-password').fill(op.password)
  for (let attempt = 1; ; attempt++) {
    await page.getByTestId('admin-login-code').fill(totpCode(op.totpSecret))
    await page.getByTestId('admin-login-submit').click()
    const outcome = await Promise.race([
      page
        .getByTestId('admin-operator')
        .waitFor()
        .then(() => 'in' as const),
      page
        .getByTestId('admin-login-error')
        .waitFor()
        .then(() => 'refused' as const),
    ])
    if (outcome === 'in') return
    if (attempt >= 2) throw new Error('the console refused the operator twice')
    const stepMs = TOTP_STEP_SECONDS * 1000
    await page.waitForTimeout(stepMs - (Date.now() % stepMs) + 200)
  }
}

/** The session the console keeps for its tab. */
const consoleToken = async (page: Page) =>
  page.evaluate(
    () =>
      (JSON.parse(window.sessionStorage.getItem('hope.admin.session')!) as { token: string }).token,
  )

describe('operator console', () => {
  const browser = useBrowser()

  test('an operator edits the withdrawal fee and approves a withdrawal the user then sees passed', async () => {
    const admin = inject('adminOperator')
    const desk = await (
      await browser().newContext({ viewport: { width: 1366, height: 860 } })
    ).newPage()

    // Sign-in needs the password and the authenticator's code: a wrong code is refused.
    await desk.goto(`${baseUrl}/admin/`)
    await desk.getByTestId('admin-login-username').fill(admin.username)
    await desk.getByTestId('admin-login-password').fill(admin.password)
    const wrong = totpCode(admin.totpSecret, Date.now() + 10 * TOTP_STEP_SECONDS * 1000)
    await desk.getByTestId('admin-login-code').fill(wrong)
    await desk.getByTestId('admin-login-submit').click()
    await desk.getByTestId('admin-login-error').waitFor()
    await consoleLogin(desk, admin)
    expect(await desk.getByTestId('admin-role').innerText()).not.toBe('')
    await screenshot(desk, '70-console-dashboard')

    // The fixed withdrawal fee goes from 1 to 2.5 USDT.
    await desk.getByTestId('admin-menu-settings').click()
    await desk.getByTestId('admin-setting-edit-withdrawFeeFixedUsdt').click()
    await desk.getByTestId('admin-setting-value').fill('"2.5"')
    await desk.getByTestId('admin-setting-reason').fill('chain gas went up')
    await desk.getByTestId('admin-setting-save').click()
    await desk.getByTestId('admin-setting-value').waitFor({ state: 'detached' })
    await screenshot(desk, '71-console-settings')

    try {
      // The user's withdraw screen charges the new fee, and the withdrawal records it.
      const user = await registerThroughUi(browser())
      await creditUser(user.address, '50')
      const { page } = user
      await page.goto(`${baseUrl}/#/withdraw`)
      await page.getByTestId('withdraw-page').waitFor()
      await expect
        .poll(() => page.getByTestId('withdraw-available').innerText(), POLL)
        .toContain('50')
      await page.getByTestId('withdraw-amount-input').fill('20')
      await expect.poll(() => page.getByTestId('withdraw-fee').innerText(), POLL).toContain('2.5')
      expect(await page.getByTestId('withdraw-total').innerText()).toContain('22.5')
      await page.getByTestId('withdraw-submit').click()
      expect(await page.getByTestId('withdraw-confirm-fee').innerText()).toContain('2.5')
      await page.getByTestId('withdraw-confirm').click()
      await page.getByTestId('withdraw-result').waitFor()
      const token = await sessionToken(page)
      const mine = await api<{ list: { id: number; status: number; fee: string }[] }>(
        'userAccount/myWithDraw',
        {},
        token,
      )
      const withdrawal = mine.list[0]!
      expect([withdrawal.status, withdrawal.fee]).toEqual([0, '2.5'])

      await page.goto(`${baseUrl}/#/withdrawRecord`)
      const status = page.getByTestId('withdraw-record-status').first()
      await expect.poll(() => status.innerText(), POLL).toBe('待审核')

      // The operator finds it in the queue and approves it.
      await desk.getByTestId('admin-menu-withdrawals').click()
      await desk.getByTestId(`admin-withdrawal-approve-${withdrawal.id}`).click()
      await desk.getByTestId('admin-withdrawal-confirm').click()
      await desk
        .getByTestId(`admin-withdrawal-approve-${withdrawal.id}`)
        .waitFor({ state: 'detached' })
      await screenshot(desk, '72-console-withdrawals')

      // The user's record leaves review: passed, then paid on chain.
      await page.reload()
      await expect
        .poll(async () => {
          await page.reload()
          return status.innerText()
        }, POLL)
        .toMatch(/^(审核通过|已确认|已完成)$/)
      await screenshot(page, '73-withdraw-record-passed')
      await expect
        .poll(
          async () =>
            (await api<{ list: { status: number }[] }>('userAccount/myWithDraw', {}, token))
              .list[0]!.status,
          CHAIN_WAIT,
        )
        .toBe(2)
      await page.reload()
      await expect.poll(() => status.innerText(), POLL).toBe('已完成')
      await page.context().close()
    } finally {
      // The fee goes back for the journeys that follow.
      await api(
        'admin/updateSetting',
        { key: 'withdrawFeeFixedUsdt', value: '"1"', reason: 'back to the default' },
        await consoleToken(desk),
      )
    }
    await desk.context().close()
  })

  test('the console follows an English browser and explains its settings and refusals', async () => {
    const en = consoleTexts<{
      menu: Record<string, string>
      settings: {
        meta: Record<string, { label: string; help: string }>
        why: Record<string, string>
      }
      reserves: Record<string, string>
    }>('en')
    const desk = await (
      await browser().newContext({ viewport: { width: 1366, height: 860 }, locale: 'en-US' })
    ).newPage()
    await consoleLogin(desk, inject('adminOperator'))
    // An English browser, no choice made yet: the console speaks English.
    expect(await desk.getByTestId('admin-menu-settings').innerText()).toBe(en.menu.settings)

    await desk.getByTestId('admin-menu-settings').click()
    const fee = en.settings.meta.withdrawFeeRate!
    const row = desk.getByRole('row').filter({ hasText: fee.label })
    await expect.poll(() => row.innerText(), POLL).toContain(fee.help)
    expect(await row.innerText()).toContain('0 – 1')
    await screenshot(desk, '75-console-settings-explained')

    // A value out of range is refused with why, before the server is asked.
    await row.getByRole('button', { name: 'Edit' }).click()
    const value = desk.getByRole('textbox', { name: 'Value' })
    await value.fill('"1.5"')
    await desk.getByTestId('admin-setting-reason').fill('too high on purpose')
    await desk.getByRole('button', { name: 'Save' }).click()
    await desk.getByText(en.settings.why.aboveMax!.replace('{{max}}', '1')).waitFor()
    await screenshot(desk, '76-console-setting-refused')
    await desk.getByRole('button', { name: 'Cancel' }).click()

    // Publish now is taken (the registry's interval decides when the snapshot follows; the list
    // asking again until it shows is the page's unit test).
    await desk.getByTestId('admin-menu-reserves').click()
    await desk.getByRole('button', { name: en.reserves.publish }).click()
    await desk.getByTestId('admin-reserves-confirm').click()
    await desk
      .getByText(new RegExp(`${en.reserves.requested}|${en.reserves.alreadyRequested}`))
      .waitFor()
    await screenshot(desk, '77-console-reserves-after-publish')
  })
})
