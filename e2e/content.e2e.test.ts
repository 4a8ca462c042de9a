import type {
  BannerItem,
  ChatHistory,
  NewsItem,
  Page as ListPage,
} from '../packages/api/src/index.ts'
import type { Page } from 'playwright-core'
import { describe, expect, inject, test } from 'vitest'
import { api, operatorLogin } from './support/api.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { registerThroughUi, sessionToken } from './support/journeys.ts'

const baseUrl = inject('baseUrl')
const POLL = { timeout: 15_000, interval: 200 }

/** What the server publishes in one language (`lan` header), as the app would ask for it. */
async function published(lan: 'zh_CN' | 'en_US') {
  const banners = await api<BannerItem[]>('main/bannnerInfo', {}, undefined, { lan })
  const news = await api<ListPage<NewsItem>>(
    'main/news',
    { pageNum: '1', pageSize: '5', type: '1' },
    undefined,
    { lan },
  )
  const latest = await api<ListPage<NewsItem>>(
    'main/news',
    { pageNum: '1', pageSize: '1' },
    undefined,
    {
      lan,
    },
  )
  return {
    bannerTitles: banners.map((b) => b.title),
    newsTitles: news.list.map((n) => n.title),
    latestTitle: latest.list[0]!.title,
  }
}

/** The home screen's banner titles (each banner is labelled with its title) and ticker text. */
async function homeContent(page: Page) {
  await page.getByTestId('home-banner-item').first().waitFor()
  await page.getByTestId('home-ticker-item').waitFor()
  const labels = await page
    .getByTestId('home-banner-item')
    .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''))
  return {
    bannerTitles: [...new Set(labels)],
    ticker: await page.getByTestId('home-ticker-item').innerText(),
    latest: await page.getByTestId('news-item').first().innerText(),
  }
}

