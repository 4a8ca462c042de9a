import type { Browser, Page } from 'playwright-core'
import { inject } from 'vitest'
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import { phonePage } from './browser.ts'
import { installWallet, type TestWallet, type WalletQuirks } from './wallet.ts'

export const ROOT_CODE = 'HOPE2026'
export const ROOT_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

export interface SignedInUser {
  page: Page
  wallet: TestWallet
  account: LocalAccount
  address: string
}

/**
 * A wallet registers through the invite page (under `inviter`, or with the root code) and lands
 * on home. With `onChain` the wallet is connected to the app's local chain.
 */
export async function registerThroughUi(
  browser: Browser,
  inviter?: string,
  opts: {
    account?: LocalAccount
    onChain?: boolean
    others?: LocalAccount[]
    locale?: string
    /** The wallet's chain (on the local chain's RPC); 31337 with `onChain`, else 1. */
    chainId?: number
    quirks?: WalletQuirks
  } = {},
): Promise<SignedInUser> {
  const page = await phonePage(browser, opts.locale ? { locale: opts.locale } : {})
  const account = opts.account ?? privateKeyToAccount(generatePrivateKey())
  const wallet = opts.onChain
    ? await installWallet(
        page,
        account,
        opts.chainId ?? 31337,
        inject('chainRpcUrl'),
        opts.others,
        opts.quirks,
      )
    : await installWallet(page, account, opts.chainId ?? 1, undefined, opts.others, opts.quirks)
  const baseUrl = inject('baseUrl')
  if (inviter) {
    await page.goto(`${baseUrl}/#/invite?pusername=${inviter}`)
    await page.getByTestId('invite-page').waitFor()
    await page.getByTestId('inviter').waitFor()
  } else {
    await page.goto(`${baseUrl}/`)
    await page.getByTestId('invite-page').waitFor()
    await page.locator('[data-testid="invitation-code-input"] input').fill(ROOT_CODE)
  }
  await page.getByTestId('register-button').click()
  await page.getByTestId('home-page').waitFor()
  return { page, wallet, account, address: account.address.toLowerCase() }
}

/** The session token the app keeps for the signed-in user of `page`. */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => window.localStorage.getItem('token'))
  if (!token) throw new Error('the page has no session token')
  return token
}
