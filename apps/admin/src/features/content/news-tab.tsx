import { NEWS_TYPE_CODES, NEWS_TYPES, type AdminNews, type NewsTypeCode } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Form, Select, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { newsListOptions, saveNews, type NewsDraft } from './api/content.ts'
import { ARTICLE_FIELDS, EditorDrawer, PublishedField } from './editor-drawer.tsx'
import { ImageField } from './image-field.tsx'
import { ContentTab, Thumb, usePagedContent } from './list-parts.tsx'

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
  return (
    <EditorDrawer<NewsDraft>
      kind="news"
      title={news ? t('content.editNews', { id: news.id }) : t('content.newNews')}
      initialValues={draftOf(news)}
      fields={ARTICLE_FIELDS}
      save={(draft) => saveNews(draft, news)}
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
      <PublishedField />
    </EditorDrawer>
  )
}

/** News articles, published or not, newest first. */
export function NewsTab() {
  const { t } = useTranslation()
  const { listOptions, pagination } = usePagedContent(newsListOptions)
  const query = useQuery(listOptions)
  return (
    <ContentTab<AdminNews>
      kind="news"
      newLabel={t('content.newNews')}
      query={query}
      dataSource={query.data?.list ?? []}
      pagination={pagination(query.data)}
      columns={(shared) => [
        shared.id,
        { title: t('content.fields.image'), dataIndex: 'image', render: (v) => <Thumb src={v} /> },
        shared.title,
        {
          title: t('content.fields.type'),
          dataIndex: 'type',
          render: (v: NewsTypeCode) => <Tag>{t(`content.newsTypes.${NEWS_TYPES[v]}`)}</Tag>,
        },
        shared.languages,
        shared.published,
        shared.publishedAt,
        shared.actions,
      ]}
      editor={(news, onClose) => <NewsEditor {...(news ? { news } : {})} onClose={onClose} />}
    />
  )
}
