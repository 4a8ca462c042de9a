import { UploadOutlined } from '@ant-design/icons'
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '@hope/api'
import { App, Button, Image, Input, Space, Upload } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorText } from '../../lib/request.ts'
import { UploadRefused, uploadImage } from './api/content.ts'

const ACCEPT = Object.keys(UPLOAD_TYPES).join(',')
const MAX_MB = UPLOAD_MAX_BYTES / 1024 / 1024

/**
 * An image address as a form control: upload a file (stored under `/uploads/…`) or paste an
 * https address; the preview shows what the app will show.
 */
export function ImageField({
  value,
  onChange,
  testId,
}: {
  value?: string
  onChange?: (value: string) => void
  testId: string
}) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [uploading, setUploading] = useState(false)

  const upload = async (file: File) => {
    setUploading(true)
    try {
      const image = await uploadImage(file)
      onChange?.(image.url)
    } catch (error) {
      const text =
        error instanceof UploadRefused
          ? t(error.why === 'type' ? 'content.uploadType' : 'content.uploadSize', { mb: MAX_MB })
          : errorText(error, t('common.networkError'))
      void message.error(text)
    } finally {
      setUploading(false)
    }
  }

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={value}
          placeholder={t('content.imagePlaceholder')}
          onChange={(e) => onChange?.(e.target.value)}
          data-testid={`${testId}-url`}
        />
        <Upload
          accept={ACCEPT}
          showUploadList={false}
          customRequest={({ file }) => void upload(file as File)}
        >
          <Button icon={<UploadOutlined />} loading={uploading} data-testid={`${testId}-upload`}>
            {t('content.upload')}
          </Button>
        </Upload>
      </Space.Compact>
      {value ? <Image src={value} height={120} data-testid={`${testId}-preview`} /> : null}
    </Space>
  )
}
