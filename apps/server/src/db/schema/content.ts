import { bigint, boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/** A home banner; its titles are in `banner_translations`, one row per language. */
export const banners = pgTable('banners', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  image: text('image').notNull(),
  link: text('link').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  published: boolean('published').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const bannerTranslations = pgTable(
  'banner_translations',
  {
    bannerId: bigint('banner_id', { mode: 'number' })
      .notNull()
      .references(() => banners.id, { onDelete: 'cascade' }),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bannerId, t.lang] })],
)

/** A business school article or video; its texts are in `school_translations`. */
export const schoolItems = pgTable('school_items', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind').notNull(),
  cover: text('cover').notNull().default(''),
  videoUrl: text('video_url'),
  published: boolean('published').notNull().default(true),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const schoolTranslations = pgTable(
  'school_translations',
  {
    itemId: bigint('item_id', { mode: 'number' })
      .notNull()
      .references(() => schoolItems.id, { onDelete: 'cascade' }),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    content: text('content').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.lang] })],
)
