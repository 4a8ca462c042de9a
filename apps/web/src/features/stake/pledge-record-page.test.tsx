import type { PledgeItem, StakePosition } from '@hope/api'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, test } from 'vitest'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { PledgeRecordPage } from './pledge-record-page.tsx'

const pledge = (id: number, changes: Partial<PledgeItem> = {}): PledgeItem => ({
  id,
  amount: '20.000000000000000000',
  released: '4.4',
  convertible: '15.6',
  releaseRate: '0.010000',
  redeemed: false,
  createdAt: '2026-03-01T08:30:00Z',
  ...changes,
})

const position = (id: number, changes: Partial<StakePosition> = {}): StakePosition => ({
  id,
  principal: '500',
  hope: '5000',
  price: '0.1',
  released: '125',
  cap: '1250',
  status: 'active',
  createdAt: '2026-03-01T08:30:00Z',
  ...changes,
})

function renderRecords(
  list: PledgeItem[],
  {
    positions = [],
    at = '/pledgeRecord?tab=pledges',
  }: { positions?: StakePosition[]; at?: string } = {},
) {
  const api = fakeApi({
    'game/stakeList': () => ok({ list, total: list.length, pageNum: 1, pageSize: 20 }),
    'game/myStake': () =>
      ok({ list: positions, total: positions.length, pageNum: 1, pageSize: 20 }),
  })
  render(
    <MemoryRouter initialEntries={[at]}>
      <QueryScope>
        <PledgeRecordPage />
      </QueryScope>
    </MemoryRouter>,
  )
  return api
}

/** The figure said under a label in one record ("累计释放" → "4.4 HOPE"). */
const figure = (label: string, row: HTMLElement) =>
  within(row).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

describe('pledge record', () => {
  afterEach(() => queryClient.clear())

  test('each pledge with its amount, releases, daily ratio and whether it is redeemed', async () => {
    renderRecords([pledge(2), pledge(1, { released: '20', convertible: '0', redeemed: true })])
    const rows = await screen.findAllByTestId('pledge-item')
    const first = within(rows[0] as HTMLElement)
    expect(first.getByTestId('pledge-item-amount').textContent).toBe('20 HOPE')
    expect(figure('累计释放', rows[0] as HTMLElement)).toBe('4.4 HOPE')
    expect(figure('待释放', rows[0] as HTMLElement)).toBe('15.6 HOPE')
    expect(figure('释放比例', rows[0] as HTMLElement)).toBe('1% / 天')
    const statuses = rows.map((row) => within(row).getByTestId('pledge-item-status'))
    expect(statuses.map((el) => el.textContent)).toEqual(['未赎回', '已赎回'])
    expect(statuses.map((el) => el.dataset.tone)).toEqual(['moving', 'done'])
  })

  test('opens at the consensus positions, each with what it paid, bought, released and whether it is out; the pledges are a tab away', async () => {
    renderRecords([pledge(1)], {
      at: '/pledgeRecord',
      positions: [position(2), position(1, { released: '1250', status: 'out' })],
    })
    const rows = await screen.findAllByTestId('stake-position')
    expect(screen.getByRole('tab', { name: '共识仓位' }).getAttribute('aria-selected')).toBe('true')
    expect(
      screen.getByText('每笔共识入场：投入的 USDT、买入的 HOPE、已释放与封顶，以及是否已出局。'),
    ).toBeTruthy()
    const first = within(rows[0] as HTMLElement)
    expect(first.getByTestId('stake-position-principal').textContent).toBe('500 USDT')
    expect(figure('HOPE 数量', rows[0] as HTMLElement)).toBe('5,000 HOPE')
    expect(figure('已释放 / 上限', rows[0] as HTMLElement)).toBe('125 / 1,250 USDT')
    expect(rows.map((row) => within(row).getByTestId('stake-position-status').textContent)).toEqual(
      ['释放中', '已出局'],
    )
    expect(screen.queryByTestId('pledge-item')).toBeNull()

    await userEvent.click(screen.getByRole('tab', { name: '兑换质押' }))
    expect(await screen.findAllByTestId('pledge-item')).toHaveLength(1)
    expect(screen.queryByTestId('stake-position')).toBeNull()
  })

  test('asks for the first page and says when there is nothing', async () => {
    const api = renderRecords([])
    expect(await screen.findByText('暂无质押记录')).toBeTruthy()
    expect(api.callsTo('game/stakeList')[0]?.params).toMatchObject({ pageNum: '1', pageSize: '20' })
  })
})
