import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { fail, fakeApi, ok, type Reply } from '../../test/fake-api.ts'
import { balanceList } from '../../../test-support/fixtures.ts'
import { renderAt } from '../../test/render-at.tsx'
import { AssetsPage } from './assets-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

function renderAssets() {
  renderAt('/assets', <AssetsPage />, { withSearch: true })
}

/** An account's card, by the account's name its button starts with. */
const card = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) })
/** The figure said after a label ("可用" → "1,034.5"). */
const fact = (scope: HTMLElement, label: string) =>
  within(scope).getByText(label).nextElementSibling?.textContent
/** The figure said under a label of a list ("收益率" → "3%"). */
const figure = (label: string) =>
  screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

describe('assets page', () => {
  afterEach(() => queryClient.clear())

  test('shows the total and the five accounts from userAccount/balance', async () => {
    fakeApi({
      'userAccount/balance': () =>
        ok(
          balanceList({
            usdt: { balance: '1234.500000', available: '1034.5', pending: '200' },
            community: { balance: '1200.500000000000000000', available: '1200.5' },
          }),
        ),
    })
    renderAssets()
    expect((await screen.findByTestId('assets-total')).textContent).toBe('650.05')
    expect(screen.getByText('按 1 HOPE ≈ 0.1 USDT 估值')).toBeTruthy()
    const cards = screen.getAllByTestId(/^account-card-/)
    expect(cards.map((card) => card.dataset.testid)).toEqual([
      'account-card-usdt',
      'account-card-community',
      'account-card-shareholder',
      'account-card-node',
      'account-card-split',
    ])
    expect(cards.map((card) => card.querySelector('.account-card__name')?.textContent)).toEqual([
      'USDT 账户',
      '社区账户',
      '股东账户',
      '节点账户',
      '拆分账户',
    ])
    const [usdt, community, split] = [card('USDT 账户'), card('社区账户'), card('拆分账户')]
    expect(fact(usdt, '余额')).toBe('1,234.5')
    expect(fact(community, '余额')).toBe('1,200.5')
    expect(fact(usdt, '可用')).toBe('1,034.5')
    expect(fact(usdt, '冻结中')).toBe('200')
    expect(within(community).queryByText('冻结中')).toBeNull()
    expect(fact(community, '估值 (USDT)')).toBe('≈ 120.05')
    // The split account's HOPE is locked until released: nothing of it is available.
    expect(fact(split, '可用')).toBe('0')
    expect(fact(split, '锁定（每日释放）')).toBe('300')
    expect(within(community).queryByText('锁定（每日释放）')).toBeNull()
  })

  test('staked and pledged HOPE show beside the accounts and in the HOPE in all the proof counts', async () => {
    fakeApi({
      'userAccount/balance': () =>
        ok(balanceList({}, { stakedHope: '1000', pledgedHope: '100.5', totalValueUsdt: '760.1' })),
    })
    renderAssets()
    const held = (await screen.findByText('质押与待释放 HOPE')).closest('article') as HTMLElement
    expect(fact(held, '共识仓位中')).toBe('1,000')
    expect(fact(held, '质押待释放')).toBe('100.5')
    // 1,200.5 community + 300 split + 1,000 staked + 100.5 pledged
    expect(screen.getByText('HOPE 合计 2,601（与余额证明一致）')).toBeTruthy()
    expect(screen.getByTestId('assets-total').textContent).toBe('760.1')
  })

  test('without staked or pledged HOPE there is no card for them', async () => {
    fakeApi({ 'userAccount/balance': () => ok(balanceList()) })
    renderAssets()
    expect(await screen.findByText('HOPE 合计 1,500.5（与余额证明一致）')).toBeTruthy()
    expect(screen.queryByText('质押与待释放 HOPE')).toBeNull()
  })

  test('shows the account figures under the total', async () => {
    fakeApi({
      'userAccount/balance': () => ok(balanceList()),
      'userAccount/figures': () =>
        ok({ rateOfReturn: '3', tradingVolume: '100', totalVolume: '1100', asOf: null }),
    })
    renderAssets()
    const figures = await screen.findByTestId('assets-figures')
    expect(figures.previousElementSibling?.classList.contains('assets-summary')).toBe(true)
    await screen.findByText('收益率', { selector: 'dt' })
    expect(figure('收益率')).toBe('3%')
    expect(figure('总交易额 (USDT)')).toBe('1,100')
  })

  test('a card opens its account log', async () => {
    fakeApi({ 'userAccount/balance': () => ok(balanceList()) })
    renderAssets()
    await userEvent.click(await screen.findByRole('button', { name: /^拆分账户/ }))
    expect(screen.getByTestId('where').textContent).toBe('/accountLog?account=split')
  })

  test('the USDT card offers recharge, transfer and withdraw', async () => {
    fakeApi({ 'userAccount/balance': () => ok(balanceList()) })
    renderAssets()
    const usdt = within(await screen.findByTestId('account-card-usdt'))
    expect(usdt.getByRole('button', { name: '充值' })).toBeTruthy()
    expect(usdt.getByRole('button', { name: '提现' })).toBeTruthy()
    await userEvent.click(usdt.getByRole('button', { name: '转账' }))
    expect(screen.getByTestId('where').textContent).toBe('/transfer')
  })

  test('recharge opens from the USDT card', async () => {
    fakeApi({ 'userAccount/balance': () => ok(balanceList()) })
    renderAssets()
    const usdt = within(await screen.findByTestId('account-card-usdt'))
    await userEvent.click(usdt.getByRole('button', { name: '充值' }))
    expect(screen.getByTestId('where').textContent).toBe('/recharge')
  })

  test('a failed load offers a retry', async () => {
    let answer: Reply = fail(500, 'internal_error', '系统错误')
    const api = fakeApi({ 'userAccount/balance': () => answer })
    renderAssets()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    answer = ok(balanceList())
    await userEvent.click(retry)
    expect((await screen.findByTestId('assets-total')).textContent).toBe('650.05')
    expect(api.callsTo('userAccount/balance')).toHaveLength(2)
  })

  test('pulling the page down reads the balance again', async () => {
    let total = '650.05'
    const api = fakeApi({
      'userAccount/balance': () => ok(balanceList({}, { totalValueUsdt: total })),
    })
    renderAssets()
    expect((await screen.findByTestId('assets-total')).textContent).toBe('650.05')
    total = '700'
    const page = screen.getByTestId('assets-page')
    fireEvent.touchStart(page.firstElementChild as HTMLElement, { touches: [{ clientY: 100 }] })
    fireEvent.touchMove(page.firstElementChild as HTMLElement, { touches: [{ clientY: 400 }] })
    fireEvent.touchEnd(page.firstElementChild as HTMLElement, { touches: [] })
    await waitFor(() => expect(screen.getByTestId('assets-total').textContent).toBe('700'))
    expect(api.callsTo('userAccount/balance')).toHaveLength(2)
  })
})
