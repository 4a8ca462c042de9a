import { SCHOOL_KINDS, type AdminSchoolItem, type SchoolKind } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { App, Button, Form, Input, Radio, Switch, Table, Tag, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { DEFAULT_PAGE_SIZE, pagination } from '../../lib/pagination.ts'
import {
  saveSchool,
  schoolListOptions,
  useContentMutation,
  type SchoolDraft,
} from './api/content.ts'
import { EditorDrawer } from './editor-drawer.tsx'
import { ImageField } from './image-field.tsx'
import { LangTags, PublishSwitch, RowActions, Thumb } from './list-parts.tsx'

const TEXT_FIELDS = [
  { name: 'title', max: 120 },
  { name: 'summary', max: 300, rows: 2 },
  { name: 'content', max: 6000, rows: 10 },
] as const

function draftOf(item?: AdminSchoolItem): SchoolDraft {
  return {
    kind: item?.kind ?? 'article',
    cover: item?.cover ?? '',
    videoUrl: item?.videoUrl ?? '',
    published: item?.published ?? false,
    translations: item?.translations ?? {},
  }
}

function SchoolEditor({ item, onClose }: { item?: AdminSchoolItem; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const save = useContentMutation('school', (draft: SchoolDraft) => saveSchool(draft, item), {
    meta: { inlineError: true },
    onSuccess: () => {
      void message.success(t('common.saved'))
      onClose()
    },
  })
  return (
    <EditorDrawer<SchoolDraft>
      title={item ? t('content.editSchool', { id: item.id }) : t('content.newSchool')}
      initialValues={draftOf(item)}
      fields={[...TEXT_FIELDS]}
      pending={save.isPending}
      error={save.error}
      onSubmit={(draft) => save.mutate(draft)}
      onClose={onClose}
    >
      <Form.Item name="kind" label={t('content.fields.kind')}>
        <Radio.Group
          optionType="button"
          options={SCHOOL_KINDS.map((k) => ({ value: k, label: t(`content.schoolKinds.${k}`) }))}
        />
      </Form.Item>
      <Form.Item name="cover" label={t('content.fields.cover')}>
        <ImageField testId="admin-content-image" />
      </Form.Item>
      <Form.Item noStyle dependencies={['kind']}>
        {({ getFieldValue }) =>
          getFieldValue('kind') === 'video' ? (
            <Form.Item
              name="videoUrl"
              label={t('content.fields.videoUrl')}
              extra={t('content.videoHint')}
              rules={[{ required: true, whitespace: true, message: t('content.videoRequired') }]}
            >
              <Input maxLength={500} data-testid="admin-content-video" />
            </Form.Item>
          ) : null
        }
      </Form.Item>
      <Form.Item name="published" label={t('content.fields.published')} valuePropName="checked">
        <Switch data-testid="admin-content-published" />
      </Form.Item>
    </EditorDrawer>
  )
}

/** Business school articles and videos, newest first. */
export function SchoolTab() {
  const { t } = useTranslation()
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE })
  const query = useQuery(schoolListOptions(page.pageNum, page.pageSize))
  const [editing, setEditing] = useState<{ item?: AdminSchoolItem } | null>(null)
  const columns: TableColumnsType<AdminSchoolItem> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: t('content.fields.cover'), dataIndex: 'cover', render: (v) => <Thumb src={v} /> },
    {
      title: t('content.fields.title'),
      key: 'title',
      render: (_, s) => s.translations.zhcn?.title ?? '-',
    },
    {
      title: t('content.fields.kind'),
      dataIndex: 'kind',
      render: (v: SchoolKind) => <Tag>{t(`content.schoolKinds.${v}`)}</Tag>,
    },
    {
      title: t('content.languages'),
      dataIndex: 'translations',
      render: (v: AdminSchoolItem['translations']) => <LangTags translations={v} />,
    },
    {
      title: t('content.fields.published'),
      dataIndex: 'published',
      render: (v: boolean, s) => <PublishSwitch kind="school" id={s.id} published={v} />,
    },
    { title: t('content.publishedAt'), dataIndex: 'publishedAt', render: (v) => formatTime(v) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, s) => (
        <RowActions kind="school" id={s.id} onEdit={() => setEditing({ item: s })} />
      ),
    },
  ]
  return (
    <>
      <div className="admin-page-toolbar">
        <Button
          type="primary"
          onClick={() => setEditing({})}
          data-testid="admin-content-new-school"
        >
          {t('content.newSchool')}
        </Button>
      </div>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <Table<AdminSchoolItem>
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
        <SchoolEditor
          {...(editing.item ? { item: editing.item } : {})}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  )
}
