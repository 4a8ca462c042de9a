import type { NewsItem } from '@hope/api'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { queryClient, QueryScope } from '../../lib/query-scope.tsx'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { NewsPage } from './news-page.tsx'

vi.mock('../../lib/toast.ts', () => ({ showToast: vi.fn() }))

const item = (id: number): NewsItem => ({
  id,
  type: 1,
  title: `标题 ${id}`,
  summary: `摘要 ${id}`,
  content: `正文 ${id}`,
  image: '',
  publishedAt: '2025-11-21T08:30:00Z',
})

function renderNews(entry = '/news') {
  render(
    <MemoryRouter initialEntries={[entry]}>
      <QueryScope>
        <NewsPage />
      </QueryScope>
    </MemoryRouter>,
  )
}

describe('news page', () => {
  afterEach(() => queryClient.clear())

  test('lists the news from main/news and opens one', async () => {
    const api = fakeApi({
      'main/news': () => ok({ list: [item(2), item(1)], total: 2, pageNum: 1, pageSize: 10 }),
    })
    renderNews()
    const items = await screen.findAllByTestId('news-item')
    expect(items.map((el) => el.textContent)).toEqual([
      expect.stringContaining('标题 2'),
      expect.stringContaining('标题 1'),
    ])
    expect(api.callsTo('main/news')[0]?.params).toEqual({ pageNum: '1', pageSize: '10' })
    await userEvent.click(items[1] as HTMLElement)
    expect((await screen.findByTestId('news-detail')).textContent).toContain('正文 1')
  })

  test('opens the item named in the link', async () => {
    fakeApi({ 'main/news': () => ok({ list: [item(5)], total: 1, pageNum: 1, pageSize: 10 }) })
    renderNews('/news?id=5')
    expect((await screen.findByTestId('news-detail')).textContent).toContain('正文 5')
  })

  test('says so when there is no news', async () => {
    fakeApi({ 'main/news': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 10 }) })
    renderNews()
    expect((await screen.findByTestId('news-empty')).textContent).toBe('暂无资讯')
  })
})
