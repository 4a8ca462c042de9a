import type { Withdrawal, WithdrawalStatusCode } from '@hope/api'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { showConfirm } from '../../lib/ui/dialog.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok, type Reply } from '../../test/fake-api.ts'
import { WithdrawRecordPage } from './withdraw-record-page.tsx'
import { depositAddress, withdrawal as aWithdrawal } from '../../../test-support/fixtures.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))
vi.mock('../../lib/ui/dialog.ts', () => ({ showConfirm: vi.fn(), showAlert: vi.fn() }))

const ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const HASH = `0x${'cd'.repeat(32)}`

const withdrawal = (id: number, status: WithdrawalStatusCode, changes: Partial<Withdrawal> = {}) =>
  aWithdrawal({ id, address: ADDRESS, status, ...changes })

const page = (list: Withdrawal[], pageNum = 1, total = list.length) =>
  ok({ list, total, pageNum, pageSize: 20 })

function renderRecords(handlers: {
  myWithDraw: Parameters<typeof fakeApi>[0]['userAccount/myWithDraw']
  cancel?: () => Reply
  explorerTxUrl?: string
}) {
  const api = fakeApi({
    'userAccount/myWithDraw': handlers.myWithDraw,
    'userAccount/cancelWithdraw': handlers.cancel ?? (() => ok(withdrawal(1, 6))),
    'userAccount/getAddress': () =>
      ok(
        depositAddress({
          explorerTxUrl: handlers.explorerTxUrl ?? 'https://explorer.test/tx/{hash}',
        }),
      ),
  })
  render(
    <MemoryRouter initialEntries={['/withdrawRecord']}>
      <QueryScope>
        <WithdrawRecordPage />
      </QueryScope>
    </MemoryRouter>,
  )
  return api
}

const ALL_STATUSES = [0, 1, 2, 3, 4, 5, 6] as const

/** The records as listed, one list item each. */
const records = () => screen.findAllByRole('listitem')
const CANCEL = { name: '取消提现' }

