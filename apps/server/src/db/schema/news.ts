import {
  bigint,
  boolean,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

/** A news article; its texts are in `news_translations`, one row per language. */
export const news = pgTable('news', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  type: smallint('type').notNull().default(1),
  image: text('image').notNull().default(''),
  published: boolean('published').notNull().default(true),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const newsTranslations = pgTable(
  'news_translations',
  {
    newsId: bigint('news_id', { mode: 'number' })
      .notNull()
      .references(() => news.id, { onDelete: 'cascade' }),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    content: text('content').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.newsId, t.lang] })],
)
