import { SHELL_BOOT_ELEMENT_ID, type BannerItem, type NewsItem } from '@hope/api'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useParams } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { resetBootData } from '../../lib/api/boot.ts'
import { setLanguage } from '../../lib/i18n/i18n.ts'
import { showAlert } from '../../lib/ui/dialog.ts'
import { useSession } from '../../lib/store.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { fakeApi, ok, type ApiCall } from '../../test/fake-api.ts'
import { balanceList } from '../../../test-support/fixtures.ts'
import { HomePage } from './home-page.tsx'
import { prefetchHomeReads } from './prefetch-home-reads.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))
vi.mock('../../lib/ui/dialog.ts', () => ({ showAlert: vi.fn(async () => undefined) }))

const HASH = 'c0'.repeat(32)
const banners: BannerItem[] = [
  {
    id: 1,
    image: `/uploads/${HASH}.png`,
    title: '共识质押',
    link: '/stake',
    sort: 1,
    lang: 'zhcn',
  },
  {
    id: 2,
    image: `/uploads/${HASH}.svg`,
    title: '外部活动',
    link: 'https://hope.example/event',
    sort: 2,
    lang: 'zhcn',
  },
]

const article = (id: number, title: string): NewsItem => ({
  id,
  type: 1,
  title,
  summary: '',
  content: '',
  image: '',
  lang: 'zhcn',
  publishedAt: '2026-05-01T08:00:00Z',
})

const page = (list: NewsItem[]) => ok({ list, total: list.length, pageNum: 1, pageSize: 5 })

function NewsAt() {
  return <p>news {useParams().id}</p>
}

/** `beforeRender` runs with the API in place, as the router's prefetch runs before the screen. */
function renderHome(handlers: Parameters<typeof fakeApi>[0] = {}, beforeRender?: () => void) {
  const api = fakeApi({
    'userAccount/balance': () => ok(balanceList()),
    'main/bannnerInfo': () => ok(banners),
    'main/news': (call: ApiCall) =>
      call.params.type === '1'
        ? page([article(11, '第一条公告'), article(10, '第二条公告')])
        : page([]),
    ...handlers,
  })
  beforeRender?.()
  render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/stake" element={<p>stake screen</p>} />
        <Route path="/ranking" element={<p>ranking screen</p>} />
        <Route path="/quotes" element={<p>quotes screen</p>} />
        <Route path="/news/:id" element={<NewsAt />} />
      </Routes>
    </MemoryRouter>,
  )
  return api
}

