import { afterEach, describe, expect, test, vi } from 'vitest'

const close = vi.fn()
const show = vi.fn(() => ({ close }))
vi.mock('antd-mobile/es/components/toast', () => ({ default: { show } }))

const { clearToastOnNavigation, showToast, TOAST_NAVIGATION_GRACE_MS } = await import('./toast.ts')

/** Waits for the toast's lazily loaded module to show the message. */
const shown = () => vi.waitFor(() => expect(show).toHaveBeenCalled())

describe('toast', () => {
  afterEach(() => {
    close.mockClear()
    show.mockClear()
  })

  test('a message leaves with the screen it spoke of', async () => {
    showToast('请输入数量')
    await shown()
    clearToastOnNavigation(Date.now() + TOAST_NAVIGATION_GRACE_MS)
    expect(close).toHaveBeenCalledOnce()
    // Gone already: the next screen change has nothing to take away.
    clearToastOnNavigation(Date.now() + TOAST_NAVIGATION_GRACE_MS)
    expect(close).toHaveBeenCalledOnce()
  })

  test('a message shown with the navigation itself stays', async () => {
    showToast('已取消', 'success')
    await shown()
    clearToastOnNavigation()
    expect(close).not.toHaveBeenCalled()
  })
})
