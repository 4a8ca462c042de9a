import { useTranslation } from 'react-i18next'
import { copyText } from './clipboard.ts'
import { Icon } from './icons.tsx'

/** A small "copy" button; copying shows the spec's success toast. */
export function CopyButton({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation()
  return (
    <button
      type="button"
      className="tint-button copy-button"
      onClick={() => void copyText(text)}
      aria-label={t('common.copy')}
      data-testid={testId}
    >
      <Icon name="copy" />
      {t('common.copy')}
    </button>
  )
}
