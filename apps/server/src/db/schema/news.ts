import { bigint, boolean, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core'

export const news = pgTable('news', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  type: smallint('type').notNull().default(1),
  title: text('title').notNull(),
  summary: text('summary').notNull().default(''),
  content: text('content').notNull().default(''),
  image: text('image').notNull().default(''),
  published: boolean('published').notNull().default(true),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
})
