import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, useLocation } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { logEntry } from '../../../test-support/fixtures.ts'
import { AccountLogPage } from './account-log-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const FRIEND = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

function Search() {
  return <p data-testid="search">{useLocation().search}</p>
}

function renderLog(entry = '/accountLog') {
  render(
    <MemoryRouter initialEntries={[entry]}>
      <QueryScope>
        <AccountLogPage />
        <Search />
      </QueryScope>
    </MemoryRouter>,
  )
}

describe('account log', () => {
  afterEach(() => queryClient.clear())

  test('shows translated types, signed coloured amounts, balance after and the masked counterparty', async () => {
    fakeApi({
      'userAccount/balanceDetail': () =>
        ok({
          list: [
            logEntry(3, {
              amount: '-25.500000',
              balanceAfter: '474.5',
              logType: 9,
              counterparty: FRIEND,
            }),
            logEntry(2, { account: 'community', currency: 'HOPE', amount: '1.25', logType: 7 }),
            logEntry(1, { amount: '500', logType: 5 }),
          ],
          nextCursor: null,
        }),
    })
    renderLog()
    const rows = await screen.findAllByTestId('account-log-item')
    expect(rows.map((row) => within(row).getByTestId('account-log-type').textContent)).toEqual([
      '内部转账',
      '共识权益奖励',
      '后台充值',
    ])
    const amounts = rows.map((row) => within(row).getByTestId('account-log-amount'))
    expect(amounts.map((el) => el.textContent)).toEqual(['-25.5 USDT', '+1.25 HOPE', '+500 USDT'])
    expect(amounts[0]?.className).toContain('log-row__amount--out')
    expect(amounts[1]?.className).not.toContain('--out')
    expect(within(rows[0]!).getByText('可用 474.5 USDT')).toBeTruthy()
    expect(within(rows[0]!).getByText('对方 0x7099******dc79c8')).toBeTruthy()
    expect(within(rows[1]!).getByText('社区账户')).toBeTruthy()
    expect(screen.getByText('没有更多了')).toBeTruthy()
  })

  test('loads the next page with the cursor', async () => {
    // InfiniteScroll loads when it is laid out near the bottom; jsdom lays nothing out.
    vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body)
    const api = fakeApi({
      'userAccount/balanceDetail': ({ params }) =>
        params.cursor === '41'
          ? ok({ list: [logEntry(40), logEntry(39)], nextCursor: null })
          : ok({ list: [logEntry(42), logEntry(41)], nextCursor: '41' }),
    })
    renderLog()
    await waitFor(() => expect(screen.getAllByTestId('account-log-item')).toHaveLength(4))
    const calls = api.callsTo('userAccount/balanceDetail').map((call) => call.params)
    expect(calls).toEqual([{ pageSize: '20' }, { pageSize: '20', cursor: '41' }])
  })

  test('filters from the link, and changed filters go back into it', async () => {
    const api = fakeApi({
      'userAccount/balanceDetail': () => ok({ list: [], nextCursor: null }),
    })
    renderLog('/accountLog?account=usdt&logType=9')
    expect(await screen.findByText('暂无记录')).toBeTruthy()
    expect(api.calls[0]?.params).toEqual({ pageSize: '20', account: 'usdt', logType: '9' })
    expect(screen.getByRole('tab', { name: 'USDT 账户' }).getAttribute('aria-selected')).toBe(
      'true',
    )

    await userEvent.click(screen.getByRole('tab', { name: '节点账户' }))
    await waitFor(() =>
      expect(api.calls.at(-1)?.params).toEqual({ pageSize: '20', account: 'node', logType: '9' }),
    )
    expect(screen.getByTestId('search').textContent).toBe('?account=node&logType=9')

    // The type chosen in the link names the type button.
    await userEvent.click(screen.getByRole('button', { name: '内部转账' }))
    // The popup's opening animation does not run in jsdom, so click the option directly.
    fireEvent.click(await screen.findByRole('button', { name: '全部类型' }))
    await waitFor(() =>
      expect(api.calls.at(-1)?.params).toEqual({ pageSize: '20', account: 'node' }),
    )
    await userEvent.click(screen.getByRole('tab', { name: '全部' }))
    await waitFor(() => expect(api.calls.at(-1)?.params).toEqual({ pageSize: '20' }))
    expect(screen.getByTestId('search').textContent).toBe('')
  })

  test('lists every log type a line can show to filter by (a withdrawal is type 1)', async () => {
    fakeApi({ 'userAccount/balanceDetail': () => ok({ list: [], nextCursor: null }) })
    renderLog()
    await userEvent.click(await screen.findByRole('button', { name: '全部类型' }))
    const options = await screen.findAllByTestId(/^account-log-type-option-/)
    expect(options).toHaveLength(16)
    expect(screen.queryByTestId('account-log-type-option-13')).toBeNull()
    expect(options.at(-1)?.textContent).toBe('共识入场')
  })

  test("a withdrawal's lines name their part and status, and every line its balance after", async () => {
    fakeApi({
      'userAccount/balanceDetail': () =>
        ok({
          list: [
            logEntry(7, {
              amount: '-12',
              logType: 1,
              status: 'pending',
              withdrawal: 'amount',
              balanceAfter: '68',
            }),
            logEntry(6, { amount: '1', logType: 1, withdrawal: 'feeRefund', balanceAfter: '80' }),
            logEntry(5, {
              amount: '10',
              logType: 1,
              withdrawal: 'amountRefund',
              balanceAfter: '79',
            }),
            logEntry(4, {
              amount: '-1',
              logType: 14,
              status: 'refunded',
              withdrawal: 'fee',
              balanceAfter: '69',
            }),
            logEntry(3, {
              amount: '-10',
              logType: 1,
              status: 'refunded',
              withdrawal: 'amount',
              balanceAfter: '70',
            }),
            logEntry(2, { amount: '-20', logType: 1, withdrawal: 'amount', balanceAfter: '80' }),
            logEntry(1, { amount: '100', logType: 5, balanceAfter: '100' }),
          ],
          nextCursor: null,
        }),
    })
    renderLog('/accountLog?account=usdt')
    const rows = await screen.findAllByTestId('account-log-item')
    const each = (testId: string) =>
      rows.map((row) => within(row).queryByTestId(testId)?.textContent ?? null)
    expect(each('account-log-type')).toEqual([
      '提现',
      '手续费退回',
      '提现退回',
      '提现手续费',
      '提现',
      '提现',
      '后台充值',
    ])
    expect(each('account-log-status')).toEqual([
      '处理中',
      null,
      null,
      '已退回',
      '已退回',
      '已完成',
      null,
    ])
    expect(each('account-log-balance')).toEqual([
      '可用 68 USDT',
      '可用 80 USDT',
      '可用 79 USDT',
      '可用 69 USDT',
      '可用 70 USDT',
      '可用 80 USDT',
      '可用 100 USDT',
    ])
    expect(within(rows[0]!).getByTestId('account-log-amount').className).toContain('--held')
  })

  test('speaks every language: the statuses in English', async () => {
    await setLanguage('en')
    try {
      fakeApi({
        'userAccount/balanceDetail': () =>
          ok({
            list: [logEntry(1, { amount: '-12', logType: 1, status: 'pending' })],
            nextCursor: null,
          }),
      })
      renderLog()
      expect(await screen.findByText('Processing')).toBeTruthy()
    } finally {
      await setLanguage('zhcn')
    }
  })
})
