import { LANGS, type ContentKind, type Lang } from '@hope/api'
import {
  Button,
  Image,
  Popconfirm,
  Space,
  Switch,
  Tag,
  type TableColumnType,
  type TableColumnsType,
  type TableProps,
} from 'antd'
import { useState, type ReactNode } from 'react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { usePagedSearch, type PageRequest } from '../../lib/pagination.ts'
import { QueryTable, type ListQuery } from '../../lib/query-table.tsx'
import { deleteContent, setPublished, useContentMutation } from './api/content.ts'
import { LANG_NAMES } from './translation-tabs.tsx'

/** The language versions an item has. */
export function LangTags({ translations }: { translations: Partial<Record<Lang, unknown>> }) {
  return (
    <Space size={2} wrap>
      {LANGS.filter((l) => translations[l]).map((l) => (
        <Tag key={l} color={l === 'zhcn' ? 'blue' : 'default'}>
          {LANG_NAMES[l]}
        </Tag>
      ))}
    </Space>
  )
}

export function Thumb({ src }: { src: string }) {
  return src ? <Image src={src} height={40} /> : '-'
}

/** Publishes or withdraws an item right from its list. */
export function PublishSwitch({
  kind,
  id,
  published,
}: {
  kind: ContentKind
  id: number
  published: boolean
}) {
  const toggle = useContentMutation(kind, (next: boolean) => setPublished(kind, id, next))
  return (
    <Switch
      size="small"
      checked={toggle.isPending ? toggle.variables : published}
      loading={toggle.isPending}
      onChange={(next) => toggle.mutate(next)}
      data-testid={`admin-content-publish-${kind}-${id}`}
    />
  )
}

/** Edit, and delete after a confirmation (every language version goes with it). */
export function RowActions({
  kind,
  id,
  onEdit,
}: {
  kind: ContentKind
  id: number
  onEdit: () => void
}) {
  const { t } = useTranslation()
  const remove = useContentMutation(kind, () => deleteContent(kind, id))
  return (
    <Space size={4}>
      <Button size="small" onClick={onEdit} data-testid={`admin-content-edit-${kind}-${id}`}>
        {t('common.edit')}
      </Button>
      <Popconfirm
        title={t('content.deleteConfirm')}
        okText={t('common.delete')}
        okButtonProps={{ danger: true, 'data-testid': 'admin-content-delete-confirm' }}
        cancelText={t('common.cancel')}
        onConfirm={() => remove.mutate(undefined)}
      >
        <Button
          size="small"
          danger
          loading={remove.isPending}
          data-testid={`admin-content-delete-${kind}-${id}`}
        >
          {t('common.delete')}
        </Button>
      </Popconfirm>
    </Space>
  )
}

/** A row of a content list: a banner, an article or a school item. */
interface ContentRow {
  id: number
  published: boolean
  translations: Partial<Record<Lang, { title: string }>>
}

/**
 * The columns every content list has, for the list to place in its own order: the id, the
 * Chinese title, the language versions, the publish switch, the row's actions and its times.
 */
function contentColumns<R extends ContentRow>(
  t: TFunction,
  kind: ContentKind,
  onEdit: (row: R) => void,
) {
  return {
    id: { title: 'ID', dataIndex: 'id', width: 70 },
    publishedAt: {
      title: t('content.publishedAt'),
      dataIndex: 'publishedAt',
      render: (v: string) => formatTime(v),
    },
    updatedAt: {
      title: t('content.updatedAt'),
      dataIndex: 'updatedAt',
      render: (v: string) => formatTime(v),
    },
    title: {
      title: t('content.fields.title'),
      key: 'title',
      render: (_, r) => r.translations.zhcn?.title ?? '-',
    },
    languages: {
      title: t('content.languages'),
      dataIndex: 'translations',
      render: (v: R['translations']) => <LangTags translations={v} />,
    },
    published: {
      title: t('content.fields.published'),
      dataIndex: 'published',
      render: (v: boolean, r) => <PublishSwitch kind={kind} id={r.id} published={v} />,
    },
    actions: {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => <RowActions kind={kind} id={r.id} onEdit={() => onEdit(r)} />,
    },
  } satisfies Record<string, TableColumnType<R>>
}

/**
 * A content list: the button for a new item, the table (its `columns` placed around the shared
 * ones), and the `editor` of a new item or of the one whose edit was clicked.
 */
export function ContentTab<R extends ContentRow>({
  kind,
  newLabel,
  query,
  dataSource,
  pagination,
  columns,
  editor,
}: {
  kind: ContentKind
  newLabel: string
  query: ListQuery
  dataSource: R[]
  pagination: TableProps<R>['pagination']
  columns: (shared: ReturnType<typeof contentColumns<R>>) => TableColumnsType<R>
  editor: (item: R | undefined, onClose: () => void) => ReactNode
}) {
  const { t } = useTranslation()
  const [editing, setEditing] = useState<{ item?: R } | null>(null)
  return (
    <>
      <div className="admin-page-toolbar">
        <Button
          type="primary"
          onClick={() => setEditing({})}
          data-testid={`admin-content-new-${kind}`}
        >
          {newLabel}
        </Button>
      </div>
      <QueryTable<R>
        query={query}
        columns={columns(contentColumns<R>(t, kind, (item) => setEditing({ item })))}
        dataSource={dataSource}
        pagination={pagination}
      />
      {editing && editor(editing.item, () => setEditing(null))}
    </>
  )
}

/**
 * A paged content list's page and its table pagination: `options` of the page asked for.
 * @example const { listOptions, pagination } = usePagedContent(newsListOptions)
 */
export function usePagedContent<O>(options: (pageNum: number, pageSize: number) => O) {
  const { search, pagination } = usePagedSearch<PageRequest>({})
  return { listOptions: options(search.pageNum, search.pageSize), pagination }
}
