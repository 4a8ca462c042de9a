import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import { useSession } from '../../lib/store.ts'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { NOTICE_COUNT_REFRESH_MS } from './api/notices.ts'
import { NoticeBell } from './notice-bell.tsx'

const noticePage = (unread: number) =>
  ok({ list: [], total: unread, pageNum: 1, pageSize: 1, unread })

function renderBell(unread: () => number) {
  const api = fakeApi({ 'userAccount/notices': () => noticePage(unread()) })
  render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="/" element={<NoticeBell />} />
        <Route path="/notices" element={<p>notices screen</p>} />
      </Routes>
    </MemoryRouter>,
  )
  return api
}

const signIn = () => useSession.setState({ token: 'tok', tokenChecked: true })

describe('notice bell', () => {
  beforeEach(signIn)

  test('shows the unread count in a red badge, and says it', async () => {
    const api = renderBell(() => 3)
    const bell = await screen.findByRole('button', { name: '安全通知，3 条未读' })
    expect(within(bell).getByText('3')).toBeTruthy()
    expect(api.callsTo('userAccount/notices').map((call) => call.params)).toEqual([
      { pageNum: '1', pageSize: '1' },
    ])
  })

  test('no badge without unread notices', async () => {
    const api = renderBell(() => 0)
    await vi.waitFor(() => expect(api.callsTo('userAccount/notices')).toHaveLength(1))
    expect(screen.getByRole('button', { name: '安全通知' })).toBeTruthy()
    expect(screen.queryByTestId('notice-bell-count')).toBeNull()
  })

  test('more than 99 shows as 99+', async () => {
    renderBell(() => 120)
    const bell = await screen.findByRole('button', { name: '安全通知，120 条未读' })
    expect(within(bell).getByText('99+')).toBeTruthy()
  })

  test('asks only while signed in', async () => {
    useSession.setState({ token: null, tokenChecked: false })
    const api = renderBell(() => 3)
    expect(screen.getByRole('button', { name: '安全通知' })).toBeTruthy()
    expect(api.calls).toEqual([])
    act(signIn)
    expect(await screen.findByRole('button', { name: '安全通知，3 条未读' })).toBeTruthy()
    expect(screen.getByText('3')).toBeTruthy()
    act(() => useSession.getState().logOut())
    expect(screen.queryByTestId('notice-bell-count')).toBeNull()
    expect(api.calls).toHaveLength(1)
  })

  test('asks again every minute and when the window regains focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let unread = 0
    const api = renderBell(() => unread)
    await vi.waitFor(() => expect(api.callsTo('userAccount/notices')).toHaveLength(1))

    unread = 2
    await act(() => vi.advanceTimersByTimeAsync(NOTICE_COUNT_REFRESH_MS))
    expect(await screen.findByRole('button', { name: '安全通知，2 条未读' })).toBeTruthy()
    expect(screen.getByText('2')).toBeTruthy()
    expect(api.callsTo('userAccount/notices')).toHaveLength(2)

    unread = 0
    act(() => void window.dispatchEvent(new Event('focus')))
    await vi.waitFor(() => expect(screen.queryByTestId('notice-bell-count')).toBeNull())
    expect(api.callsTo('userAccount/notices')).toHaveLength(3)
  })

  test('tapping it opens the notices', async () => {
    renderBell(() => 1)
    await userEvent.click(await screen.findByRole('button', { name: '安全通知，1 条未读' }))
    expect(screen.getByText('notices screen')).toBeTruthy()
  })
})
