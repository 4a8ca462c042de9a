import type { TransferResult } from '@hope/api'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { expectSaidOnce } from '../../test/said.ts'
import { fail, fakeApi, ok, heldReply, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList, enabledCoins } from '../../../test-support/fixtures.ts'
import {
  createFakeWallet,
  installWallet,
  preloadWalletSigning,
  signInFakeWallet,
} from '../../test/fake-wallet.ts'
import { renderAt } from '../../test/render-at.tsx'
import { TransferPage } from './transfer-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const FRIEND = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

function renderTransfer() {
  renderAt('/transfer', <TransferPage />, { withSearch: true })
}

const done = (call: ApiCall): TransferResult => ({
  transferId: '77',
  amount: call.params.amount ?? '',
  fee: '2',
  to: call.params.address ?? '',
  replayed: false,
})

const IN_DOWNLINE = { registered: true, self: false, inDownline: true }

/** The server of these tests: 500 USDT available, 1 USDT + 1 % per transfer. */
function serve(transfer: (call: ApiCall) => Reply, where = () => IN_DOWNLINE) {
  return fakeApi({
    'userAccount/checkAddress': () => ok(where()),
    'userAccount/balance': () => ok(balanceList()),
    'userAccount/enableCoins': () =>
      ok(enabledCoins({ minTransfer: '10', transferFeeFixed: '1', transferFeeRate: '0.01' })),
    'userAccount/transfer': transfer,
  })
}

/** The address field, by its hint; there once the form has loaded. */
const addressInput = () => screen.findByPlaceholderText('请输入地址')
const amountInput = () => screen.getByPlaceholderText('最少 10') as HTMLInputElement
const submit = () => screen.getByRole('button', { name: '转账' })

async function fill(address: string, amount: string) {
  const input = await addressInput()
  await userEvent.clear(input)
  if (address) await userEvent.type(input, address)
  await userEvent.clear(amountInput())
  if (amount) await userEvent.type(amountInput(), amount)
}

/** Opens the confirmation sheet; its animation does not run in jsdom, so taps inside are fireEvent. */
async function openSheet(address = FRIEND, amount = '100') {
  await fill(address, amount)
  await userEvent.click(submit())
  return screen.findByTestId('transfer-confirm-sheet')
}

/** Taps the open sheet's confirm (or, after a failure, its retry). */
async function confirm(name = '确认转账') {
  const sheet = within(await screen.findByTestId('transfer-confirm-sheet'))
  fireEvent.click(sheet.getByRole('button', { name }))
}

const closeSheet = () => fireEvent.click(screen.getByRole('button', { name: '关闭' }))
const succeeded = () => screen.findByRole('heading', { name: '转账成功' })

const keysSent = (api: ReturnType<typeof serve>) =>
  api.callsTo('userAccount/transfer').map((call) => call.params.idempotencyKey)

