import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { createPublicClient, erc20Abi, http, type Address } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { describe, expect, inject, test } from 'vitest'
import { api, operator } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi, sessionToken } from './support/journeys.ts'

const baseUrl = inject('baseUrl')
/** Deposits wait for 12 blocks of a second each, payouts too. */
const CHAIN_WAIT = { timeout: 60_000, interval: 500 }
describe('recharge and withdraw on the local chain', () => {
  const browser = useBrowser()

  test('recharge 100 USDT from the wallet, then withdraw 20 approved by an operator', async () => {
    // Anvil's public development account 3 holds test USDT on the app's chain.
    const account = mnemonicToAccount(
      'test test test test test test test test test test test junk',
      { addressIndex: 3 },
    )
    const user = await registerThroughUi(browser(), undefined, { account, onChain: true })
    const chain = createPublicClient({ transport: http(inject('chainRpcUrl')) })
    const { tokenAddress } = await api<{ tokenAddress: Address }>(
      'userAccount/getAddress',
      {},
      await sessionToken(user.page),
    )
    const onChain = () =>
      chain.readContract({
        address: tokenAddress,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account.address],
      })
    const walletBefore = await onChain()

    await user.page.goto(`${baseUrl}/#/recharge`)
    await user.page.getByTestId('recharge-page').waitFor()
    await user.page.getByTestId('recharge-amount-input').fill('100')
    await user.page.getByTestId('recharge-submit').click()
    await user.page.getByTestId('recharge-confirm-sheet').waitFor()
    await screenshot(user.page, '19-recharge-confirm')
    await user.page.getByTestId('recharge-confirm').click()
    await user.page.getByTestId('recharge-status').waitFor()
    await screenshot(user.page, '20-recharge-on-chain')
    expect(user.wallet.sentTransactions).toHaveLength(1)
    await expect.poll(onChain, CHAIN_WAIT).toBe(walletBefore - 100_000_000n)

    await user.page.goto(`${baseUrl}/#/assets`)
    await expect
      .poll(async () => {
        await user.page.reload()
        await user.page.getByTestId('assets-page').waitFor()
        return user.page.getByTestId('account-balance-usdt').innerText()
      }, CHAIN_WAIT)
      .toContain('100')

    await user.page.goto(`${baseUrl}/#/withdraw`)
    await user.page.getByTestId('withdraw-page').waitFor()
    await user.page.getByTestId('withdraw-amount-input').fill('20')
    await user.page.getByTestId('withdraw-submit').click()
    await user.page.getByTestId('withdraw-confirm').click()
    await user.page.getByTestId('withdraw-result').waitFor()
    await screenshot(user.page, '21-withdraw-result')

    const token = await sessionToken(user.page)
    const mine = await api<{ list: { id: number; status: number }[] }>(
      'userAccount/myWithDraw',
      {},
      token,
    )
    expect(mine.list[0]!.status).toBe(0)
    // The account log holds the withdrawal from its request on: processing, then paid out
    // (the screen asks again while a line is pending).
    await user.page.goto(`${baseUrl}/#/accountLog?account=usdt&logType=1`)
    const withdrawalLine = async () => {
      const line = user.page.getByTestId('account-log-item').first()
      await line.waitFor()
      return {
        status: await line.getAttribute('data-status'),
        amount: await line.getByTestId('account-log-amount').innerText(),
      }
    }
    expect(await withdrawalLine()).toEqual({ status: 'pending', amount: '-20 USDT' })
    const operatorToken = await operator()
    await api(
      'admin/reviewWithdraw',
      { id: String(mine.list[0]!.id), decision: 'approve' },
      operatorToken,
    )

    await expect
      .poll(
        async () =>
          (await api<{ list: { status: number }[] }>('userAccount/myWithDraw', {}, token)).list[0]!
            .status,
        CHAIN_WAIT,
      )
      .toBe(2)
    await expect.poll(onChain, CHAIN_WAIT).toBe(walletBefore - 100_000_000n + 20_000_000n)
    await expect.poll(withdrawalLine, CHAIN_WAIT).toEqual({ status: 'done', amount: '-20 USDT' })
    await user.page.goto(`${baseUrl}/#/withdrawRecord`)
    await user.page.getByTestId('withdraw-record-item').first().waitFor()
    await screenshot(user.page, '22-withdraw-record')
    await user.page.context().close()
  })

  test('after the journeys the ledger verifies and the chain reconciles with the books', () => {
    const repo = path.resolve(import.meta.dirname, '..')
    for (const script of [
      'apps/server/scripts/ledger-verify.ts',
      'apps/server/scripts/chain-reconcile.ts',
    ]) {
      const run = spawnSync(process.execPath, [path.join(repo, script)], {
        env: { ...process.env, DATA_DIR: inject('dataDir') },
        encoding: 'utf8',
      })
      expect(run.stderr + run.stdout).toMatch(/ledger OK|reconciliation clean/)
      expect(run.status).toBe(0)
    }
  })
})
