import type { Ranking, RankingKind } from '@hope/api'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, useLocation } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { formatDateTime } from '../../lib/format/format.ts'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { fail, fakeApi, ok, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { RankingPage } from './ranking-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

function ranking(kind: RankingKind, over: Partial<Ranking> = {}): Ranking {
  const inviters = kind === 'inviters'
  return {
    kind,
    day: '2031-05-10',
    utcOffsetMinutes: 480,
    takenAt: '2031-05-10T00:05:00.000Z',
    refreshMinutes: 60,
    list: [
      {
        rank: 1,
        address: '0xaaaa******aaaaaa',
        value: inviters ? '1204' : '1250000.5',
        mine: false,
      },
      { rank: 2, address: '0xbbbb******bbbbbb', value: inviters ? '37' : '98000', mine: true },
      { rank: 3, address: '0xcccc******cccccc', value: inviters ? '37' : '500', mine: false },
      { rank: 4, address: '0xdddd******dddddd', value: inviters ? '2' : '100', mine: false },
    ],
    myRank: 2,
    ...over,
  }
}

function serve(
  reply: (call: ApiCall) => Reply = (call) => ok(ranking(call.params.kind as RankingKind)),
) {
  return fakeApi({ 'main/ranking': reply })
}

function Search() {
  return <p data-testid="search">{useLocation().search}</p>
}

function renderRanking(entry = '/ranking') {
  render(
    <MemoryRouter initialEntries={[entry]}>
      <QueryScope>
        <RankingPage />
        <Search />
      </QueryScope>
    </MemoryRouter>,
  )
}

const texts = (testId: string) => screen.getAllByTestId(testId).map((el) => el.textContent)

describe('ranking page', () => {
  beforeAll(() => loadNamespace('ranking'))
  beforeEach(() => queryClient.clear())
  afterEach(() => setLanguage('zhcn'))

  test('top inviters: place, masked address and invitations, my own place highlighted', async () => {
    const api = serve()
    renderRanking()
    expect(screen.getByTestId('screen-ranking')).toBeTruthy()
    const rows = await screen.findAllByTestId('ranking-item')
    expect(texts('ranking-rank')).toEqual(['1', '2', '3', '4'])
    expect(texts('ranking-address')).toEqual([
      '0xaaaa******aaaaaa',
      '0xbbbb******bbbbbb',
      '0xcccc******cccccc',
      '0xdddd******dddddd',
    ])
    expect(texts('ranking-value')).toEqual(['1,204', '37', '37', '2'])
    expect(rows.map((row) => row.dataset.mine)).toEqual(['false', 'true', 'false', 'false'])
    expect(rows[1]!.className).toContain('ranking-item--mine')
    expect(rows[1]!.getAttribute('aria-current')).toBe('true')
    expect(within(rows[1]!).getByText('我')).toBeTruthy()
    expect(screen.getByText('榜单日期 2031年5月10日 (UTC+8)')).toBeTruthy()
    expect(
      screen.getByText(
        `更新于 ${formatDateTime('2031-05-10T00:05:00.000Z', 'zhcn')} · 每 60 分钟更新`,
      ),
    ).toBeTruthy()
    expect(screen.getByText('我的排名：第 2 名')).toBeTruthy()
    expect(screen.getByRole('tab', { name: '邀请排行' }).getAttribute('aria-selected')).toBe('true')
    expect(api.callsTo('main/ranking').map((c) => c.params)).toEqual([
      { kind: 'inviters', pageSize: '50' },
    ])
  })

  test('the performance tab shows team performance in USDT and stays in the link', async () => {
    const api = serve()
    renderRanking()
    await screen.findAllByTestId('ranking-item')
    await userEvent.click(screen.getByRole('tab', { name: '业绩排行' }))
    await waitFor(() =>
      expect(texts('ranking-value')).toEqual([
        '1,250,000.5 USDT',
        '98,000 USDT',
        '500 USDT',
        '100 USDT',
      ]),
    )
    expect(screen.getByTestId('search').textContent).toBe('?kind=performance')
    expect(screen.getByRole('tab', { name: '业绩排行' }).getAttribute('aria-selected')).toBe('true')
    expect(api.callsTo('main/ranking').map((c) => c.params.kind)).toEqual([
      'inviters',
      'performance',
    ])
  })

  test('a link opens the tab it names', async () => {
    serve()
    renderRanking('/ranking?kind=performance')
    await screen.findAllByTestId('ranking-item')
    expect(screen.getByRole('tab', { name: '业绩排行' }).getAttribute('aria-selected')).toBe('true')
    expect(texts('ranking-value')[0]).toBe('1,250,000.5 USDT')
  })

  test('not on the list: no highlight, and it says so', async () => {
    serve((call) =>
      ok(
        ranking(call.params.kind as RankingKind, {
          myRank: null,
          list: ranking('inviters').list.map((i) => ({ ...i, mine: false })),
        }),
      ),
    )
    renderRanking()
    const rows = await screen.findAllByTestId('ranking-item')
    expect(rows.some((row) => row.dataset.mine === 'true')).toBe(false)
    expect(screen.getByText('我暂未上榜')).toBeTruthy()
  })

  test('an empty ranking says nobody is ranked', async () => {
    serve((call) => ok(ranking(call.params.kind as RankingKind, { list: [], myRank: null })))
    renderRanking()
    expect(await screen.findByText('暂无上榜成员')).toBeTruthy()
    expect(screen.queryAllByTestId('ranking-item')).toHaveLength(0)
  })

  test('a failed load offers a retry', async () => {
    let failing = true
    serve((call) =>
      failing ? fail(500, 'internal_error') : ok(ranking(call.params.kind as RankingKind)),
    )
    renderRanking()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    failing = false
    await userEvent.click(retry)
    expect(await screen.findAllByTestId('ranking-item')).toHaveLength(4)
  })

  test('in English', async () => {
    await setLanguage('en')
    serve()
    renderRanking()
    await screen.findAllByTestId('ranking-item')
    expect(screen.getByRole('tab', { name: 'Top inviters' })).toBeTruthy()
    expect(screen.getByText('My place: No. 2')).toBeTruthy()
  })
})