describe('withdrawal records', () => {
  beforeEach(() => {
    vi.mocked(showToast).mockClear()
    vi.mocked(showConfirm).mockReset()
  })
  afterEach(() => queryClient.clear())

  test('every status is translated and coloured; amount, fee and the masked address show', async () => {
    renderRecords({
      myWithDraw: () => page(ALL_STATUSES.map((status) => withdrawal(10 - status, status))),
    })
    const rows = await records()
    const statuses = rows.map((row) => within(row).getByTestId('withdraw-record-status'))
    expect(statuses.map((el) => el.textContent)).toEqual([
      '待审核',
      '审核通过',
      '已完成',
      '审核拒绝',
      '提现失败',
      '已确认',
      '已取消',
    ])
    expect(statuses.map((el) => el.dataset.tone)).toEqual([
      'pending',
      'moving',
      'done',
      'bad',
      'bad',
      'moving',
      'off',
    ])
    const first = rows[0] as HTMLElement
    expect(within(first).getByTestId('withdraw-record-amount').textContent).toBe('100 USDT')
    expect(within(first).getByTestId('withdraw-record-fee').textContent).toBe('1 USDT')
    expect(within(first).getByTestId('withdraw-record-address').textContent).toBe(
      '0x7099******dc79c8',
    )
    expect(within(first).getByRole('button', { name: '复制' })).toBeTruthy()
  })

  test('a withdrawal to a new address says until when it waits, and can be cancelled', async () => {
    const until = new Date(Date.now() + 20 * 3_600_000).toISOString()
    renderRecords({
      myWithDraw: () =>
        page([
          withdrawal(3, 0, { holdUntil: until }),
          withdrawal(2, 0, { holdUntil: new Date(Date.now() - 60_000).toISOString() }),
          withdrawal(1, 3, { holdUntil: until }),
        ]),
    })
    const rows = await records()
    const HOLD = /^新地址：等待至 .+ 后才会审核，期间你可以取消。$/
    expect(within(rows[0] as HTMLElement).getByText(HOLD)).toBeTruthy()
    expect(within(rows[0] as HTMLElement).getByRole('button', CANCEL)).toBeTruthy()
    // Over, or no longer waiting for review: nothing said.
    expect(within(rows[1] as HTMLElement).queryByText(/^新地址/)).toBeNull()
    expect(within(rows[2] as HTMLElement).queryByText(/^新地址/)).toBeNull()
  })

  test('the cancel button is offered only while the withdrawal waits for review', async () => {
    renderRecords({
      myWithDraw: () => page(ALL_STATUSES.map((status) => withdrawal(10 - status, status))),
    })
    const rows = await records()
    const onlyPending = [true, false, false, false, false, false, false]
    expect(rows.map((row) => within(row).queryByRole('button', CANCEL) !== null)).toEqual(
      onlyPending,
    )
  })

  test('the tx hash with copy and explorer link, and the reason of a rejection', async () => {
    renderRecords({
      myWithDraw: () =>
        page([
          withdrawal(2, 2, { txHash: HASH }),
          withdrawal(1, 3, { reviewReason: 'address on a sanctions list' }),
        ]),
    })
    const [paid, rejected] = (await records()) as [HTMLElement, HTMLElement]
    // The hash is masked on screen, whole in its title.
    expect(within(paid).getByTitle(HASH).textContent).toBe('0xcdcd******cdcdcd')
    // One copy for the address, one for the hash.
    expect(within(paid).getAllByRole('button', { name: '复制' })).toHaveLength(2)
    const explorer = await within(paid).findByRole('link', { name: '浏览器查看' })
    expect(explorer.getAttribute('href')).toBe(`https://explorer.test/tx/${HASH}`)
    expect(within(paid).queryByText(/^拒绝原因/)).toBeNull()
    expect(within(rejected).getByText('拒绝原因: address on a sanctions list')).toBeTruthy()
    expect(within(rejected).queryByText('交易哈希')).toBeNull()
  })

  test('cancelling asks first, then refreshes the list', async () => {
    let status: WithdrawalStatusCode = 0
    const api = renderRecords({
      myWithDraw: () => page([withdrawal(5, status)]),
      cancel: () => {
        status = 6
        return ok(withdrawal(5, 6))
      },
    })
    vi.mocked(showConfirm).mockResolvedValueOnce(false)
    await userEvent.click(within((await records())[0] as HTMLElement).getByRole('button', CANCEL))
    expect(showConfirm).toHaveBeenCalledWith(
      expect.objectContaining({
        content: '确定取消这笔提现吗？金额和手续费将退回您的 USDT 账户。',
      }),
    )
    expect(api.callsTo('userAccount/cancelWithdraw')).toHaveLength(0)

    vi.mocked(showConfirm).mockResolvedValueOnce(true)
    await userEvent.click(screen.getByRole('button', CANCEL))
    await waitFor(() =>
      expect(screen.getByTestId('withdraw-record-status').textContent).toBe('已取消'),
    )
    expect(api.callsTo('userAccount/cancelWithdraw').map((call) => call.params)).toEqual([
      { id: '5' },
    ])
    expect(showToast).toHaveBeenLastCalledWith('提现已取消', 'success')
    expect(screen.queryByRole('button', CANCEL)).toBeNull()
  })

  test("a withdrawal reviewed meanwhile: only the server's message", async () => {
    renderRecords({
      myWithDraw: () => page([withdrawal(5, 0)]),
      cancel: () => fail(409, 'withdrawal_state', '该提现当前状态不可操作'),
    })
    vi.mocked(showConfirm).mockResolvedValueOnce(true)
    await userEvent.click(await screen.findByRole('button', CANCEL))
    await waitFor(() =>
      expect(vi.mocked(showToast).mock.calls).toEqual([['该提现当前状态不可操作']]),
    )
  })

  test('pages on with pageNum; an empty list says so', async () => {
    vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body)
    const api = renderRecords({
      myWithDraw: ({ params }) =>
        params.pageNum === '2'
          ? page([withdrawal(1, 2)], 2, 21)
          : page(
              Array.from({ length: 20 }, (_, i) => withdrawal(21 - i, 0)),
              1,
              21,
            ),
    })
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(21))
    expect(api.callsTo('userAccount/myWithDraw').map((call) => call.params)).toEqual([
      { pageNum: '1', pageSize: '20' },
      { pageNum: '2', pageSize: '20' },
    ])
  })

  test('no records yet', async () => {
    renderRecords({ myWithDraw: () => page([]) })
    expect(await screen.findByText('暂无记录')).toBeTruthy()
    expect(screen.queryByRole('listitem')).toBeNull()
  })
})