describe('home content and support chat', () => {
  const browser = useBrowser()

  test('home shows the seeded banners and news in Chinese, and in English after switching', async () => {
    const zh = await published('zh_CN')
    const en = await published('en_US')
    expect(zh.bannerTitles.length).toBeGreaterThan(0)
    expect(zh.newsTitles.length).toBeGreaterThan(0)
    // The seed has English texts, so the two languages really differ.
    expect(en.bannerTitles).not.toEqual(zh.bannerTitles)
    expect(en.newsTitles[0]).not.toBe(zh.newsTitles[0])

    const { page } = await registerThroughUi(browser())
    const chinese = await homeContent(page)
    expect(chinese.bannerTitles.sort()).toEqual([...zh.bannerTitles].sort())
    expect(chinese.ticker).toBe(zh.newsTitles[0])
    expect(chinese.latest).toContain(zh.latestTitle)
    await screenshot(page, '60-home-zh')

    await page.goto(`${baseUrl}/#/account`)
    await page.getByTestId('account-page').waitFor()
    await page.getByTestId('lang-switch').click()
    await page.getByTestId('lang-option-en').click()
    // The row names the language now in use.
    await expect.poll(() => page.getByTestId('lang-row').innerText(), POLL).toContain('English')
    // The account page's news module follows the language too.
    await expect
      .poll(() => page.getByTestId('account-news').innerText(), POLL)
      .toContain(en.latestTitle)

    await page.goto(`${baseUrl}/#/`)
    await page.getByTestId('home-page').waitFor()
    await expect.poll(async () => (await homeContent(page)).ticker, POLL).toBe(en.newsTitles[0])
    const english = await homeContent(page)
    expect(english.bannerTitles.sort()).toEqual([...en.bannerTitles].sort())
    expect(english.latest).toContain(en.latestTitle)
    await screenshot(page, '61-home-en')

    // The choice is kept: opening the app again stays in English.
    await page.reload()
    await page.getByTestId('home-page').waitFor()
    expect((await homeContent(page)).ticker).toBe(en.newsTitles[0])
    await page.context().close()
  })

  test('a first visit follows the browser: English for en-US; Korean content in Korean, an untranslated item saying so', async () => {
    const en = await published('en_US')
    const english = await registerThroughUi(browser(), undefined, { locale: 'en-US' })
    expect(await english.page.evaluate(() => document.documentElement.lang)).toBe('en')
    expect((await homeContent(english.page)).bannerTitles.sort()).toEqual(
      [...en.bannerTitles].sort(),
    )
    // Followed, not stored: only the user's own choice is kept.
    expect(await english.page.evaluate(() => window.localStorage.getItem('lang'))).toBeNull()
    await english.page.context().close()

    const editor = await operatorLogin(inject('adminOperator'))
    const chineseOnly = await api<{ id: number }>(
      'admin/saveNews',
      { title: '仅有中文的公告', content: '正文', type: '1' },
      editor,
    )
    try {
      const { page } = await registerThroughUi(browser(), undefined, { locale: 'ko-KR' })
      await page.goto(`${baseUrl}/#/news`)
      await page.getByTestId('news-page').waitFor()
      const items = page.getByTestId('news-item')
      await expect.poll(() => items.count(), POLL).toBe(3)
      const rows = await items.evaluateAll((els) =>
        els.map((el) => ({
          text: el.textContent ?? '',
          note: el.querySelector('[data-testid="untranslated-note"]')?.textContent ?? null,
        })),
      )
      expect(rows[0]).toEqual({
        text: expect.stringContaining('仅有中文的公告'),
        note: '아직 번역되지 않아 중국어로 표시됩니다',
      })
      expect(rows.slice(1).map((r) => r.note)).toEqual([null, null])
      expect(rows[1]!.text).toContain('합의 스테이킹 1단계 오픈')
      await screenshot(page, '64-news-ko-untranslated')
      await page.context().close()
    } finally {
      await api('admin/deleteNews', { id: String(chineseOnly.id) }, editor)
    }
  })

  test('a message to support reaches the operator, and the answer arrives live', async () => {
    const user = await registerThroughUi(browser())
    const { page } = user
    await page.goto(`${baseUrl}/#/chat`)
    await page.getByTestId('screen-chat').waitFor()
    await page.getByTestId('chat-empty').waitFor()

    const question = `Where is my withdrawal? ${Date.now()}`
    await page.locator('[data-testid="chat-input"]').fill(question)
    await page.getByTestId('chat-send').click()
    const mine = page.locator('[data-testid="chat-message"][data-mine="true"]')
    await expect.poll(() => mine.count(), POLL).toBe(1)
    await expect.poll(() => mine.first().getAttribute('data-pending'), POLL).toBe('false')
    expect(await mine.first().innerText()).toContain(question)

    // The operator sees the conversation with the user's message and answers it.
    const operatorToken = await operatorLogin(inject('supportOperator'))
    const history = await api<ChatHistory>(
      'admin/chatHistory',
      { userName: user.address },
      operatorToken,
    )
    expect(history.list.map((m) => [m.sender, m.body])).toEqual([['user', question]])
    const answer = 'It was approved and is on its way.'
    const clientId = `e2e-reply-${Date.now()}`
    await api('admin/chatReply', { userName: user.address, clientId, body: answer }, operatorToken)
    // Resending the same reply (a retry after a lost response) does not duplicate it.
    await api('admin/chatReply', { userName: user.address, clientId, body: answer }, operatorToken)

    const theirs = page.locator('[data-testid="chat-message"][data-mine="false"]')
    await expect.poll(() => theirs.count(), POLL).toBe(1)
    expect(await theirs.first().innerText()).toContain(answer)
    await screenshot(page, '62-chat')

    // A second answer while the user is elsewhere shows as unread on the contact screen,
    // and opening the chat clears it.
    await page.goto(`${baseUrl}/#/account`)
    await page.getByTestId('account-page').waitFor()
    await api(
      'admin/chatReply',
      { userName: user.address, clientId: `e2e-reply2-${Date.now()}`, body: 'Anything else?' },
      operatorToken,
    )
    await page.getByTestId('account-contact').click()
    await page.getByTestId('screen-contact').waitFor()
    await expect.poll(() => page.getByTestId('contact-chat-unread').innerText(), POLL).toBe('1')
    await screenshot(page, '63-contact-unread')
    await page.getByTestId('contact-chat').click()
    await page.getByTestId('screen-chat').waitFor()
    await expect.poll(() => theirs.count(), POLL).toBe(2)
    await expect
      .poll(
        async () =>
          (await api<{ count: number }>('chat/unread', {}, await sessionToken(page))).count,
        POLL,
      )
      .toBe(0)
    await page.context().close()
  })
})
