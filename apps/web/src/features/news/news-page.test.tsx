import type { NewsItem } from '@hope/api'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route } from 'react-router'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok, type ApiCall } from '../../test/fake-api.ts'
import { renderRoutes } from '../../../test-support/routes.tsx'
import { NewsDetailPage } from './news-detail-page.tsx'
import { NewsPage } from './news-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const item = (id: number, type: 1 | 2 = 1, changes: Partial<NewsItem> = {}): NewsItem => ({
  id,
  type,
  title: `标题 ${id}`,
  summary: `摘要 ${id}`,
  content: `正文 ${id}`,
  image: '',
  lang: 'zhcn',
  publishedAt: '2025-11-21T08:30:00Z',
  ...changes,
})

/** Pages of `total` articles of the asked type, ids counting down. */
function newsOf(total: number) {
  return (call: ApiCall) => {
    const pageNum = Number(call.params.pageNum)
    const pageSize = Number(call.params.pageSize)
    const type = Number(call.params.type) as 1 | 2
    const ids = Array.from({ length: total }, (_, i) => type * 100 + total - i)
    const list = ids.slice((pageNum - 1) * pageSize, pageNum * pageSize).map((id) => item(id, type))
    return ok({ list, total, pageNum, pageSize })
  }
}

function renderNews(entry: string) {
  renderRoutes(
    entry,
    <>
      <Route path="/news" element={<NewsPage />} />
      <Route path="/news/:id" element={<NewsDetailPage />} />
    </>,
  )
}

describe('news', () => {
  beforeAll(() => loadNamespace('content'))
  afterEach(() => {
    queryClient.clear()
    vi.mocked(showToast).mockClear()
  })

  test('lists announcements first, and industry news on its tab', async () => {
    const api = fakeApi({ 'main/news': newsOf(2) })
    renderNews('/news')
    const tab = screen.getByRole('tab', { name: '平台公告' })
    expect(tab.getAttribute('aria-selected')).toBe('true')
    const items = await screen.findAllByTestId('news-item')
    expect(items.map((el) => el.textContent)).toEqual([
      expect.stringContaining('标题 102'),
      expect.stringContaining('标题 101'),
    ])
    expect(api.callsTo('main/news')[0]?.params).toEqual({ pageNum: '1', pageSize: '10', type: '1' })

    await userEvent.click(screen.getByRole('tab', { name: '行业资讯' }))
    await waitFor(() =>
      expect(screen.getAllByTestId('news-item')[0]?.textContent).toContain('标题 202'),
    )
    expect(screen.getByTestId('where').textContent).toBe('/news?type=industry')
    expect(api.callsTo('main/news').at(-1)?.params.type).toBe('2')
  })

  test('pages through a long list', async () => {
    // jsdom lays nothing out; the list's end counts as on screen, as on a phone's short list.
    vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body)
    const api = fakeApi({ 'main/news': newsOf(13) })
    renderNews('/news')
    await waitFor(() => expect(screen.getAllByTestId('news-item')).toHaveLength(13), {
      timeout: 3000,
    })
    expect(api.callsTo('main/news').map((c) => c.params.pageNum)).toEqual(['1', '2'])
    expect(screen.getByText('没有更多了')).toBeTruthy()
  })

  test('a page that fails to load offers a retry at the end of the list', async () => {
    vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body)
    let failSecond = true
    const pages = newsOf(13)
    fakeApi({
      'main/news': (call) =>
        call.params.pageNum === '2' && failSecond ? fail(503, 'service_unavailable') : pages(call),
    })
    renderNews('/news')
    const retry = await screen.findByRole(
      'button',
      { name: '加载失败，点击重试' },
      { timeout: 3000 },
    )
    expect(screen.getAllByTestId('news-item')).toHaveLength(10)
    failSecond = false
    await userEvent.click(retry)
    await waitFor(() => expect(screen.getAllByTestId('news-item')).toHaveLength(13))
  })

  test('an article opens on its own screen', async () => {
    const api = fakeApi({
      'main/news': newsOf(1),
      'main/newInfo': (call) => ok(item(Number(call.params.id), 1, { content: '全文内容' })),
    })
    renderNews('/news')
    await userEvent.click(await screen.findByRole('button', { name: /标题 101/ }))
    expect(await screen.findByRole('heading', { name: '标题 101' })).toBeTruthy()
    expect(within(screen.getByTestId('news-detail')).getByText('全文内容')).toBeTruthy()
    expect(screen.getByTestId('where').textContent).toBe('/news/101')
    expect(api.callsTo('main/newInfo')[0]?.params).toEqual({ id: '101' })
  })

  test('an article in Chinese for want of the reader’s language says so to the browser', async () => {
    fakeApi({ 'main/newInfo': () => ok(item(7, 1, { lang: 'zhcn' })) })
    renderNews('/news/7')
    expect((await screen.findByTestId('news-detail')).getAttribute('lang')).toBe('zh-CN')
  })

  test('an untranslated article says so, in the list and on its screen; a translated one does not', async () => {
    await setLanguage('en')
    try {
      fakeApi({
        'main/news': () =>
          ok({
            list: [item(2, 1, { title: 'In English', lang: 'en' }), item(1, 1, { lang: 'zhcn' })],
            total: 2,
            pageNum: 1,
            pageSize: 10,
          }),
        'main/newInfo': () => ok(item(1, 1, { lang: 'zhcn' })),
      })
      renderNews('/news')
      const [english, chinese] = await screen.findAllByTestId('news-item')
      const note = 'Not yet translated · shown in Chinese'
      expect(within(english!).queryByText(note)).toBeNull()
      expect(within(chinese!).getByText(note)).toBeTruthy()
      await userEvent.click(screen.getByRole('button', { name: /标题 1/ }))
      const article = await screen.findByTestId('news-detail')
      expect(within(article).getByText(note)).toBeTruthy()
    } finally {
      await setLanguage('zhcn')
    }
  })

  test('in Chinese nothing is untranslated', async () => {
    fakeApi({ 'main/news': newsOf(1) })
    renderNews('/news')
    await screen.findByTestId('news-item')
    expect(screen.queryByTestId('untranslated-note')).toBeNull()
  })

  test('an old link with ?id= goes to the article', async () => {
    fakeApi({ 'main/news': newsOf(1), 'main/newInfo': () => ok(item(5)) })
    renderNews('/news?id=5')
    expect(await screen.findByRole('heading', { name: '标题 5' })).toBeTruthy()
    expect(screen.getByTestId('where').textContent).toBe('/news/5')
  })

  test('an unknown article says it is not there, without an error toast', async () => {
    fakeApi({ 'main/newInfo': () => fail(404, 'not_found', '请求的接口不存在') })
    renderNews('/news/404')
    expect(await screen.findByText('该资讯不存在或已下线')).toBeTruthy()
    expect(showToast).not.toHaveBeenCalled()
  })

  test('says so when there is no news', async () => {
    fakeApi({ 'main/news': newsOf(0) })
    renderNews('/news')
    expect(await screen.findByText('暂无资讯')).toBeTruthy()
  })
})
