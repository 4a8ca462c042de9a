import type { ToastShowProps } from 'antd-mobile/es/components/toast'

/**
 * Shows an antd-mobile toast. Toast brings its mask and animation library (~15 KB gzip), which
 * the first screen does not need, so it loads with the first message.
 */
export function showToast(content: string, icon?: ToastShowProps['icon']): void {
  void Promise.all([import('antd-mobile/es/components/toast'), import('./antd-render.ts')])
    .then(([{ default: Toast }, { setupAntdRender }]) => {
      setupAntdRender()
      shown = Toast.show({ content, ...(icon ? { icon } : {}) })
      shownAt = Date.now()
    })
    .catch((error: unknown) => console.error(error))
}

/** The message on screen (antd-mobile shows one at a time), and when it came. */
let shown: { close(): void } | undefined
let shownAt = 0

/** A message this fresh belongs to the tap that also navigated ("cancelled", then the list). */
export const TOAST_NAVIGATION_GRACE_MS = 400

/**
 * Takes the last message away as the user moves to another screen: it spoke of the one left.
 * One shown with the navigation itself stays. Loads nothing when no message was shown.
 */
export function clearToastOnNavigation(now = Date.now()): void {
  if (now - shownAt < TOAST_NAVIGATION_GRACE_MS) return
  shown?.close()
  shown = undefined
}

/**
 * A loading toast that stays until the returned function is called (e.g. while the app waits
 * on the wallet). Calling it before the toast has loaded keeps it from showing at all.
 */
export function showLastingToast(content: string): () => void {
  let closed = false
  let close = () => {}
  void Promise.all([import('antd-mobile/es/components/toast'), import('./antd-render.ts')])
    .then(([{ default: Toast }, { setupAntdRender }]) => {
      if (closed) return
      setupAntdRender()
      const handler = Toast.show({ content, icon: 'loading', duration: 0, maskClickable: true })
      close = () => handler.close()
    })
    .catch((error: unknown) => console.error(error))
  return () => {
    closed = true
    close()
  }
}
