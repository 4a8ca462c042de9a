import { describe, expect, inject, test } from 'vitest'
import { api, creditUser } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi, sessionToken } from './support/journeys.ts'
import { appTexts } from './support/texts.ts'

/**
 * What the user hears of and sees on home: a cancelled withdrawal gets its own notice in the
 * bell, and a node bought shows beside the level.
 */

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }
const texts = (lang: string, ns: string) => appTexts(lang, ns)
const LANGS = [
  ['en', 'en-US'],
  ['ja', 'ja-JP'],
] as const

describe('notices and home', () => {
  const browser = useBrowser()

  for (const [lang, locale] of LANGS)
    test(`a cancelled withdrawal is said in the bell (${lang})`, async () => {
      const alice = await registerThroughUi(browser(), undefined, { locale })
      await creditUser(alice.address, '100')
      const token = await sessionToken(alice.page)
      // A withdrawal to a new address waits before review: the user may cancel it.
      const withdrawal = await api<{ id: number }>(
        'userAccount/withdraw',
        { amount: '20', idempotencyKey: `cancel-${lang}-${Date.now()}` },
        token,
      )
      const records = (texts(lang, 'chain').records ?? {}) as Record<string, string>
      await alice.page.goto(`${baseUrl}/#/withdrawRecord`)
      await alice.page.getByRole('button', { name: records.cancel, exact: true }).click()
      await alice.page
        .getByRole('dialog')
        .getByRole('button', { name: records.cancel, exact: true })
        .click()
      await alice.page.getByText(records.canceled!).first().waitFor()

      const kinds = (texts(lang, 'notices').notices as { kinds: Record<string, { title: string }> })
        .kinds
      await alice.page.goto(`${baseUrl}/#/notices`)
      await alice.page
        .getByRole('heading', { name: kinds.withdrawal_cancelled!.title, exact: true })
        .waitFor()
      const titles = await alice.page.getByRole('heading', { level: 2 }).allInnerTexts()
      expect(titles[0]).toBe(kinds.withdrawal_cancelled!.title)
      expect(titles).toContain(kinds.withdrawal_requested!.title)
      expect(withdrawal.id).toBeGreaterThan(0)
      await screenshot(alice.page, `notices-cancelled-${lang}`)
    })

  for (const [lang, locale] of LANGS)
    test(`home shows the node bought beside the level (${lang})`, async () => {
      const carol = await registerThroughUi(browser(), undefined, { locale })
      await creditUser(carol.address, '5000')
      const token = await sessionToken(carol.page)
      await api('game/buyNode', { type: '1', idempotencyKey: `node-${lang}-${Date.now()}` }, token)
      await carol.page.goto(`${baseUrl}/#/`)
      await carol.page.reload()
      const names = (texts(lang, 'holder').nodeTypes ?? {}) as Record<string, string>
      const card = carol.page.getByTestId('user-card')
      await expect.poll(() => card.innerText(), POLL).toContain(names.shareholder)
      await screenshot(carol.page, `home-node-${lang}`)
    })
})
