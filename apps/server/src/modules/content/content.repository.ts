import type {
  AdminBanner,
  AdminNews,
  AdminSchoolItem,
  BannerItem,
  ContentKind,
  Lang,
  NewsItem,
  NewsTypeCode,
  SchoolItem,
  SchoolKind,
} from '@hope/api'
import { selectPage, type PageAsked } from '../../db/page.ts'
import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/** Where each kind of content keeps its rows and its per-language texts. */
const TABLES = {
  banner: { items: 'banners', texts: 'banner_translations', key: 'banner_id', fields: ['title'] },
  news: {
    items: 'news',
    texts: 'news_translations',
    key: 'news_id',
    fields: ['title', 'summary', 'content'],
  },
  school: {
    items: 'school_items',
    texts: 'school_translations',
    key: 'item_id',
    fields: ['title', 'summary', 'content'],
  },
} as const satisfies Record<
  ContentKind,
  { items: string; texts: string; key: string; fields: readonly string[] }
>

/**
 * The version of item `<alias>.id` in language `lang` ($1 unless told), or the Chinese one when
 * there is none: a lateral subquery joined to every public read.
 */
function servedText(kind: ContentKind, alias: string, lang = '$1'): string {
  const t = TABLES[kind]
  return `CROSS JOIN LATERAL (
    SELECT lang, ${t.fields.join(', ')} FROM ${t.texts}
    WHERE ${t.key} = ${alias}.id AND lang IN (${lang}, 'zhcn')
    ORDER BY lang = ${lang} DESC LIMIT 1
  ) t`
}

/** Every language version of item `<alias>.id`, as `{ <lang>: { title, … } }`. */
function allTexts(kind: ContentKind, alias: string): string {
  const t = TABLES[kind]
  const fields = t.fields.map((f) => `'${f}', x.${f}`).join(', ')
  return `(SELECT coalesce(jsonb_object_agg(x.lang, jsonb_build_object(${fields})), '{}'::jsonb)
    FROM ${t.texts} x WHERE x.${t.key} = ${alias}.id) AS translations`
}

const iso = (d: Date) => d.toISOString()

// ---- public reads: published items, each in the asked language or in Chinese ----

export async function publishedBanners(q: Queryable, lang: Lang): Promise<BannerItem[]> {
  const res = await q.query<Omit<BannerItem, 'lang'> & { lang: Lang }>(
    `SELECT b.id::int AS id, b.image, t.title, b.link, b.sort, t.lang
     FROM banners b ${servedText('banner', 'b')}
     WHERE b.published ORDER BY b.sort, b.id`,
    [lang],
  )
  return res.rows
}

/** The published banners as `publishedBanners` answers them, for each of `langs`, in one read. */
export async function publishedBannersByLang(
  q: Queryable,
  langs: readonly Lang[],
): Promise<Partial<Record<Lang, BannerItem[]>>> {
  const res = await q.query<BannerItem & { asked: Lang }>(
    `SELECT l.asked, b.id::int AS id, b.image, t.title, b.link, b.sort, t.lang
     FROM unnest($1::text[]) AS l (asked) CROSS JOIN banners b ${servedText('banner', 'b', 'l.asked')}
     WHERE b.published ORDER BY l.asked, b.sort, b.id`,
    [langs],
  )
  const byLang: Partial<Record<Lang, BannerItem[]>> = Object.fromEntries(langs.map((l) => [l, []]))
  for (const { asked, ...banner } of res.rows) byLang[asked]!.push(banner)
  return byLang
}

interface NewsRow {
  id: number
  type: NewsTypeCode
  image: string
  publishedAt: Date
  lang: Lang
  title: string
  summary: string
  content: string
}

const NEWS_COLUMNS = `n.id::int AS id, n.type::int AS type, n.image, n.published_at AS "publishedAt",
  t.lang, t.title, t.summary, t.content`

