import type { PriceHistory, PriceRange, PriceSymbol } from '@hope/api'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { fail, fakeApi, ok, type ApiCall } from '../../test/fake-api.ts'
import { QuotesPage } from './quotes-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

/** lightweight-charts draws on a canvas jsdom lacks: a stand-in records what each card draws. */
const charts = vi.hoisted(
  () =>
    [] as {
      card: string | undefined
      setData: ReturnType<typeof vi.fn>
      applyOptions: ReturnType<typeof vi.fn>
      remove: ReturnType<typeof vi.fn>
    }[],
)
vi.mock('lightweight-charts', () => ({
  AreaSeries: 'Area',
  ColorType: { Solid: 'solid' },
  createChart: vi.fn((container: HTMLElement) => {
    const chart = {
      card: container.closest<HTMLElement>('section')?.dataset.testid,
      setData: vi.fn(),
      applyOptions: vi.fn(),
      remove: vi.fn(),
    }
    charts.push(chart)
    return {
      addSeries: () => ({ setData: chart.setData, applyOptions: chart.applyOptions }),
      timeScale: () => ({ fitContent: vi.fn() }),
      remove: chart.remove,
    }
  }),
}))

const T0 = 1_900_000_000
/** The chart shows local time: its points move by the viewer's UTC offset. */
const LOCAL = T0 - new Date().getTimezoneOffset() * 60

function history(symbol: PriceSymbol, range: PriceRange, over: Partial<PriceHistory> = {}) {
  const eth = symbol === 'ETH'
  return {
    symbol,
    range,
    price: eth ? '3123.45' : '0.1',
    open24h: eth ? '2967.3' : '0.1032',
    change24h: eth ? '5.26' : '-3.10',
    points: [
      { t: T0, price: eth ? '2967.3' : '0.1032' },
      { t: T0 + (range === '24h' ? 3_600 : 86_400), price: eth ? '3123.45' : '0.1' },
    ],
    ...over,
  } satisfies PriceHistory
}

function serve(
  reply = (call: ApiCall) =>
    ok(history(call.params.symbol as PriceSymbol, call.params.range as PriceRange)),
) {
  return fakeApi({ 'main/priceHistory': reply })
}

function renderQuotes() {
  render(
    <MemoryRouter initialEntries={['/quotes']}>
      <QueryScope>
        <QuotesPage />
      </QueryScope>
    </MemoryRouter>,
  )
}

const card = (symbol: PriceSymbol) => within(screen.getByTestId(`quote-${symbol}`))
const drawnFor = (symbol: PriceSymbol) => charts.filter((c) => c.card === `quote-${symbol}`).at(-1)

describe('quotes page', () => {
  beforeAll(() => loadNamespace('quotes'))
  beforeEach(() => {
    queryClient.clear()
    charts.length = 0
  })

  test('ETH and HOPE with their price and a green or red 24-hour change', async () => {
    serve()
    renderQuotes()
    expect(screen.getByTestId('screen-quotes')).toBeTruthy()
    await screen.findAllByTestId('quote-price')
    await waitFor(() => expect(screen.getAllByTestId('quote-price')).toHaveLength(2))
    expect(card('ETH').getByText('3,123.45')).toBeTruthy()
    expect(card('HOPE').getByText('0.1000')).toBeTruthy()
    const up = card('ETH').getByLabelText('24小时涨跌')
    const down = card('HOPE').getByLabelText('24小时涨跌')
    expect([up.textContent, up.dataset.tone]).toEqual(['+5.26%', 'up'])
    expect(up.className).toContain('quote__change--up')
    expect([down.textContent, down.dataset.tone]).toEqual(['-3.10%', 'down'])
    expect(down.className).toContain('quote__change--down')
    expect(card('ETH').getByText('以太坊')).toBeTruthy()
  })

  test('each chart draws its points, prices as numbers', async () => {
    serve()
    renderQuotes()
    await waitFor(() => expect(drawnFor('ETH')?.setData).toHaveBeenCalled())
    expect(drawnFor('ETH')!.setData).toHaveBeenLastCalledWith([
      { time: LOCAL, value: 2967.3 },
      { time: LOCAL + 3_600, value: 3123.45 },
    ])
    await waitFor(() => expect(drawnFor('HOPE')?.setData).toHaveBeenCalled())
    expect(drawnFor('HOPE')!.setData).toHaveBeenLastCalledWith([
      { time: LOCAL, value: 0.1032 },
      { time: LOCAL + 3_600, value: 0.1 },
    ])
    expect(drawnFor('HOPE')!.applyOptions).toHaveBeenLastCalledWith(
      expect.objectContaining({
        lineColor: '#e5484d',
        priceFormat: expect.objectContaining({ type: 'custom', minMove: 0.0001 }),
      }),
    )
    // The axis writes prices with the shown decimals, as the language writes numbers.
    const [{ priceFormat }] = vi.mocked(drawnFor('HOPE')!.applyOptions).mock.lastCall as [
      { priceFormat: { formatter: (price: number) => string } },
    ]
    expect(priceFormat.formatter(1234.1)).toBe('1,234.1000')
    expect(card('ETH').getByTestId('quote-chart').dataset.points).toBe('2')
  })

  test('a range tab asks for that range of that symbol and redraws', async () => {
    const api = serve()
    renderQuotes()
    await waitFor(() => expect(drawnFor('ETH')?.setData).toHaveBeenCalled())
    const tab = card('ETH').getByRole('tab', { name: '7天' })
    expect(card('ETH').getByRole('tab', { name: '24小时' }).getAttribute('aria-selected')).toBe(
      'true',
    )
    await userEvent.click(tab)
    await waitFor(() =>
      expect(api.callsTo('main/priceHistory').map((c) => c.params)).toContainEqual({
        symbol: 'ETH',
        range: '7d',
      }),
    )
    expect(tab.getAttribute('aria-selected')).toBe('true')
    await waitFor(() =>
      expect(drawnFor('ETH')!.setData).toHaveBeenLastCalledWith([
        { time: LOCAL, value: 2967.3 },
        { time: LOCAL + 86_400, value: 3123.45 },
      ]),
    )
    expect(
      api
        .callsTo('main/priceHistory')
        .filter((c) => c.params.symbol === 'HOPE')
        .map((c) => c.params.range),
    ).toEqual(['24h'])
    expect(card('HOPE').getByRole('tab', { name: '24小时' }).getAttribute('aria-selected')).toBe(
      'true',
    )
  })

  test('without history the change reads no data, in a neutral tone', async () => {
    serve((call) =>
      ok(history(call.params.symbol as PriceSymbol, '24h', { open24h: null, change24h: null })),
    )
    renderQuotes()
    const change = await waitFor(() => card('ETH').getByLabelText('24小时涨跌'))
    expect([change.textContent, change.dataset.tone]).toEqual(['暂无数据', 'flat'])
  })

  test('a failed load offers a retry', async () => {
    let failing = true
    serve((call) =>
      failing
        ? fail(500, 'internal_error')
        : ok(history(call.params.symbol as PriceSymbol, call.params.range as PriceRange)),
    )
    renderQuotes()
    const retry = await waitFor(
      () => card('ETH').getByRole('button', { name: '加载失败，点击重试' }),
      { timeout: 5_000 },
    )
    failing = false
    await userEvent.click(retry)
    expect(await card('ETH').findByText('3,123.45')).toBeTruthy()
  })
})
