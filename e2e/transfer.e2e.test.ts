import type { Page } from 'playwright-core'
import { describe, expect, inject, test } from 'vitest'
import { creditUser } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi } from './support/journeys.ts'
import { appTexts } from './support/texts.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }
const texts = (lang: string, ns: string) =>
  appTexts<Record<string, Record<string, string>>>(lang, ns)
const zh = appTexts<{ accountLog: { types: Record<string, string> } }>('zhcn', 'money')

async function firstLogItem(page: Page): Promise<string> {
  await page.goto(`${baseUrl}/#/accountLog?account=usdt`)
  await page.getByTestId('account-log-page').waitFor()
  const item = page.getByTestId('account-log-item').first()
  await item.waitFor()
  return item.innerText()
}

describe('transfer journey', () => {
  const browser = useBrowser()

  test('a user with credited USDT transfers to a downline member and both account logs show it', async () => {
    const alice = await registerThroughUi(browser())
    const bob = await registerThroughUi(browser(), alice.address)
    await creditUser(alice.address, '100')

    await alice.page.goto(`${baseUrl}/#/assets`)
    await alice.page.getByTestId('assets-page').waitFor()
    await expect
      .poll(() => alice.page.getByTestId('account-balance-usdt').innerText(), POLL)
      .toContain('100')
    await screenshot(alice.page, '10-assets')

    await alice.page.goto(`${baseUrl}/#/transfer`)
    await alice.page.getByTestId('transfer-page').waitFor()
    await alice.page.getByTestId('transfer-address-input').fill(bob.address)
    await alice.page.getByTestId('transfer-amount-input').fill('12.5')
    await alice.page.getByTestId('transfer-submit').click()
    await alice.page.getByTestId('transfer-confirm-sheet').waitFor()
    // The sheet says what the wallet is about to sign; the wallet signs exactly that.
    expect(await alice.page.getByTestId('transfer-sign-note').innerText()).toContain('12.5 USDT')
    await screenshot(alice.page, '11-transfer-confirm')
    await alice.page.getByTestId('transfer-confirm').click()
    await alice.page.getByTestId('transfer-result').waitFor()
    expect(alice.wallet.typedSigned).toHaveLength(1)
    expect(JSON.parse(alice.wallet.typedSigned[0]!)).toMatchObject({
      primaryType: 'Outflow',
      message: { action: 'transfer', to: bob.address, amount: '12.5', currency: 'USDT' },
    })
    await screenshot(alice.page, '12-transfer-result')

    const aliceItem = await firstLogItem(alice.page)
    expect(aliceItem).toContain(zh.accountLog.types.internalTransfer)
    expect(aliceItem).toMatch(/-\s?12\.5/)
    await screenshot(alice.page, '13-account-log')

    const bobItem = await firstLogItem(bob.page)
    expect(bobItem).toContain(zh.accountLog.types.internalTransfer)
    expect(bobItem).toContain('12.5')
    expect(bobItem).not.toMatch(/-\s?12\.5/)

    await bob.page.goto(`${baseUrl}/#/assets`)
    await expect
      .poll(() => bob.page.getByTestId('account-balance-usdt').innerText(), POLL)
      .toContain('12.5')
  })

  test('a withdrawal to another address is signed by the wallet, then waits for review', async () => {
    const alice = await registerThroughUi(browser())
    await creditUser(alice.address, '100')
    // Another wallet of the user's (not the platform's deposit address, which is refused).
    const elsewhere = '0x976ea74026e726554db657fa54763abd0c3a0aa9'
    await alice.page.goto(`${baseUrl}/#/withdraw`)
    await alice.page.getByTestId('withdraw-page').waitFor()
    await alice.page.getByTestId('withdraw-amount-input').fill('30')
    await alice.page.getByTestId('withdraw-address-input').fill(elsewhere)
    await alice.page.getByTestId('withdraw-submit').click()
    await alice.page.getByTestId('withdraw-sign-note').waitFor()
    await screenshot(alice.page, '13b-withdraw-sign-note')
    await alice.page.getByTestId('withdraw-confirm').click()
    await alice.page.getByTestId('withdraw-result').waitFor()
    expect(alice.wallet.typedSigned).toHaveLength(1)
    expect(JSON.parse(alice.wallet.typedSigned[0]!)).toMatchObject({
      message: { action: 'withdraw', to: elsewhere, amount: '30', currency: 'USDT' },
    })
    await alice.page.goto(`${baseUrl}/#/withdrawRecord`)
    const item = alice.page.getByTestId('withdraw-record-item').first()
    await item.waitFor()
    expect(await item.innerText()).toContain('30')
    await item.getByTestId('withdraw-record-hold').waitFor()
    // The bell: the withdrawal and its new address, unread until the notices are opened.
    await alice.page.goto(`${baseUrl}/#/`)
    const count = alice.page.getByTestId('notice-bell-count')
    await expect.poll(() => count.innerText(), POLL).toBe('2')
    await screenshot(alice.page, '13c-home-bell')
    await alice.page.getByTestId('notice-bell').click()
    await alice.page.getByTestId('notices-page').waitFor()
    await expect.poll(() => alice.page.getByTestId('notice-item').count(), POLL).toBe(2)
    const titles = await alice.page.getByTestId('notice-title').allInnerTexts()
    expect(titles.join(' ')).toContain('新提现地址')
    await screenshot(alice.page, '13d-notices')
    await alice.page.goto(`${baseUrl}/#/`)
    await expect.poll(() => count.count(), POLL).toBe(0)
  })

  test('a transfer to someone outside the downline is refused and nothing moves', async () => {
    const alice = await registerThroughUi(browser())
    const stranger = await registerThroughUi(browser())
    await creditUser(alice.address, '50')
    await alice.page.goto(`${baseUrl}/#/transfer`)
    await alice.page.getByTestId('transfer-page').waitFor()
    await alice.page.getByTestId('transfer-address-input').fill(stranger.address)
    await alice.page.getByTestId('transfer-amount-input').fill('5')
    // Refused while typing, from the server's read of the address: the sheet never opens.
    await alice.page.getByText('接收地址必须是自己共识体系的下级').first().waitFor()
    await alice.page.getByTestId('transfer-submit').click()
    expect(await alice.page.getByTestId('transfer-confirm-sheet').count()).toBe(0)
    await alice.page.goto(`${baseUrl}/#/assets`)
    await expect
      .poll(() => alice.page.getByTestId('account-balance-usdt').innerText(), POLL)
      .toContain('50')
    await stranger.page.goto(`${baseUrl}/#/assets`)
    await expect
      .poll(() => stranger.page.getByTestId('account-balance-usdt').innerText(), POLL)
      .toMatch(/^\D*0(\.0+)?\D*$/)
  })

  test('a wallet on another chain that lacks the app’s adds it, switches, signs the transfer (English)', async () => {
    const alice = await registerThroughUi(browser(), undefined, {
      locale: 'en-US',
      chainId: 56,
      quirks: { knownChains: [56] },
    })
    const bob = await registerThroughUi(browser(), alice.address)
    await creditUser(alice.address, '20')
    const en = texts('en', 'money')
    await alice.page.goto(`${baseUrl}/#/transfer`)
    await alice.page.getByRole('textbox', { name: en.transfer!.address! }).fill(bob.address)
    await alice.page.getByRole('textbox', { name: en.transfer!.amount! }).fill('3')
    await alice.page.getByRole('button', { name: en.transfer!.submit!, exact: true }).click()
    await alice.page.getByRole('button', { name: en.transfer!.confirm!, exact: true }).click()
    await alice.page.getByText(en.transfer!.success!).waitFor()
    const added = await alice.page.evaluate(
      () => (window as unknown as { __hopeAddedChains?: { chainId: string }[] }).__hopeAddedChains,
    )
    expect(added?.map((c) => c.chainId)).toEqual(['0x7a69'])
    expect(alice.wallet.typedSigned).toHaveLength(1)
    await screenshot(alice.page, '14-transfer-after-adding-chain')
  })

  test('a declined switch is said as such and nothing moves (Korean)', async () => {
    const alice = await registerThroughUi(browser(), undefined, {
      locale: 'ko-KR',
      chainId: 56,
      quirks: { refuseSwitch: true },
    })
    const bob = await registerThroughUi(browser(), alice.address)
    await creditUser(alice.address, '20')
    const ko = texts('ko', 'money')
    await alice.page.goto(`${baseUrl}/#/transfer`)
    await alice.page.getByRole('textbox', { name: ko.transfer!.address! }).fill(bob.address)
    await alice.page.getByRole('textbox', { name: ko.transfer!.amount! }).fill('3')
    await alice.page.getByRole('button', { name: ko.transfer!.submit!, exact: true }).click()
    await alice.page.getByRole('button', { name: ko.transfer!.confirm!, exact: true }).click()
    await alice.page.getByText(texts('ko', 'chain').outflow!.switchRefused!).waitFor()
    await screenshot(alice.page, '15-transfer-switch-declined-ko')
    expect(alice.wallet.typedSigned).toHaveLength(0)
    await alice.page.goto(`${baseUrl}/#/assets`)
    await expect
      .poll(() => alice.page.getByTestId('account-balance-usdt').innerText(), POLL)
      .toContain('20')
  })

  for (const [lang, locale] of [
    ['en', 'en-US'],
    ['vi', 'vi-VN'],
  ] as const)
    test(`after a pending withdrawal the account log's figure is Assets' available, named so (${lang})`, async () => {
      const alice = await registerThroughUi(browser(), undefined, { locale })
      await creditUser(alice.address, '100')
      const chain = texts(lang, 'chain').withdraw!
      const money = texts(lang, 'money')
      await alice.page.goto(`${baseUrl}/#/withdraw`)
      await alice.page.getByRole('textbox', { name: chain.amount! }).fill('30')
      await alice.page
        .getByRole('textbox', { name: chain.address! })
        .fill('0x976ea74026e726554db657fa54763abd0c3a0aa9')
      await alice.page.getByRole('button', { name: chain.submit!, exact: true }).click()
      await alice.page.getByRole('button', { name: chain.confirm!, exact: true }).click()
      await alice.page.getByText(chain.success!).waitFor()

      await alice.page.goto(`${baseUrl}/#/assets`)
      const available = alice.page.getByTestId('account-available-usdt')
      await expect.poll(() => available.innerText(), POLL).not.toBe('100')
      const availableText = await available.innerText()
      expect(await alice.page.getByTestId('account-balance-usdt').innerText()).toBe('100')
      await screenshot(alice.page, `16-assets-after-withdrawal-${lang}`)

      await alice.page.goto(`${baseUrl}/#/accountLog?account=usdt`)
      const line = alice.page.getByTestId('account-log-balance').first()
      await line.waitFor()
      expect(await line.innerText()).toBe(
        money.accountLog!.balanceAfter!.replace('{{balance}}', `${availableText} USDT`),
      )
      expect(money.accountLog!.balanceAfter!).toContain(money.assets!.available!)
      expect(money.accountLog!.balanceAfter!).not.toContain(money.assets!.balance!)
      await screenshot(alice.page, `17-account-log-after-withdrawal-${lang}`)
    })
})
