import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Tx } from '../../db/pool.ts'
import { news } from '../../db/schema/index.ts'

export type NewsRow = typeof news.$inferSelect

export async function listPublishedNews(
  tx: Tx,
  opts: { type?: number | undefined; limit: number; offset: number },
): Promise<{ rows: NewsRow[]; total: number }> {
  const where: SQL | undefined = and(
    eq(news.published, true),
    opts.type === undefined ? undefined : eq(news.type, opts.type),
  )
  const [rows, [totalRow]] = await Promise.all([
    tx
      .select()
      .from(news)
      .where(where)
      .orderBy(desc(news.publishedAt), desc(news.id))
      .limit(opts.limit)
      .offset(opts.offset),
    tx.select({ n: count() }).from(news).where(where),
  ])
  return { rows, total: totalRow?.n ?? 0 }
}
