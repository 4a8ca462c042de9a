import type { SchoolItem } from '@hope/api'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route } from 'react-router'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { renderRoutes } from '../../../test-support/routes.tsx'
import { SchoolDetailPage } from './school-detail-page.tsx'
import { SchoolPage } from './school-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const COVER = `/uploads/${'d1'.repeat(32)}.jpg`
const VIDEO = `/uploads/${'e2'.repeat(32)}.mp4`

const video: SchoolItem = {
  id: 3,
  kind: 'video',
  title: '三分钟了解共识质押',
  summary: '视频摘要',
  cover: COVER,
  videoUrl: VIDEO,
  content: '视频说明',
  lang: 'zhcn',
  publishedAt: '2026-05-01T08:00:00Z',
}
const article: SchoolItem = {
  ...video,
  id: 2,
  kind: 'article',
  title: 'HOPE 新手指南',
  videoUrl: null,
  content: '1. 连接钱包\n2. 签名登录',
}

function renderSchool(entry: string) {
  renderRoutes(
    entry,
    <>
      <Route path="/school" element={<SchoolPage />} />
      <Route path="/school/:id" element={<SchoolDetailPage />} />
    </>,
  )
}

describe('business school', () => {
  beforeAll(() => loadNamespace('content'))
  afterEach(() => {
    queryClient.clear()
    vi.mocked(showToast).mockClear()
  })

  test('lists articles and videos, and one kind on its tab', async () => {
    const api = fakeApi({
      'main/school': (call) => {
        const list = [video, article].filter(
          (s) => !call.params.kind || s.kind === call.params.kind,
        )
        return ok({ list, total: list.length, pageNum: 1, pageSize: 10 })
      },
    })
    renderSchool('/school')
    const items = await screen.findAllByTestId('school-item')
    expect(items.map((el) => el.textContent)).toEqual([
      expect.stringContaining('三分钟了解共识质押'),
      expect.stringContaining('HOPE 新手指南'),
    ])
    expect(within(items[0]!).getByLabelText('视频')).toBeTruthy()
    const cover = items[0]!.querySelector('img')!
    expect(cover.getAttribute('loading')).toBe('lazy')
    expect(cover.getAttribute('width')).toBe('120')
    expect(api.callsTo('main/school')[0]?.params).toEqual({ pageNum: '1', pageSize: '10' })

    await userEvent.click(screen.getByRole('tab', { name: '视频' }))
    await waitFor(() => expect(screen.getAllByTestId('school-item')).toHaveLength(1))
    expect(api.callsTo('main/school').at(-1)?.params.kind).toBe('video')
    expect(screen.getByTestId('where').textContent).toBe('/school?kind=video')
  })

  test('a video plays in the page, with its cover as the poster', async () => {
    fakeApi({
      'main/school': () => ok({ list: [video], total: 1, pageNum: 1, pageSize: 10 }),
      'main/schoolInfo': () => ok(video),
    })
    renderSchool('/school')
    await userEvent.click(await screen.findByRole('button', { name: /三分钟了解共识质押/ }))
    const detail = await screen.findByTestId('school-detail')
    const player = screen.getByTestId('school-video') as HTMLVideoElement
    expect(player.tagName).toBe('VIDEO')
    expect(player.getAttribute('src')).toBe(VIDEO)
    expect(player.getAttribute('poster')).toBe(COVER)
    expect(player.controls).toBe(true)
    expect(player.hasAttribute('playsinline')).toBe(true)
    expect(within(detail).getByText('视频说明')).toBeTruthy()
    expect(screen.getByTestId('where').textContent).toBe('/school/3')
  })

  test('an article shows its cover and text, and no player', async () => {
    fakeApi({ 'main/schoolInfo': () => ok(article) })
    renderSchool('/school/2')
    expect(await screen.findByRole('heading', { name: 'HOPE 新手指南' })).toBeTruthy()
    expect(screen.queryByTestId('school-video')).toBeNull()
    expect(within(screen.getByTestId('school-detail')).getByText(/2\. 签名登录/)).toBeTruthy()
  })

  test('an unknown item says it is not there, without an error toast', async () => {
    fakeApi({ 'main/schoolInfo': () => fail(404, 'not_found') })
    renderSchool('/school/99')
    expect(await screen.findByText('该内容不存在或已下线')).toBeTruthy()
    expect(showToast).not.toHaveBeenCalled()
  })
})