describe('transfer page', () => {
  beforeAll(preloadWalletSigning)
  beforeEach(() => {
    vi.mocked(showToast).mockClear()
    signInFakeWallet()
  })
  afterEach(() => {
    queryClient.clear()
    installWallet(undefined)
  })

  test('shows the available USDT and the rule about downline addresses', async () => {
    serve(() => ok(null))
    renderTransfer()
    expect((await screen.findByTestId('transfer-available')).textContent).toBe('500 USDT')
    expect(screen.getByText('接收地址必须是自己共识体系的下级')).toBeTruthy()
  })

  test('the amount field keeps what was typed and says why it is not an amount', async () => {
    const api = serve(() => ok(null))
    renderTransfer()
    await addressInput()
    const amount = amountInput()
    const reason = () => screen.queryByRole('alert')?.textContent
    await userEvent.type(amount, '1e5')
    expect(amount.value).toBe('1e5')
    expect(reason()).toBe('请直接输入数字，不能使用科学计数法（e）')
    await userEvent.clear(amount)
    await userEvent.type(amount, '-1')
    expect(amount.value).toBe('-1')
    expect(reason()).toBe('数量不能为负数，请去掉减号')
    await userEvent.clear(amount)
    await userEvent.type(amount, '1.1234567')
    expect(reason()).toBe('最多 6 位小数')
    await userEvent.clear(amount)
    await userEvent.type(amount, '1.2.3')
    expect(reason()).toBe('只能有一个小数点“.”')
    await userEvent.clear(amount)
    await userEvent.type(amount, 'abc')
    expect(reason()).toBe('请只输入数字和小数点“.”')
    await userEvent.type(await addressInput(), FRIEND)
    await userEvent.click(submit())
    expect(screen.queryByTestId('transfer-confirm-sheet')).toBeNull()
    expect(api.callsTo('userAccount/transfer')).toHaveLength(0)
  })

  test('"1,000" is one thousand, grouped as the language writes it', async () => {
    serve(() => ok(null))
    renderTransfer()
    await fill(FRIEND, '1,000')
    expect(screen.queryByRole('alert')).toBeNull()
    // 1000 + 1 + 10 = 1011 USDT against 500 available
    expect(screen.getByText('还差 511 USDT。')).toBeTruthy()
    await fill(FRIEND, '1,00')
    expect(screen.getByRole('alert').textContent).toBe('千位分隔符“,”位置不对；小数点是“.”')
  })

  test.each([
    [{ registered: true, self: false, inDownline: false }, '接收地址必须是自己共识体系的下级'],
    [{ registered: true, self: true, inDownline: false }, '这是你自己的地址'],
    [{ registered: false, self: false, inDownline: false }, '该地址尚未注册'],
  ])('an address the server reads as %j is refused before the sheet', async (where, text) => {
    const api = serve(
      () => ok(null),
      () => where,
    )
    renderTransfer()
    await fill(FRIEND, '100')
    expect((await screen.findByRole('status')).textContent).toBe(text)
    expect(screen.queryByTestId('transfer-fee')).toBeNull()
    await userEvent.click(submit())
    // Said once: the red text, not a toast too, nor the rule's note repeating it.
    expectSaidOnce(text)
    // In every language: the yellow rule gives way to the red text that applies it.
    if (!where.inDownline && !where.self && where.registered)
      expect(screen.queryByTestId('transfer-downline-note')).toBeNull()
    expect(screen.queryByTestId('transfer-confirm-sheet')).toBeNull()
    expect(api.callsTo('userAccount/checkAddress')[0]?.params.address).toBe(FRIEND)
    expect(api.callsTo('userAccount/transfer')).toHaveLength(0)
  })

  test('says what is missing before any request', async () => {
    const api = serve(() => ok(null))
    renderTransfer()
    await addressInput()
    await userEvent.click(submit())
    expectSaidOnce('请输入地址')
    await fill(FRIEND, '')
    await userEvent.click(submit())
    expectSaidOnce('请输入数量')
    await fill(FRIEND, '9.99')
    await userEvent.click(submit())
    expectSaidOnce('转账数量不能少于 10 USDT')
    expect(screen.queryByTestId('transfer-confirm-sheet')).toBeNull()
    expect(api.callsTo('userAccount/transfer')).toHaveLength(0)
  })

  test('refuses more than the available balance, fee included, without a request', async () => {
    const api = serve(() => ok(null))
    renderTransfer()
    // 495 + 1 + 4.95 = 500.95 > 500: no estimate for what cannot be sent, the gap instead
    await fill(FRIEND, '495')
    expect(screen.queryByTestId('transfer-total')).toBeNull()
    expect(screen.getByRole('status').textContent).toContain('USDT 余额不足')
    expect(screen.getByText('还差 0.95 USDT。')).toBeTruthy()
    await fill(FRIEND, '100')
    await waitFor(() => expect(screen.getByTestId('transfer-fee').textContent).toBe('2 USDT'))
    expect(screen.getByTestId('transfer-total').textContent).toBe('102 USDT')
    await fill(FRIEND, '495')
    await userEvent.click(submit())
    expectSaidOnce('USDT 余额不足')
    expect(screen.queryByTestId('transfer-confirm-sheet')).toBeNull()
    expect(api.callsTo('userAccount/transfer')).toHaveLength(0)
  })

  test('"all" fills the most that the balance pays, fee included', async () => {
    serve(() => ok(null))
    renderTransfer()
    await userEvent.type(await addressInput(), FRIEND)
    await userEvent.click(screen.getByRole('button', { name: '全部' }))
    expect(amountInput().value).toBe('494.059405')
    expect((await screen.findByTestId('transfer-total')).textContent).toBe('500 USDT')
  })

  test('the sheet shows recipient, amount, fee and total', async () => {
    serve(() => ok(null))
    renderTransfer()
    const sheet = within(await openSheet(FRIEND, '100'))
    expect(sheet.getByRole('heading', { name: '确认转账' })).toBeTruthy()
    expect(sheet.getByTestId('transfer-confirm-to').textContent).toBe('0x7099******dc79c8')
    expect(sheet.getByTestId('transfer-confirm-amount').textContent).toBe('100 USDT')
    expect(sheet.getByTestId('transfer-confirm-fee').textContent).toBe('2 USDT')
    expect(sheet.getByTestId('transfer-confirm-total').textContent).toBe('102 USDT')
  })

  test('a double tap sends the transfer once', async () => {
    const { reply, release } = heldReply(done)
    const api = serve(reply)
    renderTransfer()
    const sheet = within(await openSheet())
    const button = sheet.getByRole('button', { name: '确认转账' })
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() => expect(api.callsTo('userAccount/transfer')).toHaveLength(1))
    fireEvent.click(button)
    release()
    await succeeded()
    expect(api.callsTo('userAccount/transfer')).toHaveLength(1)
    expect(api.callsTo('userAccount/transfer')[0]?.params).toMatchObject({
      address: FRIEND,
      amount: '100',
    })
  })

  test('after a network error the same transfer keeps its key; an edited one gets a new key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let reachable = false
    const api = serve((call) => {
      if (!reachable) throw new TypeError('Failed to fetch')
      return ok(done(call))
    })
    renderTransfer()
    const sheet = within(await openSheet(FRIEND, '100'))
    await confirm()
    expect((await sheet.findByRole('alert')).textContent).toBe(
      '网络异常，转账结果未知。请点击重试，同一笔转账不会重复扣款。',
    )
    expect(showToast).not.toHaveBeenCalled()

    // Retry from the sheet.
    await confirm('重试')
    await waitFor(() => expect(keysSent(api)).toHaveLength(2))
    // Closed and opened again without a change.
    closeSheet()
    await waitFor(() => expect(screen.queryByTestId('transfer-confirm-sheet')).toBeNull())
    await userEvent.click(submit())
    await confirm()
    await waitFor(() => expect(keysSent(api)).toHaveLength(3))
    const [first] = keysSent(api)
    expect(first).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(keysSent(api)).toEqual([first, first, first])

    // A changed amount is another transfer.
    closeSheet()
    await fill(FRIEND, '120')
    await userEvent.click(submit())
    reachable = true
    await confirm()
    await succeeded()
    expect(keysSent(api)).toHaveLength(4)
    expect(keysSent(api)[3]).not.toBe(first)
    expect(api.callsTo('userAccount/transfer')[3]?.params.amount).toBe('120')
  })

  test('success shows the result and refreshes the balance and the logs', async () => {
    const api = serve((call) => ok(done(call)))
    renderTransfer()
    await openSheet(FRIEND, '100')
    const balanceCalls = api.callsTo('userAccount/balance').length
    const logs = vi.spyOn(queryClient, 'invalidateQueries')
    await confirm()
    await succeeded()
    const result = screen.getByTestId('transfer-result')
    expect(within(result).getByTestId('transfer-result-amount').textContent).toBe('100 USDT')
    expect(within(result).getByTestId('transfer-result-to').textContent).toBe('0x7099******dc79c8')
    await waitFor(() =>
      expect(api.callsTo('userAccount/balance').length).toBeGreaterThan(balanceCalls),
    )
    expect(logs).toHaveBeenCalledWith({ queryKey: accountKeys.logs() })
    await userEvent.click(within(result).getByRole('button', { name: '查看明细' }))
    expect(screen.getByTestId('where').textContent).toBe('/accountLog?account=usdt&logType=9')
  })

  test('the wallet signs every transfer: the sheet says what, the request carries it', async () => {
    const wallet = createFakeWallet()
    installWallet(wallet)
    const api = serve((call) => ok(done(call)))
    renderTransfer()
    const sheet = await openSheet(FRIEND, '100')
    expect(within(sheet).getByText(/转账：100 USDT/)).toBeTruthy()
    await confirm()
    await succeeded()
    expect(wallet.calls).toContain('eth_signTypedData_v4')
    expect(api.callsTo('userAccount/transfer')[0]?.params.signature).toMatch(/^0x[0-9a-f]{130}$/)
  })

  test("a refusal shows only the server's message and closes the sheet", async () => {
    const api = serve(() => fail(409, 'not_downline', '接收地址必须是自己共识体系的下级'))
    renderTransfer()
    await openSheet(FRIEND, '100')
    await confirm()
    await waitFor(() => expect(screen.queryByTestId('transfer-confirm-sheet')).toBeNull())
    expect(api.callsTo('userAccount/transfer')).toHaveLength(1)
    expect(vi.mocked(showToast).mock.calls).toEqual([['接收地址必须是自己共识体系的下级']])
    expect(screen.queryByTestId('transfer-result')).toBeNull()
  })
})
