import {
  LANGS,
  type AdminBanner,
  type AdminNews,
  type AdminSchoolItem,
  type BannerItem,
  type NewsItem,
  type Page,
  type SchoolItem,
} from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  call,
  databaseTargets,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'

const IMAGE = `/uploads/${'a'.repeat(64)}.png`

describe.each(databaseTargets())('content API on $name', (target) => {
  const t = useTestApp(target)
  let admin: string
  let editor: string
  let support: string
  let user: string

  const auditActions = async () =>
    (
      await t.db.pool.query<{ action: string; username: string }>(
        `SELECT a.action, o.username FROM operator_audit a JOIN operators o ON o.id = a.operator_id ORDER BY a.id`,
      )
    ).rows

  beforeAll(async () => {
    admin = await newOperator(t.app, 'root', 'admin')
    editor = await newOperator(t.app, 'cms', 'content')
    support = await newOperator(t.app, 'desk', 'support')
    user = (await registerUser(t.app)).token
  })

  describe('what members read', () => {
    test('the seeded banners come in the asked language, in order, with their links', async () => {
      const zh = await call<'main/bannnerInfo', BannerItem[]>(t.app, 'main/bannnerInfo')
      expect(zh.status).toBe(200)
      expect(zh.body.data.map((b) => [b.title, b.link, b.lang])).toEqual([
        ['共识质押，每日释放收益', '/stake', 'zhcn'],
        ['邀请好友，共建 HOPE 社区', '/share', 'zhcn'],
        ['商学院：三分钟读懂 HOPE', '/school', 'zhcn'],
      ])
      expect(zh.body.data[0]!.image).toMatch(/^\/uploads\/[0-9a-f]{64}\.svg$/)
      const en = await call<'main/bannnerInfo', BannerItem[]>(
        t.app,
        'main/bannnerInfo',
        {},
        {
          lang: 'en',
        },
      )
      expect(en.body.data[0]).toMatchObject({ title: 'Consensus staking, released every day' })
    })

    test('the seeded banners, news and business school speak all six languages', async () => {
      const chinese = new Set<string>()
      for (const lang of LANGS) {
        const banners = await call<'main/bannnerInfo', BannerItem[]>(
          t.app,
          'main/bannnerInfo',
          {},
          { lang },
        )
        const news = await call<'main/news', Page<NewsItem>>(t.app, 'main/news', {}, { lang })
        const school = await call<'main/school', Page<SchoolItem>>(
          t.app,
          'main/school',
          {},
          { lang },
        )
        const items = [...banners.body.data, ...news.body.data.list, ...school.body.data.list]
        expect(items).toHaveLength(9)
        // Each is its own version, never the Chinese one passed off as it.
        for (const item of items) {
          expect(item.lang).toBe(lang)
          if (lang === 'zhcn') chinese.add(item.title)
          else expect(chinese.has(item.title)).toBe(false)
        }
      }
    })

    test('a language without a version falls back to Chinese, item by item', async () => {
      const created = await t.as<'admin/saveNews', AdminNews>(editor, 'admin/saveNews', {
        title: '仅中文的公告',
        content: '正文',
        type: 1,
      })
      const ko = await call<'main/news', Page<NewsItem>>(
        t.app,
        'main/news',
        { type: 1, pageSize: 10 },
        { lang: 'ko' },
      )
      const en = await call<'main/news', Page<NewsItem>>(
        t.app,
        'main/news',
        { type: 1, pageSize: 10 },
        { lang: 'en' },
      )
      const pick = (page: Page<NewsItem>, id: number) => page.list.find((n) => n.id === id)
      expect(pick(ko.body.data, created.body.data.id)).toMatchObject({
        title: '仅中文的公告',
        lang: 'zhcn',
      })
      // English: the seeded articles in English, the new one in Chinese.
      expect(en.body.data.list.map((n) => n.lang)).toEqual(['zhcn', 'en', 'en'])
      expect(en.body.data.list[1]).toMatchObject({ title: 'Consensus staking stage 1 is open' })
      await t.as(editor, 'admin/deleteNews', { id: created.body.data.id })
    })

    test('news is listed by type, newest first, in pages', async () => {
      const first = await call<'main/news', Page<NewsItem>>(t.app, 'main/news', {
        type: 1,
        pageNum: 1,
        pageSize: 1,
      })
      expect(first.body.data).toMatchObject({ total: 2, pageNum: 1, pageSize: 1 })
      expect(first.body.data.list.map((n) => n.title)).toEqual(['共识质押第一阶段开放'])
      const second = await call<'main/news', Page<NewsItem>>(t.app, 'main/news', {
        type: 1,
        pageNum: 2,
        pageSize: 1,
      })
      expect(second.body.data.list.map((n) => n.title)).toEqual(['HOPE 社区正式上线'])
      const industry = await call<'main/news', Page<NewsItem>>(t.app, 'main/news', { type: 2 })
      expect(industry.body.data.list.map((n) => [n.type, n.title])).toEqual([
        [2, '稳定币链上支付规模持续增长'],
      ])
      const all = await call<'main/news', Page<NewsItem>>(t.app, 'main/news')
      expect(all.body.data.total).toBe(3)
      const unknown = await call(t.app, 'main/news', { type: 9 })
      expect([unknown.status, unknown.body.reason]).toEqual([400, 'invalid_params'])
    })

    test('an article opens by id; unknown and unpublished ones are not found', async () => {
      const list = await call<'main/news', Page<NewsItem>>(t.app, 'main/news', {}, { lang: 'en' })
      const id = list.body.data.list[0]!.id
      const one = await call<'main/newInfo', NewsItem>(
        t.app,
        'main/newInfo',
        { id },
        { lang: 'en' },
      )
      expect(one.body.data).toMatchObject({ id, lang: 'en', title: list.body.data.list[0]!.title })
      expect(one.body.data.content).not.toBe('')

      const missing = await call(t.app, 'main/newInfo', { id: 999_999 }, { lang: 'en' })
      expect([missing.status, missing.body.reason, missing.body.msg]).toEqual([
        404,
        'not_found',
        'Not found',
      ])
      const draft = await t.as<'admin/saveNews', AdminNews>(editor, 'admin/saveNews', {
        title: '草稿',
        published: 'false',
      })
      const hidden = await call(t.app, 'main/newInfo', { id: draft.body.data.id })
      expect([hidden.status, hidden.body.reason]).toEqual([404, 'not_found'])
      const listed = await call<'main/news', Page<NewsItem>>(t.app, 'main/news')
      expect(listed.body.data.list.map((n) => n.id)).not.toContain(draft.body.data.id)
      const bad = await call(t.app, 'main/newInfo', { id: 'x' })
      expect(bad.body.reason).toBe('invalid_params')
      await t.as(editor, 'admin/deleteNews', { id: draft.body.data.id })
    })

    test('the business school lists articles and videos and opens one', async () => {
      const all = await call<'main/school', Page<SchoolItem>>(
        t.app,
        'main/school',
        {},
        {
          lang: 'en',
        },
      )
      expect(all.body.data.list.map((s) => [s.kind, s.title])).toEqual([
        ['video', 'Consensus staking in three minutes'],
        ['article', 'HOPE beginner’s guide'],
        ['article', 'How to invite friends'],
      ])
      const video = all.body.data.list[0]!
      expect(video.videoUrl).toMatch(/^\/uploads\/[0-9a-f]{64}\.mp4$/)
      expect(all.body.data.list[1]!.videoUrl).toBeNull()
      const videos = await call<'main/school', Page<SchoolItem>>(t.app, 'main/school', {
        kind: 'video',
      })
      expect(videos.body.data.total).toBe(1)
      const one = await call<'main/schoolInfo', SchoolItem>(t.app, 'main/schoolInfo', {
        id: video.id,
      })
      expect(one.body.data).toMatchObject({ title: '三分钟了解共识质押', lang: 'zhcn' })
      const missing = await call(t.app, 'main/schoolInfo', { id: 999_999 })
      expect([missing.status, missing.body.reason]).toEqual([404, 'not_found'])
    })
  })

  describe('what operators change', () => {
    test('a banner is created in Chinese, given an English title, changed and deleted, all audited', async () => {
      const before = (await auditActions()).length
      const created = await t.as<'admin/saveBanner', AdminBanner>(editor, 'admin/saveBanner', {
        title: '新横幅',
        image: IMAGE,
        link: 'https://example.com/x',
        sort: 0,
      })
      expect(created.status).toBe(200)
      const id = created.body.data.id
      expect(created.body.data).toMatchObject({
        image: IMAGE,
        sort: 0,
        published: true,
        translations: { zhcn: { title: '新横幅' } },
      })
      const english = await t.as<'admin/saveBanner', AdminBanner>(admin, 'admin/saveBanner', {
        id,
        lang: 'en',
        title: 'New banner',
        link: '/stake',
      })
      expect(english.body.data).toMatchObject({
        link: '/stake',
        image: IMAGE,
        translations: { zhcn: { title: '新横幅' }, en: { title: 'New banner' } },
      })
      const shown = await call<'main/bannnerInfo', BannerItem[]>(
        t.app,
        'main/bannnerInfo',
        {},
        {
          lang: 'en',
        },
      )
      expect(shown.body.data[0]).toMatchObject({ id, title: 'New banner', link: '/stake' })
      const ja = await call<'main/bannnerInfo', BannerItem[]>(
        t.app,
        'main/bannnerInfo',
        {},
        {
          lang: 'ja',
        },
      )
      expect(ja.body.data[0]).toMatchObject({ id, title: '新横幅', lang: 'zhcn' })

      await t.as(editor, 'admin/deleteTranslation', { kind: 'banner', id, lang: 'en' })
      const fallback = await call<'main/bannnerInfo', BannerItem[]>(
        t.app,
        'main/bannnerInfo',
        {},
        {
          lang: 'en',
        },
      )
      expect(fallback.body.data[0]).toMatchObject({ id, title: '新横幅', lang: 'zhcn' })

      await t.as(editor, 'admin/saveBanner', { id, published: 'false' })
      const hidden = await call<'main/bannnerInfo', BannerItem[]>(t.app, 'main/bannnerInfo')
      expect(hidden.body.data.map((b) => b.id)).not.toContain(id)
      const listed = await t.as<'admin/banners', AdminBanner[]>(editor, 'admin/banners')
      expect(listed.body.data.find((b) => b.id === id)).toMatchObject({ published: false })

      const deleted = await t.as(editor, 'admin/deleteBanner', { id })
      expect(deleted.status).toBe(200)
      const gone = await t.as(editor, 'admin/deleteBanner', { id })
      expect(gone.body.reason).toBe('not_found')

      expect((await auditActions()).slice(before)).toEqual([
        { action: 'banner_create', username: 'cms' },
        { action: 'banner_update', username: 'root' },
        { action: 'banner_translation_delete', username: 'cms' },
        { action: 'banner_update', username: 'cms' },
        { action: 'banner_delete', username: 'cms' },
      ])
      const audit = await t.db.pool.query<{
        before: AdminBanner | null
        after: AdminBanner | null
      }>(
        `SELECT before, after FROM operator_audit WHERE action = 'banner_update' ORDER BY id LIMIT 1`,
      )
      expect(audit.rows[0]!.before!.link).toBe('https://example.com/x')
      expect(audit.rows[0]!.after!.link).toBe('/stake')
    })

    test('bad input is refused with a clear reason and changes nothing', async () => {
      const count = async () =>
        Number((await t.db.pool.query('SELECT count(*) AS n FROM banners')).rows[0].n)
      const n = await count()
      const cases: [Record<string, unknown>, string][] = [
        [{ lang: 'en', title: 'English first', image: IMAGE }, 'content_zhcn_required'],
        [{ image: IMAGE }, 'content_title_required'],
        [{ title: '无图' }, 'invalid_params'],
        [{ title: 'x', image: 'http://insecure.example/a.png' }, 'invalid_params'],
        [{ title: 'x', image: IMAGE, link: '//evil.example' }, 'invalid_params'],
        [{ title: 'x', image: IMAGE, link: 'javascript:alert(1)' }, 'invalid_params'],
        [{ title: 'x', image: IMAGE, lang: 'fr' }, 'invalid_params'],
      ]
      for (const [params, reason] of cases) {
        const res = await call(t.app, 'admin/saveBanner', params, { token: editor, lang: 'en' })
        expect([res.status, res.body.reason], JSON.stringify(params)).toEqual([400, reason])
      }
      expect(await count()).toBe(n)
      const zhcnOnly = await call(
        t.app,
        'admin/deleteTranslation',
        { kind: 'news', id: 1, lang: 'zhcn' },
        { token: editor, lang: 'en' },
      )
      expect(zhcnOnly.body).toMatchObject({
        reason: 'content_zhcn_required',
        msg: 'The Chinese version is required: it is shown wherever another language is missing',
      })
      const chineseOnly = await t.as<'admin/saveNews', AdminNews>(editor, 'admin/saveNews', {
        title: '仅中文',
        content: '正文',
      })
      const newLangWithoutTitle = await t.as(editor, 'admin/saveNews', {
        id: chineseOnly.body.data.id,
        lang: 'vi',
        content: 'Nội dung',
      })
      expect(newLangWithoutTitle.body.reason).toBe('content_title_required')
      await t.as(editor, 'admin/deleteNews', { id: chineseOnly.body.data.id })
      const unknown = await t.as(editor, 'admin/saveNews', { id: 999_999, title: 'x' })
      expect([unknown.status, unknown.body.reason]).toEqual([404, 'not_found'])
    })

    test('news keeps each language version apart and dates an article when it is published', async () => {
      const draft = await t.as<'admin/saveNews', AdminNews>(editor, 'admin/saveNews', {
        title: '行业观察',
        summary: '摘要',
        content: '正文',
        type: 2,
        published: 'false',
      })
      const id = draft.body.data.id
      await t.as(editor, 'admin/saveNews', { id, lang: 'en', title: 'Industry watch' })
      const edited = await t.as<'admin/saveNews', AdminNews>(editor, 'admin/saveNews', {
        id,
        lang: 'en',
        content: 'Body',
      })
      expect(edited.body.data.translations).toEqual({
        zhcn: { title: '行业观察', summary: '摘要', content: '正文' },
        en: { title: 'Industry watch', summary: '', content: 'Body' },
      })
      await t.db.pool.query(
        `UPDATE news SET published_at = now() - interval '10 days' WHERE id = $1`,
        [id],
      )
      const published = await t.as<'admin/saveNews', AdminNews>(editor, 'admin/saveNews', {
        id,
        published: 'true',
      })
      expect(Date.now() - Date.parse(published.body.data.publishedAt)).toBeLessThan(60_000)
      const shown = await call<'main/news', Page<NewsItem>>(
        t.app,
        'main/news',
        { type: 2 },
        {
          lang: 'en',
        },
      )
      expect(shown.body.data.list[0]).toMatchObject({
        id,
        title: 'Industry watch',
        content: 'Body',
      })
      const page = await t.as<'admin/newsList', Page<AdminNews>>(editor, 'admin/newsList', {
        type: 2,
      })
      expect(page.body.data.list[0]!.id).toBe(id)
      await t.as(editor, 'admin/deleteNews', { id })
      const after = await t.db.pool.query(
        'SELECT count(*)::int AS n FROM news_translations WHERE news_id = $1',
        [id],
      )
      expect(after.rows[0].n).toBe(0)
    })

    test('a school video needs something to play; an article carries none', async () => {
      const noVideo = await t.as(editor, 'admin/saveSchool', { title: '视频', kind: 'video' })
      expect([noVideo.status, noVideo.body.reason]).toEqual([400, 'invalid_params'])
      const video = await t.as<'admin/saveSchool', AdminSchoolItem>(editor, 'admin/saveSchool', {
        title: '视频',
        kind: 'video',
        videoUrl: 'https://cdn.example.com/v.mp4',
        cover: IMAGE,
      })
      expect(video.body.data).toMatchObject({
        kind: 'video',
        videoUrl: 'https://cdn.example.com/v.mp4',
      })
      const article = await t.as<'admin/saveSchool', AdminSchoolItem>(editor, 'admin/saveSchool', {
        id: video.body.data.id,
        kind: 'article',
      })
      expect(article.body.data).toMatchObject({ kind: 'article', videoUrl: null })
      const list = await t.as<'admin/schoolList', Page<AdminSchoolItem>>(admin, 'admin/schoolList')
      expect(list.body.data.total).toBe(4)
      await t.as(editor, 'admin/deleteSchool', { id: video.body.data.id })
    })

    test('only admin and content operators may change content; support and members are refused', async () => {
      const writes = [
        ['admin/saveBanner', { title: 'x', image: IMAGE }],
        ['admin/saveNews', { title: 'x' }],
        ['admin/saveSchool', { title: 'x' }],
        ['admin/deleteBanner', { id: 1 }],
        ['admin/deleteNews', { id: 1 }],
        ['admin/deleteSchool', { id: 1 }],
        ['admin/deleteTranslation', { kind: 'news', id: 1, lang: 'en' }],
        ['admin/banners', {}],
        ['admin/newsList', {}],
        ['admin/schoolList', {}],
      ] as const
      const before = await t.db.pool.query('SELECT count(*)::int AS n FROM operator_audit')
      for (const [path, params] of writes) {
        const bySupport = await call(t.app, path, params, { token: support })
        expect([bySupport.status, bySupport.body.reason], path).toEqual([403, 'forbidden'])
        const byMember = await call(t.app, path, params, { token: user })
        expect([byMember.status, byMember.body.reason], path).toEqual([401, 'session_expired'])
        const anonymous = await call(t.app, path, params)
        expect([anonymous.status, anonymous.body.reason], path).toEqual([401, 'not_logged_in'])
      }
      const after = await t.db.pool.query('SELECT count(*)::int AS n FROM operator_audit')
      expect(after.rows[0].n).toBe(before.rows[0].n)
      const still = await call<'main/news', Page<NewsItem>>(t.app, 'main/news')
      expect(still.body.data.total).toBe(3)
    })
  })
})
