import type { Recharge } from '@hope/api'
import { render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { fail, fakeApi, ok, type Reply } from '../../test/fake-api.ts'
import { RechargeRecordPage } from './recharge-record-page.tsx'
import { depositAddress } from '../../../test-support/fixtures.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const hash = (byte: string) => `0x${byte.repeat(32)}`
const recharge = (byte: string, changes: Partial<Recharge> = {}): Recharge => ({
  txHash: hash(byte),
  amount: '100.000000',
  status: 'credited',
  confirmations: 15,
  confirmationsRequired: 12,
  createdAt: '2026-03-01T08:30:00Z',
  ...changes,
})

function renderRecords(list: Recharge[], getAddress?: () => Reply) {
  const api = fakeApi({
    'userAccount/myRecharge': () => ok({ list, total: list.length, pageNum: 1, pageSize: 20 }),
    'userAccount/getAddress': getAddress ?? (() => ok(depositAddress())),
  })
  render(
    <MemoryRouter initialEntries={['/rechargeRecord']}>
      <QueryScope>
        <RechargeRecordPage />
      </QueryScope>
    </MemoryRouter>,
  )
  return api
}

describe('recharge records', () => {
  afterEach(() => queryClient.clear())

  test('amount, translated status, confirmations while on chain, hash with copy and explorer link', async () => {
    renderRecords([
      recharge('aa', { status: 'on_chain', amount: '25.5', confirmations: 3 }),
      recharge('bb'),
      recharge('cc', { status: 'failed', amount: null, confirmations: 0 }),
    ])
    const rows = await screen.findAllByRole('listitem')
    const text = (id: string) =>
      rows.map((row) => within(row).queryByTestId(id)?.textContent ?? null)
    expect(text('recharge-record-amount')).toEqual(['+25.5 USDT', '+100 USDT', '金额待确认'])
    expect(text('recharge-record-status')).toEqual(['链上确认中', '已到账', '充值失败'])
    expect(text('recharge-record-confirmations')).toEqual(['3/12', null, null])
    // Each hash masked on screen, whole in its title.
    expect(
      rows.map((row, i) => within(row).getByTitle(hash(['aa', 'bb', 'cc'][i]!)).textContent),
    ).toEqual(['0xaaaa******aaaaaa', '0xbbbb******bbbbbb', '0xcccc******cccccc'])
    expect(within(rows[1] as HTMLElement).getByRole('button', { name: '复制' })).toBeTruthy()
    const explorer = await within(rows[0] as HTMLElement).findByRole('link', { name: '浏览器查看' })
    expect(explorer.getAttribute('href')).toBe(`https://explorer.test/tx/${hash('aa')}`)
  })

  test('without a configured chain the records still show, without explorer links', async () => {
    renderRecords([recharge('aa')], () => fail(503, 'service_unavailable'))
    const row = await screen.findByRole('listitem')
    await waitFor(() => expect(queryClient.isFetching()).toBe(0))
    expect(within(row).getByTitle(hash('aa'))).toBeTruthy()
    expect(within(row).queryByRole('link', { name: '浏览器查看' })).toBeNull()
  })

  test('no records yet', async () => {
    renderRecords([])
    expect(await screen.findByText('暂无记录')).toBeTruthy()
    expect(screen.queryByRole('listitem')).toBeNull()
  })
})
