import { SCHOOL_KINDS, type AdminSchoolItem, type SchoolKind } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Form, Input, Radio, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { saveSchool, schoolListOptions, type SchoolDraft } from './api/content.ts'
import { ARTICLE_FIELDS, EditorDrawer, PublishedField } from './editor-drawer.tsx'
import { ImageField } from './image-field.tsx'
import { ContentTab, Thumb, usePagedContent } from './list-parts.tsx'

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
  return (
    <EditorDrawer<SchoolDraft>
      kind="school"
      title={item ? t('content.editSchool', { id: item.id }) : t('content.newSchool')}
      initialValues={draftOf(item)}
      fields={ARTICLE_FIELDS}
      save={(draft) => saveSchool(draft, item)}
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
      <PublishedField />
    </EditorDrawer>
  )
}

/** Business school articles and videos, newest first. */
export function SchoolTab() {
  const { t } = useTranslation()
  const { listOptions, pagination } = usePagedContent(schoolListOptions)
  const query = useQuery(listOptions)
  return (
    <ContentTab<AdminSchoolItem>
      kind="school"
      newLabel={t('content.newSchool')}
      query={query}
      dataSource={query.data?.list ?? []}
      pagination={pagination(query.data)}
      columns={(shared) => [
        shared.id,
        { title: t('content.fields.cover'), dataIndex: 'cover', render: (v) => <Thumb src={v} /> },
        shared.title,
        {
          title: t('content.fields.kind'),
          dataIndex: 'kind',
          render: (v: SchoolKind) => <Tag>{t(`content.schoolKinds.${v}`)}</Tag>,
        },
        shared.languages,
        shared.published,
        shared.publishedAt,
        shared.actions,
      ]}
      editor={(item, onClose) => <SchoolEditor {...(item ? { item } : {})} onClose={onClose} />}
    />
  )
}
