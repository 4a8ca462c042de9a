import type { DirectMember } from '@hope/api'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { formatDateTime } from '../../lib/format/format.ts'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { fail, fakeApi, ok, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { directMember, teamStats } from '../../../test-support/team-fixtures.ts'
import { TeamPage } from './team-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const page = (list: DirectMember[], pageNum = 1, total = list.length) =>
  ok({ list, total, pageNum, pageSize: 20 })

function serve(
  replies: { stats?: () => Reply; members?: (call: ApiCall) => Reply } = {},
): ReturnType<typeof fakeApi> {
  return fakeApi({
    'game/groupTj': replies.stats ?? (() => ok(teamStats())),
    'game/groupZt': replies.members ?? (() => page([directMember(2), directMember(1)])),
  })
}

function renderTeam() {
  render(
    <MemoryRouter initialEntries={['/team']}>
      <QueryScope>
        <TeamPage />
      </QueryScope>
    </MemoryRouter>,
  )
}

const text = (testId: string) => screen.getByTestId(testId).textContent
/** The value a fact list shows under its label. */
const fact = (label: string, scope: Pick<typeof screen, 'getByText'> = screen) =>
  scope.getByText(label).nextElementSibling?.textContent

describe('team page', () => {
  beforeAll(() => Promise.all([loadNamespace('team'), loadNamespace('invite')]))
  beforeEach(() => queryClient.clear())
  afterEach(() => setLanguage('zhcn'))

  test('shows the team totals and the rank', async () => {
    serve()
    renderTeam()
    expect((await screen.findByTestId('team-people')).textContent).toBe('37')
    expect(fact('直推人数')).toBe('5')
    expect(fact('共识业绩 (USDT)')).toBe('911,000')
    expect(fact('社区业绩 (USDT)')).toBe('2,300.5')
    expect(fact('当前等级')).toBe('蓝石')
    expect(screen.getByText('计入等级的小区业绩：11,000 USDT')).toBeTruthy()
  })

  test('each partition with its people and performance; the strongest does not count', async () => {
    serve()
    renderTeam()
    await screen.findByTestId('team-partition-1')
    const cards = [1, 2, 3].map((n) => screen.getByTestId(`team-partition-${n}`))
    expect(cards.map((card) => card.dataset.major)).toEqual(['false', 'true', 'false'])
    expect(cards.map((card) => within(card).getByTestId('team-partition-tag').textContent)).toEqual(
      ['小区 · 计入', '大区 · 不计入', '小区 · 计入'],
    )
    const central = within(cards[1] as HTMLElement)
    expect(central.getByText('中区')).toBeTruthy()
    expect(fact('人数', central)).toBe('20')
    expect(fact('共识业绩', central)).toBe('900,000')
    expect(fact('社区业绩', central)).toBe('1,500.5')
  })

  test('a team without performance has no strongest partition', async () => {
    const none = { people: 0, consensus: '0', community: '0' }
    serve({
      stats: () =>
        ok(
          teamStats({
            people: 0,
            rank: 0,
            rankPerformance: '0',
            partitions: [
              { location: 1, ...none },
              { location: 2, ...none },
              { location: 3, ...none },
            ],
          }),
        ),
    })
    renderTeam()
    await screen.findByTestId('team-partition-1')
    expect(screen.getAllByTestId(/^team-partition-\d$/).map((c) => c.dataset.major)).toEqual([
      'false',
      'false',
      'false',
    ])
    expect(fact('当前等级')).toBe('无等级')
  })

  test('lists my direct members with masked address, level, partition and performance', async () => {
    serve({
      members: () =>
        page([
          directMember(2, { level: 7, location: 3, teamPeople: 0, consensus: '0' }),
          directMember(1),
        ]),
    })
    renderTeam()
    const rows = await screen.findAllByTestId('team-member')
    expect(rows).toHaveLength(2)
    const [first, second] = rows.map((row) => within(row))
    expect(first?.getByTestId('team-member-address').textContent).toBe('0x0002******34abcd')
    expect(first?.getByTestId('team-member-level').textContent).toBe('至尊会员')
    expect(fact('所在分区', first)).toBe('右区')
    expect(fact('团队人数', first)).toBe('0')
    expect(second?.getByTestId('team-member-level').textContent).toBe('黄金会员')
    expect(fact('所在分区', second)).toBe('中区')
    expect(fact('团队人数', second)).toBe('1,250')
    expect(fact('共识业绩', second)).toBe('12,345.6 USDT')
    expect(second?.getByText(`${formatDateTime('2026-03-01T08:30:00Z', 'zhcn')} 加入`)).toBeTruthy()
  })

  test('pages on with pageNum as the list scrolls to its end', async () => {
    vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body)
    const api = serve({
      members: ({ params }) =>
        params.pageNum === '2'
          ? page([directMember(1)], 2, 21)
          : page(
              Array.from({ length: 20 }, (_, i) => directMember(21 - i)),
              1,
              21,
            ),
    })
    renderTeam()
    await waitFor(() => expect(screen.getAllByTestId('team-member')).toHaveLength(21))
    expect(api.callsTo('game/groupZt').map((call) => call.params)).toEqual([
      { pageNum: '1', pageSize: '20' },
      { pageNum: '2', pageSize: '20' },
    ])
    expect(await screen.findByText('没有更多了')).toBeTruthy()
  })

  test('no direct members yet', async () => {
    serve({ members: () => page([]) })
    renderTeam()
    expect(await screen.findByText('暂无直推成员')).toBeTruthy()
  })

  test('totals that failed offer a retry, the member list still shows', async () => {
    let reachable = false
    const api = serve({
      stats: () => (reachable ? ok(teamStats()) : fail(500, 'internal_error', '系统错误')),
    })
    renderTeam()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    expect(await screen.findAllByTestId('team-member')).toHaveLength(2)
    reachable = true
    await userEvent.click(retry)
    expect((await screen.findByTestId('team-people')).textContent).toBe('37')
    expect(api.callsTo('game/groupTj')).toHaveLength(2)
  })

  test('numbers and names follow the language', async () => {
    await setLanguage('vi')
    serve()
    renderTeam()
    expect((await screen.findByTestId('team-consensus')).textContent).toBe('911.000')
    expect(fact('Doanh số cộng đồng (USDT)')).toBe('2.300,5')
    expect(text('team-rank')).toBe('Đá Xanh')
    expect(
      within(screen.getByTestId('team-partition-2')).getByTestId('team-partition-tag').textContent,
    ).toBe('Khu lớn · không tính')
    const [row] = await screen.findAllByTestId('team-member')
    expect(fact('Số người trong đội', within(row as HTMLElement))).toBe('1.250')
    expect(fact('Khu', within(row as HTMLElement))).toBe('Khu giữa')
  })
})
