import { describe, expect, test } from 'vitest'
import { api, operator } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi } from './support/journeys.ts'

describe('prices', () => {
  const browser = useBrowser()

  test('the home shows the ETH and HOPE prices the server answers, and both ways lead to quotes', async () => {
    await api('admin/setEthPrice', { price: '3120.55', reason: 'e2e price' }, await operator())
    const hopePrice = await api<string>('main/getETLDPrice', {})
    const { page } = await registerThroughUi(browser())

    const eth = page.getByTestId('home-price-ETH').getByTestId('home-price-value')
    await expect.poll(() => eth.textContent()).toBe('3,120.55 USD')
    const hope = await page
      .getByTestId('home-price-HOPE')
      .getByTestId('home-price-value')
      .textContent()
    expect(hope).toMatch(/ USDT$/)
    expect(Number(hope!.replace(/[ ,A-Z]/g, ''))).toBeCloseTo(Number(hopePrice), 4)
    await screenshot(page, '05-home-prices')

    await page.getByTestId('home-prices').click()
    await page.getByTestId('screen-quotes').waitFor()
    await expect
      .poll(() => page.getByTestId('quote-ETH').getByTestId('quote-price').textContent())
      .toBe('3,120.55')
    await page.goBack()
    await page.getByTestId('home-page').waitFor()

    await page.getByTestId('home-menu-quotes').click()
    await page.getByTestId('screen-quotes').waitFor()
    await page.context().close()
  })
})
