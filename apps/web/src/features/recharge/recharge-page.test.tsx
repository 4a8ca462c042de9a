import type { Recharge } from '@hope/api'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok, type ApiCall, type Reply } from '../../test/fake-api.ts'
import {
  createFakeChainWallet,
  FAKE_TX_HASH,
  installChainWallet,
  rpcError,
  type FakeChainWallet,
} from '../../test/fake-chain-wallet.ts'
import { rechargeStatusOptions, RECHARGE_POLL_MS } from './api/recharge.ts'
import { RechargePage } from './recharge-page.tsx'
import { depositAddress, TOKEN } from '../../../test-support/fixtures.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const recharge = (changes: Partial<Recharge> = {}): Recharge => ({
  txHash: FAKE_TX_HASH,
  amount: null,
  status: 'on_chain',
  confirmations: 2,
  confirmationsRequired: 12,
  createdAt: '2026-03-01T08:30:00Z',
  ...changes,
})

function Where() {
  const { pathname } = useLocation()
  return <p data-testid="where">{pathname}</p>
}

/** A wallet on the deposit chain with 500 USDT and some gas, signed in as its address. */
function setup(
  opts: {
    wallet?: Partial<Pick<FakeChainWallet, 'chainId' | 'nativeBalance'>>
    tokenBalance?: bigint
    getAddress?: () => Reply
    recharge?: (call: ApiCall) => Reply
  } = {},
) {
  const wallet = createFakeChainWallet({
    chainId: '0x7a69',
    token: TOKEN,
    tokenBalance: opts.tokenBalance ?? 500_000000n,
  })
  Object.assign(wallet, opts.wallet)
  installChainWallet(wallet)
  useSession.setState({ address: wallet.address, token: 'tok' })
  const api = fakeApi({
    'userAccount/getAddress': opts.getAddress ?? (() => ok(depositAddress())),
    'userAccount/recharge':
      opts.recharge ?? ((call) => ok(recharge({ txHash: call.params.txHash }))),
  })
  render(
    <MemoryRouter initialEntries={['/recharge']}>
      <QueryScope>
        <Routes>
          <Route path="/recharge" element={<RechargePage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </QueryScope>
    </MemoryRouter>,
  )
  return { wallet, api }
}

const amountInput = () => screen.findByPlaceholderText('请输入金额') as Promise<HTMLInputElement>
const submit = () => screen.getByRole('button', { name: '充值' })

async function typeAmount(text: string) {
  const input = await amountInput()
  await userEvent.clear(input)
  if (text) await userEvent.type(input, text)
}

/** Every recharge is confirmed in the sheet before the wallet is asked (its animation does not run in jsdom). */
async function submitAndConfirm() {
  await userEvent.click(submit())
  const sheet = within(await screen.findByTestId('recharge-confirm-sheet'))
  fireEvent.click(sheet.getByRole('button', { name: /^从钱包支付/ }))
}

const GAS_WARNING = /^钱包里没有支付网络手续费（Gas）的主网币/

describe('recharge page', () => {
  beforeEach(() => vi.mocked(showToast).mockClear())
  afterEach(() => {
    queryClient.clear()
    installChainWallet(undefined)
  })

  test("shows the wallet's on-chain USDT balance, the deposit address and the confirmations", async () => {
    const { wallet } = setup({ tokenBalance: 1234_560000n })
    expect((await screen.findByTestId('recharge-wallet-balance')).textContent).toBe('1,234.56 USDT')
    const balanceOf = wallet.callsTo('eth_call')[0]?.params[0] as { to: string; data: string }
    expect(balanceOf.to.toLowerCase()).toBe(TOKEN)
    expect(balanceOf.data).toBe(`0x70a08231${wallet.address.slice(2).padStart(64, '0')}`)
    expect(screen.getByTestId('recharge-deposit-address').textContent).toBe('0x7099******dc79c8')
    expect(screen.getByText(/12 个区块确认后到账/)).toBeTruthy()
    expect(screen.getByRole('button', { name: '复制' })).toBeTruthy()
    expect(screen.queryByText(GAS_WARNING)).toBeNull()
  })

  test('warns when the wallet holds USDT but no native coin for gas', async () => {
    setup({ wallet: { nativeBalance: 0n } })
    expect((await screen.findByRole('alert')).textContent).toMatch(GAS_WARNING)
  })

  test('the sheet mentions gas only when the wallet has none', async () => {
    setup({ wallet: { nativeBalance: 0n } })
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('100')
    await userEvent.click(submit())
    const sheet = within(await screen.findByTestId('recharge-confirm-sheet'))
    expect(sheet.getByText('钱包需要少量原生币支付矿工费')).toBeTruthy()
  })

  test('no gas warning for a wallet without the token either', async () => {
    setup({ wallet: { nativeBalance: 0n }, tokenBalance: 0n })
    await screen.findByTestId('recharge-wallet-balance')
    expect(screen.queryByText(GAS_WARNING)).toBeNull()
  })

  test('says what is missing before the wallet is asked to send', async () => {
    const { wallet } = setup()
    await screen.findByTestId('recharge-wallet-balance')
    await userEvent.click(submit())
    expect(showToast).toHaveBeenLastCalledWith('请输入充值金额')
    await typeAmount('500.01')
    await userEvent.click(submit())
    expect(showToast).toHaveBeenLastCalledWith('USDT 余额不足')
    expect(wallet.sent).toEqual([])
  })

  test('refuses what is not an amount, saying why, and asks the wallet nothing', async () => {
    const { wallet } = setup()
    await screen.findByTestId('recharge-wallet-balance')
    const input = await amountInput()
    await typeAmount('-5')
    expect(input.value).toBe('-5')
    expect(screen.getByRole('alert').textContent).toBe('数量不能为负数，请去掉减号')
    await typeAmount('1e3')
    expect(input.value).toBe('1e3')
    expect(screen.getByRole('alert').textContent).toBe('请直接输入数字，不能使用科学计数法（e）')
    await userEvent.click(submit())
    expect(screen.queryByTestId('recharge-confirm-sheet')).toBeNull()
    expect(wallet.sent).toEqual([])
  })

  test('the sheet says the amount, the wallet it leaves and the network before the wallet asks', async () => {
    const { wallet } = setup()
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('100')
    await userEvent.click(submit())
    const sheet = within(await screen.findByTestId('recharge-confirm-sheet'))
    expect(sheet.getByRole('heading', { name: '充值' })).toBeTruthy()
    expect(sheet.getByTestId('recharge-confirm-amount').textContent).toBe('100 USDT')
    expect(sheet.getByTestId('recharge-confirm-from').textContent).toMatch(/^0x\w{4}\*+\w{6}$/)
    expect(sheet.getByTestId('recharge-confirm-network').textContent).toBe('Anvil')
    // The wallet has gas: nothing to say about it.
    expect(sheet.queryByText('钱包需要少量原生币支付矿工费')).toBeNull()
    // The button says what it does: pay this amount from the wallet.
    expect(sheet.getByRole('button', { name: '从钱包支付 100 USDT' })).toBeTruthy()
    expect(wallet.sent).toEqual([])
  })

  test("the sheet names the network as the wallet was given it (the operators' chain name)", async () => {
    setup({
      getAddress: () =>
        ok(
          depositAddress({
            chain: {
              name: 'HOPE Local',
              rpcUrls: ['http://127.0.0.1:8545'],
              nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
              blockExplorerUrls: [],
            },
          }),
        ),
    })
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('100')
    await userEvent.click(submit())
    const sheet = within(await screen.findByTestId('recharge-confirm-sheet'))
    expect(sheet.getByTestId('recharge-confirm-network').textContent).toBe('HOPE Local')
  })

  test('sends the transfer, posts the hash and follows its confirmations', async () => {
    const { wallet, api } = setup()
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('100')
    await submitAndConfirm()
    await screen.findByRole('heading', { name: '转账已发出' })
    const result = screen.getByTestId('recharge-result')
    expect(wallet.sent).toHaveLength(1)
    expect(wallet.sent[0]?.to?.toLowerCase()).toBe(TOKEN)
    expect(api.callsTo('userAccount/recharge')[0]?.params).toEqual({ txHash: FAKE_TX_HASH })
    expect(within(result).getByTestId('recharge-status').textContent).toBe('链上确认中')
    expect(within(result).getByTestId('recharge-confirmations').textContent).toBe('2/12')
    // The wait shows how far it is: an arc for 2 of 12 confirmations, not a turning ring.
    const progress = within(result).getByTestId('recharge-progress')
    expect(progress.getAttribute('aria-valuenow')).toBe('2')
    expect(progress.getAttribute('aria-valuemax')).toBe('12')
    expect(progress.classList.contains('progress-ring--turning')).toBe(false)
    expect(within(result).getByTestId('recharge-result-amount').textContent).toBe('100 USDT')
    // The hash is masked on screen, whole in its title.
    expect(within(result).getByTitle(FAKE_TX_HASH).textContent).toBe('0xabab******ababab')
    expect(within(result).getByRole('link', { name: '浏览器查看' }).getAttribute('href')).toBe(
      `https://explorer.test/tx/${FAKE_TX_HASH}`,
    )
    expect(showToast).not.toHaveBeenCalled()
    await userEvent.click(within(result).getByRole('button', { name: '充值记录' }))
    expect(screen.getByTestId('where').textContent).toBe('/rechargeRecord')
  })

  test('the status is asked again while on chain, and no more once credited or failed', () => {
    const interval = rechargeStatusOptions(FAKE_TX_HASH).refetchInterval as (query: {
      state: { data?: Recharge }
    }) => number | false
    expect(interval({ state: {} })).toBe(RECHARGE_POLL_MS)
    expect(interval({ state: { data: recharge() } })).toBe(RECHARGE_POLL_MS)
    expect(interval({ state: { data: recharge({ status: 'credited' }) } })).toBe(false)
    expect(interval({ state: { data: recharge({ status: 'failed' }) } })).toBe(false)
  })

  test('a failed recharge says so', async () => {
    setup({ recharge: (call) => ok(recharge({ txHash: call.params.txHash, status: 'failed' })) })
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('100')
    await submitAndConfirm()
    expect((await screen.findByTestId('recharge-status')).textContent).toBe('充值失败')
    expect(
      screen.getByText('这笔转账没有到账：链上执行失败，或不是从您的钱包转入平台地址的 USDT。'),
    ).toBeTruthy()
  })

  test('no explorer link when none is configured', async () => {
    setup({ getAddress: () => ok(depositAddress({ explorerTxUrl: '' })) })
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('1')
    await submitAndConfirm()
    const result = within(await screen.findByTestId('recharge-result'))
    expect(result.getByTitle(FAKE_TX_HASH)).toBeTruthy()
    expect(result.queryByRole('link', { name: '浏览器查看' })).toBeNull()
    expect(result.getByRole('button', { name: '复制' })).toBeTruthy()
  })

  test('a sent transfer the server has not recorded yet keeps its hash on screen', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    setup({
      recharge: () => {
        throw new TypeError('Failed to fetch')
      },
    })
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('100')
    await submitAndConfirm()
    expect(await screen.findByText('正在等待平台确认这笔转账…')).toBeTruthy()
    expect(screen.getByTitle(FAKE_TX_HASH).textContent).toBe('0xabab******ababab')
    expect(showToast).not.toHaveBeenCalled()
  })

  test('a wallet on another network is offered the switch; a refusal is said as the user’s choice', async () => {
    const { wallet } = setup({ wallet: { chainId: '0x1' } })
    wallet.onSwitch = () => {
      throw rpcError(4001, 'User rejected the request.')
    }
    await screen.findByText('钱包当前不在充值网络上，切换后显示余额。')
    expect(screen.queryByTestId('recharge-wallet-balance')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: '切换网络' }))
    await waitFor(() =>
      expect(showToast).toHaveBeenLastCalledWith('您在钱包中拒绝切换到本应用的网络'),
    )
    // Submitting tries the switch again and stops there.
    await typeAmount('100')
    await submitAndConfirm()
    await waitFor(() => expect(showToast).toHaveBeenCalledTimes(2))
    expect(showToast).toHaveBeenLastCalledWith('您在钱包中拒绝切换到本应用的网络')
    expect(wallet.sent).toEqual([])
  })

  test('after switching, the balance on the deposit chain shows', async () => {
    const { wallet } = setup({ wallet: { chainId: '0x1' } })
    wallet.chains.add('0x7a69')
    fireEvent.click(await screen.findByRole('button', { name: '切换网络' }))
    expect((await screen.findByTestId('recharge-wallet-balance')).textContent).toBe('500 USDT')
    expect(wallet.chainId).toBe('0x7a69')
  })

  test('the wallet cancelling the transfer is one message, nothing recorded', async () => {
    const { wallet, api } = setup()
    wallet.onSend = () => {
      throw rpcError(4001, 'User denied transaction signature.')
    }
    await screen.findByTestId('recharge-wallet-balance')
    await typeAmount('100')
    await submitAndConfirm()
    await waitFor(() => expect(showToast).toHaveBeenCalledTimes(1))
    expect(showToast).toHaveBeenLastCalledWith('您已在钱包中取消了这笔转账')
    expect(api.callsTo('userAccount/recharge')).toEqual([])
    expect(screen.queryByTestId('recharge-result')).toBeNull()
  })

  test("without a configured chain it shows the server's word once", async () => {
    setup({ getAddress: () => fail(503, 'service_unavailable', '服务暂不可用') })
    // Said on the retry button, once.
    expect(await screen.findByRole('button', { name: /^服务暂不可用/ })).toBeTruthy()
    expect(showToast).not.toHaveBeenCalled()
  })
})
