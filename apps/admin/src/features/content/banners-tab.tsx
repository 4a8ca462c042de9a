import type { AdminBanner } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Form, Input, InputNumber } from 'antd'
import { useTranslation } from 'react-i18next'
import { bannersOptions, saveBanner, type BannerDraft } from './api/content.ts'
import { EditorDrawer, PublishedField } from './editor-drawer.tsx'
import { ImageField } from './image-field.tsx'
import { ContentTab, Thumb } from './list-parts.tsx'

function draftOf(banner?: AdminBanner): BannerDraft {
  return {
    image: banner?.image ?? '',
    link: banner?.link ?? '',
    sort: banner?.sort ?? 0,
    published: banner?.published ?? false,
    translations: banner?.translations ?? {},
  }
}

function BannerEditor({ banner, onClose }: { banner?: AdminBanner; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <EditorDrawer<BannerDraft>
      kind="banner"
      title={banner ? t('content.editBanner', { id: banner.id }) : t('content.newBanner')}
      initialValues={draftOf(banner)}
      fields={[{ name: 'title', max: 60 }]}
      save={(draft) => saveBanner(draft, banner)}
      onClose={onClose}
    >
      <Form.Item
        name="image"
        label={t('content.fields.image')}
        rules={[{ required: true, whitespace: true, message: t('content.imageRequired') }]}
      >
        <ImageField testId="admin-content-image" />
      </Form.Item>
      <Form.Item name="link" label={t('content.fields.link')} extra={t('content.linkHint')}>
        <Input maxLength={500} data-testid="admin-content-link" />
      </Form.Item>
      <Form.Item name="sort" label={t('content.fields.sort')}>
        <InputNumber min={0} max={9999} precision={0} />
      </Form.Item>
      <PublishedField />
    </EditorDrawer>
  )
}

/** Home banners in display order, each with its language versions. */
export function BannersTab() {
  const { t } = useTranslation()
  const query = useQuery(bannersOptions())
  return (
    <ContentTab<AdminBanner>
      kind="banner"
      newLabel={t('content.newBanner')}
      query={query}
      dataSource={query.data ?? []}
      pagination={false}
      columns={(shared) => [
        shared.id,
        { title: t('content.fields.image'), dataIndex: 'image', render: (v) => <Thumb src={v} /> },
        shared.title,
        shared.languages,
        { title: t('content.fields.link'), dataIndex: 'link', render: (v) => v || '-' },
        { title: t('content.fields.sort'), dataIndex: 'sort', align: 'right' },
        shared.published,
        shared.updatedAt,
        shared.actions,
      ]}
      editor={(banner, onClose) => (
        <BannerEditor {...(banner ? { banner } : {})} onClose={onClose} />
      )}
    />
  )
}
