import type { AdminBanner } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, InputNumber, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { QueryTable } from '../../lib/query-table.tsx'
import { bannersOptions, saveBanner, type BannerDraft } from './api/content.ts'
import { EditorDrawer, PublishedField } from './editor-drawer.tsx'
import { ImageField } from './image-field.tsx'
import { contentColumns, Thumb } from './list-parts.tsx'

type Editing = { banner?: AdminBanner } | null

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
  const [editing, setEditing] = useState<Editing>(null)
  const shared = contentColumns<AdminBanner>(t, 'banner', (b) => setEditing({ banner: b }))
  const columns: TableColumnsType<AdminBanner> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: t('content.fields.image'), dataIndex: 'image', render: (v) => <Thumb src={v} /> },
    shared.title,
    shared.languages,
    { title: t('content.fields.link'), dataIndex: 'link', render: (v) => v || '-' },
    { title: t('content.fields.sort'), dataIndex: 'sort', align: 'right' },
    shared.published,
    { title: t('content.updatedAt'), dataIndex: 'updatedAt', render: (v) => formatTime(v) },
    shared.actions,
  ]
  return (
    <>
      <div className="admin-page-toolbar">
        <Button
          type="primary"
          onClick={() => setEditing({})}
          data-testid="admin-content-new-banner"
        >
          {t('content.newBanner')}
        </Button>
      </div>
      <QueryTable<AdminBanner>
        query={query}
        columns={columns}
        dataSource={query.data ?? []}
        pagination={false}
      />
      {editing && (
        <BannerEditor
          {...(editing.banner ? { banner: editing.banner } : {})}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  )
}
