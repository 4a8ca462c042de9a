import { loadAntdTexts } from './antd-texts.ts'
import type { DialogAlertProps, DialogConfirmProps } from 'antd-mobile/es/components/dialog'

async function loadDialog() {
  const [{ default: Dialog }, { setupAntdRender }] = await Promise.all([
    import('antd-mobile/es/components/dialog'),
    import('./antd-render.ts'),
    loadAntdTexts(),
  ])
  setupAntdRender()
  return Dialog
}

/**
 * antd-mobile's alert dialog, loaded on first use (see `toast.ts`). A tap beside it closes it,
 * and so does Escape: a notice never keeps the user behind its one button. Resolves once closed.
 */
export async function showAlert(props: DialogAlertProps): Promise<void> {
  const Dialog = await loadDialog()
  let escape = () => {}
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') escape()
  }
  document.addEventListener('keydown', onKey)
  try {
    await new Promise<void>((resolve) => {
      escape = () => {
        Dialog.clear()
        resolve()
      }
      // Resolves as the dialog starts closing, by its button or a tap beside it.
      void Dialog.alert({ closeOnMaskClick: true, ...props }).then(resolve)
    })
  } finally {
    document.removeEventListener('keydown', onKey)
  }
}

/** antd-mobile's confirm dialog, loaded on first use; resolves whether the user confirmed. */
export async function showConfirm(props: DialogConfirmProps): Promise<boolean> {
  const Dialog = await loadDialog()
  return Dialog.confirm(props)
}