const toNewsItem = (r: NewsRow): NewsItem => ({ ...r, publishedAt: iso(r.publishedAt) })

export async function publishedNews(
  q: Queryable,
  opts: { lang: Lang; type: NewsTypeCode | undefined; limit: number; offset: number },
): Promise<{ rows: NewsItem[]; total: number }> {
  // Named statements: the public news list is among the most read, planned once per connection.
  const [rows, total] = await Promise.all([
    q.query<NewsRow>({
      name: 'published_news',
      text: `SELECT ${NEWS_COLUMNS} FROM news n ${servedText('news', 'n')}
             WHERE n.published AND ($2::smallint IS NULL OR n.type = $2)
             ORDER BY n.published_at DESC, n.id DESC LIMIT $3 OFFSET $4`,
      values: [opts.lang, opts.type ?? null, opts.limit, opts.offset],
    }),
    q.query<{ n: number }>({
      name: 'published_news_count',
      text: `SELECT count(*)::int AS n FROM news n
             WHERE n.published AND ($1::smallint IS NULL OR n.type = $1)`,
      values: [opts.type ?? null],
    }),
  ])
  return { rows: rows.rows.map(toNewsItem), total: total.rows[0]?.n ?? 0 }
}

export async function publishedNewsById(
  q: Queryable,
  id: number,
  lang: Lang,
): Promise<NewsItem | undefined> {
  const res = await q.query<NewsRow>(
    `SELECT ${NEWS_COLUMNS} FROM news n ${servedText('news', 'n')}
     WHERE n.id = $2 AND n.published`,
    [lang, id],
  )
  return res.rows[0] && toNewsItem(res.rows[0])
}

interface SchoolRow {
  id: number
  kind: SchoolKind
  cover: string
  videoUrl: string | null
  publishedAt: Date
  lang: Lang
  title: string
  summary: string
  content: string
}

const SCHOOL_COLUMNS = `s.id::int AS id, s.kind, s.cover, s.video_url AS "videoUrl",
  s.published_at AS "publishedAt", t.lang, t.title, t.summary, t.content`

const toSchoolItem = (r: SchoolRow): SchoolItem => ({ ...r, publishedAt: iso(r.publishedAt) })

