import type { Page } from 'playwright-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, inject, test } from 'vitest'
import { phonePage, screenshot, useBrowser } from './support/browser.ts'
import { installWallet } from './support/wallet.ts'
import { appTexts } from './support/texts.ts'

const baseUrl = inject('baseUrl')
const ROOT_CODE = 'HOPE2026'
const ROOT_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

const locale = (lang: string) =>
  appTexts<{ tabs: Record<'home' | 'assets' | 'stake' | 'community', string> }>(lang, 'translation')

interface SeenRequest {
  url: string
  lan: string | undefined
  token: string | undefined
}

function recordApiCalls(page: Page): SeenRequest[] {
  const seen: SeenRequest[] = []
  page.on('request', (req) => {
    if (!req.url().includes('/api/')) return
    const headers = req.headers()
    seen.push({ url: req.url(), lan: headers.lan, token: headers.token })
  })
  return seen
}

async function tabTitles(page: Page): Promise<string[]> {
  const bar = page.getByTestId('tab-bar')
  await bar.waitFor()
  return (await bar.innerText())
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
}

describe('sign-in journey', () => {
  const browser = useBrowser()

  test('an unregistered wallet registers with the invitation code, stays signed in, and switches to English', async () => {
    const page = await phonePage(browser())
    const wallet = await installWallet(page, privateKeyToAccount(generatePrivateKey()))
    const calls = recordApiCalls(page)

    // The production policy runs inline scripts by their hashes only; none of the shell's is
    // refused, and the wallet's provider (injected as the in-app browsers do) still works.
    const refused: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text())
    })
    const response = await page.goto(`${baseUrl}/`)
    const policy = response?.headers()['content-security-policy'] ?? ''
    const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1] ?? ''
    expect(scriptSrc).not.toContain("'unsafe-inline'")
    expect(scriptSrc).toMatch(/'sha256-/)
    expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin-allow-popups')

    await page.getByTestId('invite-page').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await screenshot(page, '01-invite')
    expect(refused).toEqual([])

    const codeInput = page.locator(
      '[data-testid="invitation-code-input"] input, input[data-testid="invitation-code-input"]',
    )
    await codeInput.fill(ROOT_CODE)
    await page.getByTestId('register-button').click()

    await page.getByTestId('home-page').waitFor()
    const zh = locale('zhcn').tabs
    expect(await tabTitles(page)).toEqual([zh.home, zh.assets, zh.stake, zh.community])
    expect(wallet.signCalls).toBe(1)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const register = calls.find((c) => c.url.includes('/api/user/register'))
    expect(new URL(register!.url).searchParams.get('invitationCode')).toBe(ROOT_CODE)
    expect(register!.lan).toBe('zh_CN')
    await screenshot(page, '02-home')

    // A reload keeps the user signed in without asking the wallet again.
    await page.reload()
    await page.getByTestId('home-page').waitFor()
    await page.getByTestId('tab-bar').waitFor()
    expect(wallet.signCalls).toBe(1)

    // English from the account page: tab titles and the lan header follow.
    await page.goto(`${baseUrl}/#/account`)
    await page.getByTestId('account-page').waitFor()
    await page.getByTestId('lang-switch').click()
    await page.getByTestId('lang-option-en').click()
    await screenshot(page, '03-account-en')
    await page.goto(`${baseUrl}/#/`)
    const en = locale('en').tabs
    await expect.poll(() => tabTitles(page)).toEqual([en.home, en.assets, en.stake, en.community])
    const before = calls.length
    await page.reload()
    await page.getByTestId('home-page').waitFor()
    await expect.poll(() => calls.length).toBeGreaterThan(before)
    expect(calls.slice(before).every((c) => c.lan === 'en_US')).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('en')
    await screenshot(page, '04-home-en')
    await page.context().close()
  })

  test('an invitation link names the inviter, and the new user lands under that inviter', async () => {
    const page = await phonePage(browser())
    const account = privateKeyToAccount(generatePrivateKey())
    await installWallet(page, account)
    await page.goto(`${baseUrl}/#/invite?pusername=${ROOT_ADDRESS}`)
    await page.getByTestId('invite-page').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('pusername'))).toBe(ROOT_ADDRESS)
    await page.getByTestId('register-button').click()
    await page.getByTestId('home-page').waitFor()
    const token = await page.evaluate(() => localStorage.getItem('token'))
    const res = await fetch(`${baseUrl}/api/user/getUserInfo`, {
      method: 'POST',
      headers: { token: token! },
    })
    const body = (await res.json()) as {
      code: number
      data: { userName: string; invitationLink: string }
    }
    expect(body.code).toBe(200)
    expect(body.data.userName).toBe(account.address.toLowerCase())
    await page.context().close()
  })

  test('a registered wallet on a new device signs in once and lands on home', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const first = await phonePage(browser())
    await installWallet(first, account)
    await first.goto(`${baseUrl}/#/invite?pusername=${ROOT_ADDRESS}`)
    await first.getByTestId('register-button').click()
    await first.getByTestId('home-page').waitFor()
    await first.context().close()

    const page = await phonePage(browser())
    const wallet = await installWallet(page, account)
    await page.goto(`${baseUrl}/`)
    await page.getByTestId('home-page').waitFor()
    await page.getByTestId('tab-bar').waitFor()
    expect(wallet.signCalls).toBe(1)
    await page.context().close()
  })
})
