import { describe, expect, inject, test } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { creditUser } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { phonePage } from './support/chromium.ts'
import { registerThroughUi } from './support/journeys.ts'
import { appTexts } from './support/texts.ts'
import { installWallet } from './support/wallet.ts'

/**
 * The forms as a user meets them, in English and Korean: one decimal rule, Escape closing a
 * confirmation, an invitation code checked before the wallet signs.
 */

const baseUrl = inject('baseUrl')
const texts = (lang: string, ns: string) => appTexts(lang, ns)
const LANGS = [
  ['en', 'en-US'],
  ['ko', 'ko-KR'],
] as const

describe('forms', () => {
  const browser = useBrowser()

  for (const [lang, locale] of LANGS)
    test(`a mistyped invitation code is said before the wallet signs (${lang})`, async () => {
      const page = await phonePage(browser(), { locale })
      const wallet = await installWallet(page, privateKeyToAccount(generatePrivateKey()))
      await page.goto(`${baseUrl}/`)
      const invite = texts(lang, 'invite') as unknown as Record<string, string>
      await page.getByRole('textbox', { name: invite.codeLabel }).fill('NOPE0000')
      await page.getByRole('button', { name: invite.register }).click()
      await page.locator('.adm-toast-main').waitFor()
      await screenshot(page, `forms-code-refused-${lang}`)
      expect(wallet.signCalls).toBe(0)
      await page.context().close()
    })

  for (const [lang, locale] of LANGS)
    test(`every amount takes six decimals at most; Escape closes the confirmation (${lang})`, async () => {
      const alice = await registerThroughUi(browser(), undefined, { locale })
      const bob = await registerThroughUi(browser(), alice.address)
      await creditUser(alice.address, '50')
      await creditUser(alice.address, '100', 'community')
      const money = texts(lang, 'money') as unknown as {
        flow: { amount: Record<string, string> }
        transfer: Record<string, string>
      }
      const game = texts(lang, 'game') as unknown as { exchange: Record<string, string> }
      const sixAtMost = money.flow.amount.tooManyDecimals!.replace('{{decimals}}', '6')

      // The HOPE exchange says the same as every other form.
      await alice.page.goto(`${baseUrl}/#/exchange`)
      await alice.page.getByRole('textbox', { name: game.exchange.amount }).fill('1.1234567')
      await alice.page.getByText(sixAtMost).waitFor()
      await screenshot(alice.page, `forms-exchange-decimals-${lang}`)

      await alice.page.goto(`${baseUrl}/#/transfer`)
      await alice.page.getByRole('textbox', { name: money.transfer.address }).fill(bob.address)
      const amount = alice.page.getByRole('textbox', { name: money.transfer.amount })
      await amount.fill('1.1234567')
      await alice.page.getByText(sixAtMost).waitFor()
      await amount.fill('1.5')
      await alice.page.getByRole('button', { name: money.transfer.submit, exact: true }).click()
      const title = alice.page.getByRole('heading', { name: money.transfer.confirmTitle })
      await title.waitFor()
      await alice.page.keyboard.press('Escape')
      await title.waitFor({ state: 'hidden' })
      expect(alice.wallet.typedSigned).toHaveLength(0)
    })
})
