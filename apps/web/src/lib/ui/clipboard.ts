import { i18n } from '../i18n/i18n.ts'
import { showToast } from './toast.ts'

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.appendChild(area)
  area.select()
  try {
    return document.execCommand('copy')
  } finally {
    area.remove()
  }
}

/** Copies text and shows the spec's success toast (复制成功). */
export async function copyText(text: string): Promise<void> {
  let copied = false
  try {
    await navigator.clipboard.writeText(text)
    copied = true
  } catch {
    // Some in-app browsers refuse the async clipboard; the selection fallback still works there.
    copied = copyWithSelection(text)
  }
  if (copied) showToast(i18n.t('common.copied'), 'success')
}
