import { NEWS_TYPE_CODES, NEWS_TYPES, type AdminNews, type NewsTypeCode } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { App, Button, Form, Select, Switch, Table, Tag, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { DEFAULT_PAGE_SIZE, pagination } from '../../lib/pagination.ts'
import { newsListOptions, saveNews, useContentMutation, type NewsDraft } from './api/content.ts'
import { EditorDrawer } from './editor-drawer.tsx'
import { ImageField } from './image-field.tsx'
import { LangTags, PublishSwitch, RowActions, Thumb } from './list-parts.tsx'

const TEXT_FIELDS = [
  { name: 'title', max: 120 },
  { name: 'summary', max: 300, rows: 2 },
  { name: 'content', max: 6000, rows: 10 },
] as const

function draftOf(news?: AdminNews): NewsDraft {
  return {
    type: news?.type ?? 1,
    image: news?.image ?? '',
    published: news?.published ?? false,
    translations: news?.translations ?? {},
  }
}

function NewsEditor({ news, onClose }: { news?: AdminNews; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const save = useContentMutation('news', (draft: NewsDraft) => saveNews(draft, news), {
    meta: { inlineError: true },
    onSuccess: () => {
      void message.success(t('common.saved'))
      onClose()
    },
  })
  return (
    <EditorDrawer<NewsDraft>
      title={news ? t('content.editNews', { id: news.id }) : t('content.newNews')}
      initialValues={draftOf(news)}
      fields={[...TEXT_FIELDS]}
      pending={save.isPending}
      error={save.error}
      onSubmit={(draft) => save.mutate(draft)}
      onClose={onClose}
    >
      <Form.Item name="type" label={t('content.fields.type')}>
        <Select<NewsTypeCode>
          style={{ width: 200 }}
          options={NEWS_TYPE_CODES.map((code) => ({
            value: code,
            label: t(`content.newsTypes.${NEWS_TYPES[code]}`),
          }))}
        />
      </Form.Item>
      <Form.Item name="image" label={t('content.fields.image')}>
        <ImageField testId="admin-content-image" />
      </Form.Item>
      <Form.Item name="published" label={t('content.fields.published')} valuePropName="checked">
        <Switch data-testid="admin-content-published" />
      </Form.Item>
    </EditorDrawer>
  )
}

/** News articles, published or not, newest first. */
export function NewsTab() {
  const { t } = useTranslation()
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE })
  const query = useQuery(newsListOptions(page.pageNum, page.pageSize))
  const [editing, setEditing] = useState<{ news?: AdminNews } | null>(null)
  const columns: TableColumnsType<AdminNews> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: t('content.fields.image'), dataIndex: 'image', render: (v) => <Thumb src={v} /> },
    {
      title: t('content.fields.title'),
      key: 'title',
      render: (_, n) => n.translations.zhcn?.title ?? '-',
    },
    {
      title: t('content.fields.type'),
      dataIndex: 'type',
      render: (v: NewsTypeCode) => <Tag>{t(`content.newsTypes.${NEWS_TYPES[v]}`)}</Tag>,
    },
    {
      title: t('content.languages'),
      dataIndex: 'translations',
      render: (v: AdminNews['translations']) => <LangTags translations={v} />,
    },
    {
      title: t('content.fields.published'),
      dataIndex: 'published',
      render: (v: boolean, n) => <PublishSwitch kind="news" id={n.id} published={v} />,
    },
    { title: t('content.publishedAt'), dataIndex: 'publishedAt', render: (v) => formatTime(v) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, n) => <RowActions kind="news" id={n.id} onEdit={() => setEditing({ news: n })} />,
    },
  ]
  return (
    <>
      <div className="admin-page-toolbar">
        <Button type="primary" onClick={() => setEditing({})} data-testid="admin-content-new-news">
          {t('content.newNews')}
        </Button>
      </div>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <Table<AdminNews>
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={query.isFetching}
        columns={columns}
        dataSource={query.data?.list ?? []}
        pagination={pagination(query.data, page, (pageNum, pageSize) =>
          setPage({ pageNum, pageSize }),
        )}
      />
      {editing && (
        <NewsEditor
          {...(editing.news ? { news: editing.news } : {})}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  )
}