export async function publishedSchool(
  q: Queryable,
  opts: { lang: Lang; kind: SchoolKind | undefined; limit: number; offset: number },
): Promise<{ rows: SchoolItem[]; total: number }> {
  const [rows, total] = await Promise.all([
    q.query<SchoolRow>(
      `SELECT ${SCHOOL_COLUMNS} FROM school_items s ${servedText('school', 's')}
       WHERE s.published AND ($2::text IS NULL OR s.kind = $2)
       ORDER BY s.published_at DESC, s.id DESC LIMIT $3 OFFSET $4`,
      [opts.lang, opts.kind ?? null, opts.limit, opts.offset],
    ),
    q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM school_items s
       WHERE s.published AND ($1::text IS NULL OR s.kind = $1)`,
      [opts.kind ?? null],
    ),
  ])
  return { rows: rows.rows.map(toSchoolItem), total: total.rows[0]?.n ?? 0 }
}

export async function publishedSchoolById(
  q: Queryable,
  id: number,
  lang: Lang,
): Promise<SchoolItem | undefined> {
  const res = await q.query<SchoolRow>(
    `SELECT ${SCHOOL_COLUMNS} FROM school_items s ${servedText('school', 's')}
     WHERE s.id = $2 AND s.published`,
    [lang, id],
  )
  return res.rows[0] && toSchoolItem(res.rows[0])
}

// ---- operators: every item with all its language versions ----

type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: Date }

const BANNER_ADMIN = `b.id::int AS id, b.image, b.link, b.sort, b.published,
  b.updated_at AS "updatedAt", ${allTexts('banner', 'b')}`

const toAdminBanner = (r: Dated<AdminBanner, 'updatedAt'>): AdminBanner => ({
  ...r,
  updatedAt: iso(r.updatedAt),
})

export async function adminBanners(q: Queryable): Promise<AdminBanner[]> {
  const res = await q.query<Dated<AdminBanner, 'updatedAt'>>(
    `SELECT ${BANNER_ADMIN} FROM banners b ORDER BY b.sort, b.id`,
  )
  return res.rows.map(toAdminBanner)
}

/** One banner; `lock` holds it until the transaction ends (concurrent saves queue). */
export async function adminBanner(
  q: Queryable,
  id: number,
  lock = false,
): Promise<AdminBanner | undefined> {
  const res = await q.query<Dated<AdminBanner, 'updatedAt'>>(
    `SELECT ${BANNER_ADMIN} FROM banners b WHERE b.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  )
  return res.rows[0] && toAdminBanner(res.rows[0])
}

export interface BannerBase {
  image: string
  link: string
  sort: number
  published: boolean
}

export async function insertBanner(q: Queryable, b: BannerBase): Promise<number> {
  const res = await q.query<{ id: number }>(
    `INSERT INTO banners (image, link, sort, published) VALUES ($1, $2, $3, $4) RETURNING id::int AS id`,
    [b.image, b.link, b.sort, b.published],
  )
  return res.rows[0]!.id
}

export async function updateBanner(q: Queryable, id: number, b: BannerBase): Promise<void> {
  await q.query(
    `UPDATE banners SET image = $2, link = $3, sort = $4, published = $5, updated_at = now() WHERE id = $1`,
    [id, b.image, b.link, b.sort, b.published],
  )
}

const NEWS_ADMIN = `n.id::int AS id, n.type::int AS type, n.image, n.published,
  n.published_at AS "publishedAt", n.updated_at AS "updatedAt", ${allTexts('news', 'n')}`

/** An article or lesson as the console shows it: its dates as ISO strings. */
const toAdminItem = <T extends { publishedAt: string; updatedAt: string }>(
  r: Dated<T, 'publishedAt' | 'updatedAt'>,
): T => ({ ...r, publishedAt: iso(r.publishedAt), updatedAt: iso(r.updatedAt) }) as T

export async function adminNewsPage(
  q: Queryable,
  type: NewsTypeCode | undefined,
  page: PageAsked,
): Promise<{ rows: AdminNews[]; total: number }> {
  const { rows, total } = await selectPage<Dated<AdminNews, 'publishedAt' | 'updatedAt'>>(
    q,
    {
      columns: NEWS_ADMIN,
      table: 'news n',
      where: '$1::smallint IS NULL OR n.type = $1',
      order: 'n.published_at DESC, n.id DESC',
    },
    [type ?? null],
    page,
  )
  return { rows: rows.map(toAdminItem<AdminNews>), total }
}

export async function adminNews(
  q: Queryable,
  id: number,
  lock = false,
): Promise<AdminNews | undefined> {
  const res = await q.query<Dated<AdminNews, 'publishedAt' | 'updatedAt'>>(
    `SELECT ${NEWS_ADMIN} FROM news n WHERE n.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  )
  return res.rows[0] && toAdminItem<AdminNews>(res.rows[0])
}

export interface NewsBase {
  type: NewsTypeCode
  image: string
  published: boolean
}

export async function insertNews(q: Queryable, n: NewsBase): Promise<number> {
  const res = await q.query<{ id: number }>(
    `INSERT INTO news (type, image, published) VALUES ($1, $2, $3) RETURNING id::int AS id`,
    [n.type, n.image, n.published],
  )
  return res.rows[0]!.id
}

/** Publishing an unpublished article dates it now, so it shows among the newest. */
export async function updateNews(q: Queryable, id: number, n: NewsBase): Promise<void> {
  await q.query(
    `UPDATE news SET type = $2, image = $3,
       published_at = CASE WHEN NOT published AND $4 THEN now() ELSE published_at END,
       published = $4, updated_at = now()
     WHERE id = $1`,
    [id, n.type, n.image, n.published],
  )
}

const SCHOOL_ADMIN = `s.id::int AS id, s.kind, s.cover, s.video_url AS "videoUrl", s.published,
  s.published_at AS "publishedAt", s.updated_at AS "updatedAt", ${allTexts('school', 's')}`

export async function adminSchoolPage(
  q: Queryable,
  page: PageAsked,
): Promise<{ rows: AdminSchoolItem[]; total: number }> {
  const { rows, total } = await selectPage<Dated<AdminSchoolItem, 'publishedAt' | 'updatedAt'>>(
    q,
    { columns: SCHOOL_ADMIN, table: 'school_items s', order: 's.published_at DESC, s.id DESC' },
    [],
    page,
  )
  return { rows: rows.map(toAdminItem<AdminSchoolItem>), total }
}

export async function adminSchool(
  q: Queryable,
  id: number,
  lock = false,
): Promise<AdminSchoolItem | undefined> {
  const res = await q.query<Dated<AdminSchoolItem, 'publishedAt' | 'updatedAt'>>(
    `SELECT ${SCHOOL_ADMIN} FROM school_items s WHERE s.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  )
  return res.rows[0] && toAdminItem<AdminSchoolItem>(res.rows[0])
}

export interface SchoolBase {
  kind: SchoolKind
  cover: string
  videoUrl: string | null
  published: boolean
}

export async function insertSchool(q: Queryable, s: SchoolBase): Promise<number> {
  const res = await q.query<{ id: number }>(
    `INSERT INTO school_items (kind, cover, video_url, published) VALUES ($1, $2, $3, $4)
     RETURNING id::int AS id`,
    [s.kind, s.cover, s.videoUrl, s.published],
  )
  return res.rows[0]!.id
}

export async function updateSchool(q: Queryable, id: number, s: SchoolBase): Promise<void> {
  await q.query(
    `UPDATE school_items SET kind = $2, cover = $3, video_url = $4,
       published_at = CASE WHEN NOT published AND $5 THEN now() ELSE published_at END,
       published = $5, updated_at = now()
     WHERE id = $1`,
    [id, s.kind, s.cover, s.videoUrl, s.published],
  )
}

// ---- shared by the three kinds ----

/** Writes one language version in full (inserted, or replacing the stored one). */
export async function upsertText(
  q: Queryable,
  kind: ContentKind,
  id: number,
  lang: Lang,
  text: { title: string; summary?: string; content?: string },
): Promise<void> {
  const t = TABLES[kind]
  const fields: readonly string[] = t.fields
  const values = fields.map((f) => text[f as keyof typeof text] ?? '')
  const placeholders = fields.map((_, i) => `$${i + 3}`).join(', ')
  await q.query(
    `INSERT INTO ${t.texts} (${t.key}, lang, ${fields.join(', ')}) VALUES ($1, $2, ${placeholders})
     ON CONFLICT (${t.key}, lang) DO UPDATE SET ${fields.map((f) => `${f} = EXCLUDED.${f}`).join(', ')}`,
    [id, lang, ...values],
  )
  await q.query(`UPDATE ${t.items} SET updated_at = now() WHERE id = $1`, [id])
}

export async function deleteText(
  q: Queryable,
  kind: ContentKind,
  id: number,
  lang: Lang,
): Promise<boolean> {
  const t = TABLES[kind]
  const res = await q.query(`DELETE FROM ${t.texts} WHERE ${t.key} = $1 AND lang = $2`, [id, lang])
  if (res.rowCount) await q.query(`UPDATE ${t.items} SET updated_at = now() WHERE id = $1`, [id])
  return (res.rowCount ?? 0) > 0
}

/** Deletes an item; its language versions go with it. */
export async function deleteItem(q: Queryable, kind: ContentKind, id: number): Promise<void> {
  await q.query(`DELETE FROM ${TABLES[kind].items} WHERE id = $1`, [id])
}
