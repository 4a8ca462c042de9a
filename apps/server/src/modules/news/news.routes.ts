import type { NewsItem } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'
import { listPublishedNews, type NewsRow } from './news.repository.ts'

const toNewsItem = (row: NewsRow): NewsItem => ({
  id: row.id,
  type: row.type,
  title: row.title,
  summary: row.summary,
  content: row.content,
  image: row.image,
  publishedAt: row.publishedAt.toISOString(),
})

export async function newsRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, 'main/news', async ({ params }) => {
    const { pageNum, pageSize, type } = params
    const { rows, total } = await listPublishedNews(app.db.db, {
      type,
      limit: pageSize,
      offset: (pageNum - 1) * pageSize,
    })
    return { list: rows.map(toNewsItem), total, pageNum, pageSize }
  })
}
