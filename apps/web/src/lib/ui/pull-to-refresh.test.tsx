import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { PullToRefresh, THRESHOLD_PX } from './pull-to-refresh.tsx'

function renderPull(onRefresh: () => Promise<unknown>) {
  render(
    <PullToRefresh
      onRefresh={onRefresh}
      pullingText="下拉刷新"
      canReleaseText="释放立即刷新"
      refreshingText="加载中"
      completeText="刷新成功"
    >
      <p>content</p>
    </PullToRefresh>,
  )
  return screen.getByText('content').parentElement as HTMLElement
}

/** The head over the content says `text`. */
const headSays = (text: string) =>
  expect(screen.getByText(text).parentElement).toBe(screen.getByTestId('pull-to-refresh-head'))

/** A finger from the top of the content, down by `distance` pixels. */
function pull(target: HTMLElement, distance: number, release = true) {
  fireEvent.touchStart(target, { touches: [{ clientY: 100 }] })
  fireEvent.touchMove(target, { touches: [{ clientY: 100 + distance }] })
  if (release) fireEvent.touchEnd(target, { touches: [] })
}

describe('pull to refresh', () => {
  afterEach(() => {
    window.scrollY = 0
  })

  test('a long pull shows "release", then refreshes and says so', async () => {
    let finish = () => {}
    const onRefresh = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    const root = renderPull(onRefresh)
    pull(root, 5 * THRESHOLD_PX, false)
    headSays('释放立即刷新')
    fireEvent.touchEnd(root, { touches: [] })
    expect(onRefresh).toHaveBeenCalledTimes(1)
    headSays('加载中')
    await act(async () => finish())
    headSays('刷新成功')
  })

  test('a short pull only shows "pull" and refreshes nothing', () => {
    const onRefresh = vi.fn(async () => {})
    const root = renderPull(onRefresh)
    pull(root, 20, false)
    headSays('下拉刷新')
    fireEvent.touchEnd(root, { touches: [] })
    expect(onRefresh).not.toHaveBeenCalled()
    expect(screen.getByTestId('pull-to-refresh-head').style.height).toBe('0px')
  })

  test('a page scrolled down scrolls back instead of refreshing', () => {
    const onRefresh = vi.fn(async () => {})
    const root = renderPull(onRefresh)
    window.scrollY = 120
    pull(root, 5 * THRESHOLD_PX)
    expect(onRefresh).not.toHaveBeenCalled()
  })
})
