import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok, type Reply } from '../../test/fake-api.ts'
import { balanceList } from '../../../test-support/fixtures.ts'
import { CommunityPage } from './community-page.tsx'
import { renderAt } from '../../test/render-at.tsx'
import { earnings, teamStats } from '../../../test-support/team-fixtures.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

function serve(replies: { stats?: () => Reply; earnings?: () => Reply } = {}) {
  return fakeApi({
    'userAccount/balance': () =>
      ok(
        balanceList({
          community: { balance: '1234567.123456789012345678', valueUsdt: '123456.712345' },
        }),
      ),
    'game/groupTj': replies.stats ?? (() => ok(teamStats())),
    'game/earnings': replies.earnings ?? (() => ok(earnings())),
  })
}

function renderCommunity() {
  renderAt('/community', <CommunityPage />, { withSearch: true })
}

const text = (testId: string) => screen.getByTestId(testId).textContent
/** The value a fact list shows under its label. */
const fact = (label: string, scope: Pick<typeof screen, 'getByText'>) =>
  scope.getByText(label).nextElementSibling?.textContent

describe('community page', () => {
  beforeAll(() => loadNamespace('team'))
  beforeEach(() => {
    queryClient.clear()
    vi.mocked(showToast).mockClear()
  })
  afterEach(() => setLanguage('zhcn'))

  test('shows the community HOPE and its USDT value', async () => {
    serve()
    renderCommunity()
    await screen.findByTestId('community-balance')
    expect(fact('社区账户 (HOPE)', screen)).toBe('1,234,567.123456')
    expect(screen.getByText('≈ 123,456.712345 USDT')).toBeTruthy()
  })

  test('shows my rank and how far the counted performance is from the next', async () => {
    serve()
    renderCommunity()
    expect((await screen.findByTestId('community-rank')).textContent).toBe('蓝石')
    expect(text('community-rank-performance')).toBe('11,000 USDT')
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('22')
    expect(screen.getByText('再增加 39,000 USDT 小区业绩即可升至黑铁')).toBeTruthy()
    expect(screen.getByText('11,000 / 50,000 USDT')).toBeTruthy()
  })

  test('at the top rank it says so with a full bar', async () => {
    serve({ stats: () => ok(teamStats({ rank: 5, rankPerformance: '6000000' })) })
    renderCommunity()
    expect((await screen.findByTestId('community-rank')).textContent).toBe('王者')
    expect(screen.getByText('已达最高等级')).toBeTruthy()
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')
    expect(screen.queryByTestId('community-rank-amounts')).toBeNull()
  })

  test('lists each reward with its name, today and total in its currency', async () => {
    serve()
    renderCommunity()
    const card = within(await screen.findByTestId('community-earnings'))
    expect(card.getByText('结算日 2026年3月1日 (UTC+8)')).toBeTruthy()
    const rows = card.getAllByTestId(/^earning-\d+$/)
    expect(rows.map((row) => row.dataset.testid)).toEqual([
      'earning-7',
      'earning-8',
      'earning-11',
      'earning-4',
      'earning-3',
      'earning-10',
    ])
    expect(rows.map((row) => row.querySelector('.team-earning__name')?.textContent)).toEqual([
      '共识权益奖励',
      '社区奖励',
      '社区权益奖励',
      '拆分奖励',
      '质押兑换',
      '节点奖励',
    ])
    const consensus = within(screen.getByTestId('earning-7'))
    expect(fact('今日', consensus)).toBe('12.123456 HOPE')
    expect(fact('累计', consensus)).toBe('1,234.5 HOPE')
    const node = within(screen.getByTestId('earning-10'))
    expect(fact('今日', node)).toBe('15.5 USDT')
    expect(fact('累计', node)).toBe('1,500 USDT')
  })

  test('numbers and names follow the language', async () => {
    await setLanguage('vi')
    serve()
    renderCommunity()
    expect((await screen.findByTestId('community-balance')).textContent).toBe('1.234.567,123456')
    expect((await screen.findByTestId('community-rank')).textContent).toBe('Đá Xanh')
    expect(screen.getByText('Cần thêm 39.000 USDT doanh số được tính để lên Sắt Đen')).toBeTruthy()
    const node = within(await screen.findByTestId('earning-10'))
    expect(fact('Tích lũy', node)).toBe('1.500 USDT')
    expect(node.getByText('Thưởng nút')).toBeTruthy()
  })

  test('shows skeletons while loading', async () => {
    serve({ stats: () => new Promise(() => {}), earnings: () => new Promise(() => {}) })
    renderCommunity()
    expect(screen.getByTestId('community-balance-skeleton')).toBeTruthy()
    await screen.findByTestId('community-balance')
    expect(screen.getByTestId('community-rank-skeleton')).toBeTruthy()
    expect(screen.getByTestId('community-earnings-skeleton')).toBeTruthy()
  })

  test('a part that failed offers a retry; the rest of the screen stays', async () => {
    let reachable = false
    const api = serve({
      earnings: () => (reachable ? ok(earnings()) : fail(500, 'internal_error', '系统错误')),
    })
    renderCommunity()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    expect(vi.mocked(showToast).mock.calls).toEqual([['系统错误']])
    expect(screen.getByTestId('community-rank').textContent).toBe('蓝石')
    expect(screen.getByRole('button', { name: '团队与业务中心' })).toBeTruthy()
    reachable = true
    await userEvent.click(retry)
    expect(await screen.findByTestId('earning-7')).toBeTruthy()
    expect(api.callsTo('game/earnings')).toHaveLength(2)
  })

  test.each([
    ['团队与业务中心', '/team'],
    ['兑换', '/exchange'],
    ['质押记录', '/pledgeRecord'],
    ['拆分账户', '/split'],
    ['VIP 会员', '/vip'],
    ['股东与节点', '/holder'],
    ['激活账户', '/active'],
    ['社区明细', '/accountLog?account=community'],
  ])('the %s entry opens %s', async (name, path) => {
    serve()
    renderCommunity()
    await userEvent.click(await screen.findByRole('button', { name }))
    expect(text('where')).toBe(path)
  })
})
