import type { AdminBanner } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { App, Button, Form, Input, InputNumber, Switch, Table, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { bannersOptions, saveBanner, useContentMutation, type BannerDraft } from './api/content.ts'
import { EditorDrawer } from './editor-drawer.tsx'
import { ImageField } from './image-field.tsx'
import { LangTags, PublishSwitch, RowActions, Thumb } from './list-parts.tsx'

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
  const { message } = App.useApp()
  const save = useContentMutation('banner', (draft: BannerDraft) => saveBanner(draft, banner), {
    meta: { inlineError: true },
    onSuccess: () => {
      void message.success(t('common.saved'))
      onClose()
    },
  })
  return (
    <EditorDrawer<BannerDraft>
      title={banner ? t('content.editBanner', { id: banner.id }) : t('content.newBanner')}
      initialValues={draftOf(banner)}
      fields={[{ name: 'title', max: 60 }]}
      pending={save.isPending}
      error={save.error}
      onSubmit={(draft) => save.mutate(draft)}
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
      <Form.Item name="published" label={t('content.fields.published')} valuePropName="checked">
        <Switch data-testid="admin-content-published" />
      </Form.Item>
    </EditorDrawer>
  )
}

/** Home banners in display order, each with its language versions. */
export function BannersTab() {
  const { t } = useTranslation()
  const query = useQuery(bannersOptions())
  const [editing, setEditing] = useState<Editing>(null)
  const columns: TableColumnsType<AdminBanner> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: t('content.fields.image'), dataIndex: 'image', render: (v) => <Thumb src={v} /> },
    {
      title: t('content.fields.title'),
      key: 'title',
      render: (_, b) => b.translations.zhcn?.title ?? '-',
    },
    {
      title: t('content.languages'),
      dataIndex: 'translations',
      render: (v: AdminBanner['translations']) => <LangTags translations={v} />,
    },
    { title: t('content.fields.link'), dataIndex: 'link', render: (v) => v || '-' },
    { title: t('content.fields.sort'), dataIndex: 'sort', align: 'right' },
    {
      title: t('content.fields.published'),
      dataIndex: 'published',
      render: (v: boolean, b) => <PublishSwitch kind="banner" id={b.id} published={v} />,
    },
    { title: t('content.updatedAt'), dataIndex: 'updatedAt', render: (v) => formatTime(v) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, b) => (
        <RowActions kind="banner" id={b.id} onEdit={() => setEditing({ banner: b })} />
      ),
    },
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
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <Table<AdminBanner>
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={query.isFetching}
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