describe('home banners, ticker and menu', () => {
  afterEach(() => {
    queryClient.clear()
    vi.mocked(showAlert).mockClear()
  })

  /** The home menu's item named `name` ("质押"), found inside the menu: a faster role query. */
  const menuItem = (name: string) =>
    within(screen.getByRole('navigation', { name: '更多功能' })).getByRole('button', { name })
  const UNTRANSLATED = 'Not yet translated · shown in Chinese'

  test('the carousel shows each banner with a sized, lazily loaded picture and its title', async () => {
    const api = renderHome()
    // The carousel's chunk loads after the first paint.
    const carousel = await screen.findByLabelText('活动横幅', {}, { timeout: 5000 })
    const items = within(carousel).getAllByTestId('home-banner-item')
    expect(items.map((el) => el.textContent)).toEqual(['共识质押', '外部活动'])
    const [first, second] = items.map((el) => el.querySelector('img')!)
    expect(first!.getAttribute('width')).toBe('750')
    expect(first!.getAttribute('height')).toBe('300')
    expect(first!.getAttribute('srcset')).toBe(
      `/uploads/${HASH}-375w.png 375w, /uploads/${HASH}-750w.png 750w`,
    )
    expect(second!.getAttribute('loading')).toBe('lazy')
    expect(second!.getAttribute('srcset')).toBeNull()
    expect(api.callsTo('main/bannnerInfo')[0]?.headers.lan).toBe('zh_CN')
  })

  test('a banner opens its in-app route, or its https page in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null)
    renderHome()
    const carousel = within(await screen.findByLabelText('活动横幅', {}, { timeout: 5000 }))
    fireEvent.click(await carousel.findByRole('button', { name: '外部活动' }))
    expect(open).toHaveBeenCalledWith('https://hope.example/event', '_blank', 'noopener,noreferrer')
    fireEvent.click(carousel.getByRole('button', { name: '共识质押' }))
    expect(await screen.findByText('stake screen')).toBeTruthy()
  })

  test('banners the page came with show without asking the server, in the language in use', async () => {
    const boot = document.createElement('script')
    boot.id = SHELL_BOOT_ELEMENT_ID
    boot.type = 'application/json'
    const english = banners.map((b) => ({ ...b, title: `${b.title} (en)`, lang: 'en' as const }))
    boot.textContent = JSON.stringify({ banners: { zhcn: banners.slice(0, 1), en: english } })
    document.head.append(boot)
    resetBootData()
    try {
      const api = renderHome({}, prefetchHomeReads)
      const carousel = await screen.findByLabelText('活动横幅', {}, { timeout: 5000 })
      const titles = within(carousel)
        .getAllByTestId('home-banner-item')
        .map((el) => el.textContent)
      expect(titles).toEqual(['共识质押'])
      await screen.findByLabelText('平台公告')
      expect(api.callsTo('main/bannnerInfo')).toEqual([])
    } finally {
      boot.remove()
      resetBootData()
    }
  })

  test('in English, a banner and an announcement without an English version say they are Chinese', async () => {
    await setLanguage('en')
    try {
      renderHome({
        'main/bannnerInfo': () =>
          ok([{ ...banners[0]!, title: 'Staking', lang: 'en' }, banners[1]]),
      })
      const [english, chinese] = await screen.findAllByTestId(
        'home-banner-item',
        {},
        { timeout: 5000 },
      )
      expect(within(english!).queryByText(UNTRANSLATED)).toBeNull()
      expect(within(chinese!).getByText(UNTRANSLATED)).toBeTruthy()
      const ticker = await screen.findByLabelText('Announcements')
      expect(within(ticker).getByText(UNTRANSLATED)).toBeTruthy()
    } finally {
      await setLanguage('zhcn')
    }
  })

  test('without banners there is no carousel', async () => {
    renderHome({ 'main/bannnerInfo': () => ok([]) })
    await screen.findByLabelText('平台公告')
    await waitFor(() => expect(screen.queryByLabelText('活动横幅')).toBeNull())
  })

  test('the ticker shows the newest announcement and opens it', async () => {
    const api = renderHome()
    const ticker = await screen.findByLabelText('平台公告')
    expect(ticker.textContent).toContain('第一条公告')
    expect(api.callsTo('main/news').find((c) => c.params.type === '1')?.params).toEqual({
      pageNum: '1',
      pageSize: '5',
      type: '1',
    })
    await userEvent.click(within(ticker).getByRole('button', { name: '第一条公告' }))
    expect(await screen.findByText('news 11')).toBeTruthy()
  })

  test('staking opens its screen', async () => {
    renderHome()
    await userEvent.click(menuItem('质押'))
    expect(await screen.findByText('stake screen')).toBeTruthy()
    expect(showAlert).not.toHaveBeenCalled()
  })

  test('quotes opens its screen from the menu', async () => {
    renderHome()
    await userEvent.click(menuItem('行情'))
    expect(await screen.findByText('quotes screen')).toBeTruthy()
  })

  test('the prices show the session ETH and HOPE prices with their 24-hour change, and lead to quotes', async () => {
    useSession.getState().setPrices({ ethPrice: '3120.555', hopePrice: '0.11' })
    renderHome({
      'main/priceHistory': (call: ApiCall) =>
        ok({
          symbol: call.params.symbol,
          range: '24h',
          price: '1',
          open24h: '1',
          change24h: call.params.symbol === 'ETH' ? '5.26' : '-3.10',
          points: [],
        }),
    })
    const eth = within(screen.getByTestId('home-price-ETH'))
    const hope = within(screen.getByTestId('home-price-HOPE'))
    expect(eth.getByTestId('home-price-value').textContent).toBe('3,120.56 USD')
    expect(hope.getByTestId('home-price-value').textContent).toBe('0.1100 USDT')
    await waitFor(() => expect(eth.getByTestId('home-price-change').textContent).toBe('+5.26%'))
    expect(eth.getByTestId('home-price-change').dataset.tone).toBe('up')
    expect(hope.getByTestId('home-price-change').textContent).toBe('-3.10%')
    expect(hope.getByTestId('home-price-change').dataset.tone).toBe('down')
    // The price strip is named by the screen it opens.
    await userEvent.click(screen.getByLabelText('行情', { selector: 'button' }))
    expect(await screen.findByText('quotes screen')).toBeTruthy()
  })

  test('ranking opens its screen', async () => {
    renderHome()
    await userEvent.click(menuItem('排行榜'))
    expect(await screen.findByText('ranking screen')).toBeTruthy()
  })

  test.each([
    ['商城', '商城即将上线，敬请期待。'],
    ['格斗', '格斗即将上线，敬请期待。'],
    ['全球支付', '全球支付即将上线，预计 7 月逐步开放，敬请期待。'],
  ])('%s says it is coming soon', async (name, text) => {
    renderHome()
    await userEvent.click(menuItem(name))
    const dialog = vi.mocked(showAlert).mock.calls.at(-1)![0]
    expect(dialog.confirmText).toBe('确定')
    render(<div data-testid="dialog">{dialog.content}</div>)
    expect(within(screen.getByTestId('dialog')).getByText(text)).toBeTruthy()
    expect(screen.getByTestId('home-page')).toBeTruthy()
  })
})

describe('home user card', () => {
  afterEach(() => queryClient.clear())

  test('shows the nodes the user holds beside the level', async () => {
    useSession.setState({
      token: 'tok',
      userInfo: {
        id: 7,
        userName: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        nickName: 'Carol',
        image: '',
        referralCode: 'CAROL234',
        level: 3,
        gamePoints: '0',
        invitationLink: '',
        location: 1,
        isRobot: false,
        nodes: [1, 3],
      },
    })
    renderHome()
    const card = within(screen.getByTestId('user-card'))
    expect(card.getByTestId('user-level').textContent).toBeTruthy()
    expect(await card.findByText('股东节点')).toBeTruthy()
    expect(card.getByText('董事节点')).toBeTruthy()
  })
})
