import type { ToastShowProps } from 'antd-mobile/es/components/toast'

/**
 * Shows an antd-mobile toast. Toast brings its mask and animation library (~15 KB gzip), which
 * the first screen does not need, so it loads with the first message.
 */
export function showToast(content: string, icon?: ToastShowProps['icon']): void {
  void Promise.all([import('antd-mobile/es/components/toast'), import('./antd-render.ts')])
    .then(([{ default: Toast }, { setupAntdRender }]) => {
      setupAntdRender()
      Toast.show({ content, ...(icon ? { icon } : {}) })
    })
    .catch((error: unknown) => console.error(error))
}
