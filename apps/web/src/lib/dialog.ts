import type { DialogAlertProps, DialogConfirmProps } from 'antd-mobile/es/components/dialog'

async function loadDialog() {
  const [{ default: Dialog }, { setupAntdRender }] = await Promise.all([
    import('antd-mobile/es/components/dialog'),
    import('./antd-render.ts'),
  ])
  setupAntdRender()
  return Dialog
}

/** antd-mobile's alert dialog, loaded on first use (see `toast.ts`). */
export async function showAlert(props: DialogAlertProps): Promise<void> {
  const Dialog = await loadDialog()
  await Dialog.alert(props)
}

/** antd-mobile's confirm dialog, loaded on first use; resolves whether the user confirmed. */
export async function showConfirm(props: DialogConfirmProps): Promise<boolean> {
  const Dialog = await loadDialog()
  return Dialog.confirm(props)
}
