import type { Withdrawal } from '@hope/api'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { createFakeWallet, installWallet, preloadWalletSigning } from '../../test/fake-wallet.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { expectSaidOnce } from '../../test/said.ts'
import { fail, fakeApi, ok, heldReply, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList, enabledCoins, withdrawal } from '../../../test-support/fixtures.ts'
import { WithdrawPage } from './withdraw-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const OWN = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

function Where() {
  const { pathname } = useLocation()
  return <p data-testid="where">{pathname}</p>
}

/** What the server answers: the request under review, with the fee it charged. */
const answered = (call: ApiCall, changes: Partial<Withdrawal> = {}): Withdrawal =>
  withdrawal({
    id: 7,
    amount: call.params.amount ?? '',
    address: (call.params.address ?? OWN).toLowerCase(),
    ...changes,
  })

/** 500 USDT available, at least 10 USDT a withdrawal, 1 USDT fee; signed in with the wallet OWN. */
function serve(withdraw: (call: ApiCall) => Reply, more: Parameters<typeof fakeApi>[0] = {}) {
  useSession.setState({ address: OWN, token: 'tok' })
  const api = fakeApi({
    'userAccount/balance': () => ok(balanceList()),
    'userAccount/enableCoins': () =>
      ok(enabledCoins({ minWithdraw: '10', withdrawFeeFixed: '1', withdrawFeeRate: '0' })),
    'userAccount/withdraw': withdraw,
    ...more,
  })
  render(
    <MemoryRouter initialEntries={['/withdraw']}>
      <QueryScope>
        <Routes>
          <Route path="/withdraw" element={<WithdrawPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </QueryScope>
    </MemoryRouter>,
  )
  return api
}

/** The amount field, by its hint (the minimum); there once the form has loaded. */
const amountInput = () => screen.findByPlaceholderText('最少 10') as Promise<HTMLInputElement>
const addressInput = () => screen.getByPlaceholderText('请输入地址') as HTMLInputElement
const submit = () => screen.getByRole('button', { name: '提现' })

async function fill(amount: string, address?: string) {
  const input = await amountInput()
  await userEvent.clear(input)
  if (amount) await userEvent.type(input, amount)
  if (address === undefined) return
  await userEvent.clear(addressInput())
  if (address) await userEvent.type(addressInput(), address)
}

/** Opens the confirmation sheet; its animation does not run in jsdom, so taps inside are fireEvent. */
async function openSheet(amount = '100', address?: string) {
  await fill(amount, address)
  await userEvent.click(submit())
  return screen.findByTestId('withdraw-confirm-sheet')
}

/** Taps the sheet's confirm (or, after a failure, its retry). */
function confirm(name = '确认提现') {
  fireEvent.click(
    within(screen.getByTestId('withdraw-confirm-sheet')).getByRole('button', { name }),
  )
}

const submitted = () => screen.findByRole('heading', { name: '提现申请已提交' })

const keysSent = (api: ReturnType<typeof serve>) =>
  api.callsTo('userAccount/withdraw').map((call) => call.params.idempotencyKey)

describe('withdraw page', () => {
  beforeAll(preloadWalletSigning)
  beforeEach(() => {
    vi.mocked(showToast).mockClear()
    installWallet(createFakeWallet())
  })
  afterEach(() => {
    queryClient.clear()
    installWallet(undefined)
  })

  test('shows the available USDT, the minimum, the own wallet as the address', async () => {
    serve(() => ok(null))
    expect((await screen.findByTestId('withdraw-available')).textContent).toBe('500 USDT')
    expect(await amountInput()).toBeTruthy()
    expect(addressInput().value).toBe(OWN)
    expect(screen.getByText('默认提现到当前登录的钱包地址')).toBeTruthy()
    expect(screen.queryByRole('button', { name: '本钱包' })).toBeNull()
  })

  test('the fee of the settings and the total follow the amount', async () => {
    serve(() => ok(null))
    await fill('100')
    expect(screen.getByTestId('withdraw-fee').textContent).toBe('1 USDT')
    expect(screen.getByTestId('withdraw-total').textContent).toBe('101 USDT')
  })

  test('no estimate for an empty, refused or unaffordable amount; the gap links to recharge', async () => {
    serve(() => ok(null))
    await amountInput()
    expect(screen.queryByTestId('withdraw-total')).toBeNull()
    await fill('-5')
    expect(screen.getByRole('alert').textContent).toBe('数量不能为负数，请去掉减号')
    expect(screen.queryByTestId('withdraw-total')).toBeNull()
    await fill('499.5')
    expect(screen.queryByTestId('withdraw-total')).toBeNull()
    expect(screen.getByText('还差 0.5 USDT。')).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: '去充值' }))
    expect(screen.getByTestId('where').textContent).toBe('/recharge')
  })

  test('an empty amount gets the spec message, before any request', async () => {
    const api = serve(() => ok(null))
    await amountInput()
    await userEvent.click(submit())
    expectSaidOnce('请输入提现金额')
    expect(screen.queryByTestId('withdraw-confirm-sheet')).toBeNull()
    expect(api.callsTo('userAccount/withdraw')).toHaveLength(0)
  })

  test('checks the minimum, the balance with the fee, and the address', async () => {
    const api = serve(() => ok(null))
    await fill('9.99')
    await userEvent.click(submit())
    expectSaidOnce('提现金额不能小于最小提现金额（10 USDT）')
    // 499.5 + 1 > 500
    await fill('499.5')
    await userEvent.click(submit())
    expectSaidOnce('USDT 余额不足')
    await fill('100', '')
    await userEvent.click(submit())
    expectSaidOnce('请输入地址')
    await fill('100', '0x1234')
    await userEvent.click(submit())
    expectSaidOnce('请输入正确的地址')
    expect(screen.queryByTestId('withdraw-confirm-sheet')).toBeNull()
    expect(api.callsTo('userAccount/withdraw')).toHaveLength(0)
  })

  test('"all" leaves room for the fee; the own wallet comes back with one tap', async () => {
    serve(() => ok(null))
    const input = await amountInput()
    await userEvent.click(screen.getByRole('button', { name: '全部' }))
    expect(input.value).toBe('499')
    expect(screen.getByTestId('withdraw-total').textContent).toBe('500 USDT')
    await fill('1', OTHER)
    await userEvent.click(screen.getByRole('button', { name: '本钱包' }))
    expect(addressInput().value).toBe(OWN)
  })

  test('a double tap on confirm withdraws once; the result shows the fee the server charged', async () => {
    const { reply, release } = heldReply(answered)
    const api = serve(reply)
    const sheet = await openSheet('100', OTHER)
    expect(within(sheet).getByRole('heading', { name: '确认提现' })).toBeTruthy()
    expect(within(sheet).getByTestId('withdraw-confirm-amount').textContent).toBe('100 USDT')
    expect(within(sheet).getByTestId('withdraw-confirm-to').textContent).toBe('0x7099******dc79c8')
    expect(within(sheet).getByTestId('withdraw-confirm-fee').textContent).toBe('1 USDT')
    expect(within(sheet).getByTestId('withdraw-confirm-total').textContent).toBe('101 USDT')
    const button = within(sheet).getByRole('button', { name: '确认提现' })
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() => expect(api.callsTo('userAccount/withdraw')).toHaveLength(1))
    fireEvent.click(button)
    release()
    await submitted()
    const result = screen.getByTestId('withdraw-result')
    expect(api.callsTo('userAccount/withdraw')).toHaveLength(1)
    expect(api.callsTo('userAccount/withdraw')[0]?.params).toMatchObject({
      amount: '100',
      address: OTHER,
    })
    expect(within(result).getByTestId('withdraw-result-amount').textContent).toBe('100 USDT')
    expect(within(result).getByTestId('withdraw-result-fee').textContent).toBe('1 USDT')
    expect(within(result).getByTestId('withdraw-result-total').textContent).toBe('101 USDT')
    expect(within(result).getByTestId('withdraw-result-status').textContent).toBe('待审核')
    await userEvent.click(within(result).getByRole('button', { name: '查看提现记录' }))
    expect(screen.getByTestId('where').textContent).toBe('/withdrawRecord')
  })

  test('to another address the wallet signs it (the sheet says so); to the own wallet it does not', async () => {
    const wallet = createFakeWallet()
    installWallet(wallet)
    const api = serve((call) => ok(answered(call)))
    const sheet = await openSheet('100', OTHER)
    expect(
      within(sheet).getByText(
        '确认后，钱包会请你签名这笔提现：100 USDT 至 0x7099******dc79c8，10 分钟内有效。没有签名，资金不会转出。',
      ),
    ).toBeTruthy()
    confirm()
    await submitted()
    expect(wallet.calls).toContain('eth_signTypedData_v4')
    const sent = api.callsTo('userAccount/withdraw')[0]!.params
    expect(sent.signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(Number(sent.deadline)).toBeGreaterThan(Date.now() / 1000)
    expect(api.callsTo('userAccount/outflowTypedData')[0]?.params).toMatchObject({
      kind: 'withdraw',
      amount: '100',
      address: OTHER,
      idempotencyKey: sent.idempotencyKey,
    })
  })

  test('before the wallet signs, the sheet marks a destination holding contract code', async () => {
    const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
    const api = serve((call) => ok(answered(call)), {
      'userAccount/checkWithdrawAddress': (call) =>
        ok({ forbidden: false, contract: call.params.address === CONTRACT }),
    })
    const sheet = await openSheet('100', CONTRACT)
    expect(
      await within(sheet).findByText(
        '合约地址：该地址部署了合约。合约可能无法转出收到的 USDT，请确认它能接收并转出代币后再提现。',
      ),
    ).toBeTruthy()
    expect(api.callsTo('userAccount/checkWithdrawAddress').at(-1)?.params).toEqual({
      address: CONTRACT,
    })
    // Marked, not refused: the user may still go on.
    confirm()
    await submitted()
  })

  test('a plain address carries no mark', async () => {
    const api = serve((call) => ok(answered(call)))
    const sheet = await openSheet('100', OTHER)
    await within(sheet).findByText(/^确认后，钱包会请你签名这笔提现/)
    // The answer that would mark it has come in.
    await waitFor(() =>
      expect(api.callsTo('userAccount/checkWithdrawAddress').at(-1)?.params.address).toBe(OTHER),
    )
    await waitFor(() => expect(queryClient.isFetching()).toBe(0))
    expect(within(sheet).queryByText(/^合约地址/)).toBeNull()
    expect(within(sheet).queryByText(/^不能提现到该地址/)).toBeNull()
  })

  test('a platform address is said to be refused before the wallet signs', async () => {
    const VAULT = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
    serve((call) => ok(answered(call)), {
      'userAccount/checkWithdrawAddress': () => ok({ forbidden: true, contract: null }),
    })
    const sheet = await openSheet('100', VAULT)
    expect(await within(sheet).findByText(/^不能提现到该地址/)).toBeTruthy()
  })

  test('a withdrawal to the own wallet goes unsigned', async () => {
    const wallet = createFakeWallet()
    installWallet(wallet)
    const api = serve((call) => ok(answered(call)))
    const own = await openSheet('50')
    expect(within(own).queryByText(/^确认后，钱包会请你签名/)).toBeNull()
    confirm()
    await submitted()
    expect(api.callsTo('userAccount/withdraw')[0]?.params.signature).toBeUndefined()
    expect(wallet.calls).not.toContain('eth_signTypedData_v4')
  })

  test('refused in the wallet: said once, nothing is sent, the sheet closes', async () => {
    installWallet(createFakeWallet(undefined, { rejectSign: true }))
    const api = serve((call) => ok(answered(call)))
    await openSheet('100', OTHER)
    confirm()
    await waitFor(() => expect(screen.queryByTestId('withdraw-confirm-sheet')).toBeNull())
    expect(api.callsTo('userAccount/withdraw')).toHaveLength(0)
    expect(vi.mocked(showToast).mock.calls).toEqual([['钱包未签名，资金未变动']])
  })

  test('after a network error the same withdrawal keeps its key; an edited one gets a new key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let reachable = false
    const api = serve((call) => {
      if (!reachable) throw new TypeError('Failed to fetch')
      return ok(answered(call))
    })
    const sheet = within(await openSheet('100'))
    confirm()
    expect((await sheet.findByRole('alert')).textContent).toBe(
      '网络异常，提现结果未知。请点击重试，同一笔提现不会重复扣款。',
    )
    expect(showToast).not.toHaveBeenCalled()
    confirm('重试')
    await waitFor(() => expect(keysSent(api)).toHaveLength(2))
    const [first] = keysSent(api)
    expect(first).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(keysSent(api)).toEqual([first, first])

    fireEvent.click(screen.getByRole('button', { name: '关闭' }))
    await fill('120')
    await userEvent.click(submit())
    reachable = true
    await screen.findByTestId('withdraw-confirm-sheet')
    confirm()
    await submitted()
    expect(keysSent(api)).toHaveLength(3)
    expect(keysSent(api)[2]).not.toBe(first)
  })

  test("a refusal shows only the server's message, the sheet closes", async () => {
    const api = serve(() => fail(409, 'insufficient_balance', '余额不足'))
    await openSheet('100')
    confirm()
    await waitFor(() => expect(screen.queryByTestId('withdraw-confirm-sheet')).toBeNull())
    expect(api.callsTo('userAccount/withdraw')).toHaveLength(1)
    expect(vi.mocked(showToast).mock.calls).toEqual([['余额不足']])
    expect(screen.queryByTestId('withdraw-result')).toBeNull()
  })

  test('success refreshes the balance, the account log and the records', async () => {
    serve((call) => ok(answered(call)))
    await openSheet('100')
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    confirm()
    await submitted()
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.balance() })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.logs() })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.withdrawals() })
  })
})
