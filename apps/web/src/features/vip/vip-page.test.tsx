import type { PurchaseResult } from '@hope/api'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok, heldReply, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList } from '../../../test-support/fixtures.ts'
import { membershipKeys } from '../../lib/api/membership.ts'
import { vipInfo } from '../../../test-support/vip-fixtures.ts'
import { renderAt } from '../../test/render-at.tsx'
import { VipPage } from './vip-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

/** Silver to gold: 200 USDT buying 1,818.18… HOPE at 0.11. */
const done = (call: ApiCall): PurchaseResult => ({
  paid: '200.000000',
  hope: '1818.181818181818181818',
  level: Number(call.params.level),
  nodes: [],
  replayed: false,
})

function serve({
  upgrade = () => ok(null),
  info = () => ok(vipInfo()),
  usdt = '500',
}: { upgrade?: (call: ApiCall) => Reply; info?: () => Reply; usdt?: string } = {}) {
  return fakeApi({
    'game/vipInfo': info,
    'userAccount/balance': () => ok(balanceList({ usdt: { available: usdt } })),
    'game/upgrade': upgrade,
  })
}

function renderVip() {
  renderAt('/vip', <VipPage />)
}

/** A level's upgrade button, by the level it buys ("升级到黄金会员，补差价 200 USDT"). */
const upgradeTo = (level: string) =>
  screen.findByRole('button', { name: new RegExp(`^升级到${level}，`) })

/** Opens the confirmation sheet; its animation does not run in jsdom, so taps inside are fireEvent. */
async function openSheet(level: string) {
  await userEvent.click(await upgradeTo(level))
  return within(await screen.findByTestId('vip-confirm-sheet'))
}

/** The sheet's confirmation (its name is its label, or the retry after a failure). */
const confirmButton = (name = '确认升级') =>
  within(screen.getByTestId('vip-confirm-sheet')).getByRole('button', { name })

const text = (testId: string) => screen.getByTestId(testId).textContent
const row = (level: number) => within(screen.getByTestId(`vip-level-row-${level}`))

describe('vip page', () => {
  beforeAll(() => loadNamespace('vip'))
  beforeEach(() => {
    queryClient.clear()
    vi.mocked(showToast).mockClear()
  })
  afterEach(() => setLanguage('zhcn'))

  test('shows my level and every level with its price, owned up to mine', async () => {
    serve()
    renderVip()
    expect((await screen.findByTestId('vip-level')).textContent).toBe('白银会员')
    expect(text('vip-split-total')).toBe('累计买入 1,000 HOPE')
    const rows = [1, 2, 3, 4, 5, 6, 7].map(row)
    expect(rows.map((r) => r.getByTestId('vip-level-name').textContent)).toEqual([
      '青铜会员',
      '白银会员',
      '黄金会员',
      '铂金会员',
      '钻石会员',
      '星耀会员',
      '至尊会员',
    ])
    expect(rows.map((r) => r.getByTestId('vip-level-price').textContent)).toEqual([
      '100 USDT',
      '300 USDT',
      '500 USDT',
      '1,000 USDT',
      '3,000 USDT',
      '5,000 USDT',
      '10,000 USDT',
    ])
    const owned = [1, 2, 3, 4, 5, 6, 7].map((n) => screen.getByTestId(`vip-level-row-${n}`))
    expect(owned.map((li) => li.dataset.owned)).toEqual([
      'true',
      'true',
      'false',
      'false',
      'false',
      'false',
      'false',
    ])
    expect(row(1).getByTestId('vip-level-owned').textContent).toBe('已拥有')
    expect(row(2).getByTestId('vip-level-owned').textContent).toBe('当前')
    expect(row(1).queryByRole('button')).toBeNull()
    expect(row(2).queryByRole('button')).toBeNull()
    expect(row(3).getByRole('button', { name: /^升级到黄金会员，/ })).toBeTruthy()
    expect(screen.queryByText('您已是最高等级')).toBeNull()
  })

  test('each higher level offers its upgrade for the difference only', async () => {
    serve()
    renderVip()
    await upgradeTo('黄金会员')
    expect([3, 4, 5, 6, 7].map((n) => row(n).getByRole('button').textContent)).toEqual([
      '补 200 USDT',
      '补 700 USDT',
      '补 2,700 USDT',
      '补 4,700 USDT',
      '补 9,700 USDT',
    ])
    expect(screen.getByRole('button', { name: '升级到黄金会员，补差价 200 USDT' })).toBeTruthy()
  })

  test('an ordinary user pays the full price of each level', async () => {
    serve({ info: () => ok(vipInfo({ level: 0 })) })
    renderVip()
    expect((await screen.findByTestId('vip-level')).textContent).toBe('普通用户')
    expect((await upgradeTo('青铜会员')).textContent).toBe('补 100 USDT')
    expect((await upgradeTo('至尊会员')).textContent).toBe('补 10,000 USDT')
    expect(screen.queryAllByTestId('vip-level-owned')).toHaveLength(0)
  })

  test('at the top level there is nothing left to buy', async () => {
    serve({ info: () => ok(vipInfo({ level: 7 })) })
    renderVip()
    expect((await screen.findByTestId('vip-level')).textContent).toBe('至尊会员')
    expect(screen.queryAllByRole('button', { name: /^升级到/ })).toHaveLength(0)
    expect(screen.getAllByTestId('vip-level-owned')).toHaveLength(7)
    expect(screen.getByText('您已是最高等级')).toBeTruthy()
  })

  test('the sheet shows the level, the difference and the USDT available', async () => {
    serve()
    renderVip()
    const sheet = await openSheet('铂金会员')
    expect(sheet.getByRole('heading', { name: '确认升级' })).toBeTruthy()
    expect(sheet.getByTestId('vip-confirm-level').textContent).toBe('白银会员 → 铂金会员')
    expect(sheet.getByTestId('vip-confirm-amount').textContent).toBe('700 USDT')
    expect(sheet.getByTestId('vip-confirm-available').textContent).toBe('500 USDT')
    expect(sheet.getByTestId('vip-problem').textContent).toContain('USDT 余额不足')
    expect(sheet.getByTestId('vip-shortfall').textContent).toBe('还差 200 USDT。')
  })

  test('not enough USDT: the confirmation is disabled and nothing is sent', async () => {
    const api = serve({ usdt: '199.999999' })
    renderVip()
    const sheet = await openSheet('黄金会员')
    expect(sheet.getByTestId('vip-shortfall').textContent).toBe('还差 0.000001 USDT。')
    const confirm = confirmButton() as HTMLButtonElement
    expect(confirm.disabled).toBe(true)
    // Fake timers: whatever the taps set going runs out before the requests are counted.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await act(() => vi.runOnlyPendingTimersAsync())
    expect(api.callsTo('game/upgrade')).toHaveLength(0)
    fireEvent.click(sheet.getByRole('button', { name: '去充值' }))
    expect(text('where')).toBe('/recharge')
  })

  test('a confirmed upgrade is sent once with the level and a key, then shows what it bought', async () => {
    const { reply, release } = heldReply(done)
    const api = serve({ upgrade: reply })
    renderVip()
    const sheet = await openSheet('黄金会员')
    expect(sheet.queryByRole('status')).toBeNull()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    const confirm = confirmButton() as HTMLButtonElement
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(api.callsTo('game/upgrade')).toHaveLength(1))
    expect(confirm.disabled).toBe(true)
    release()
    const result = within(await screen.findByTestId('vip-result'))
    expect(api.callsTo('game/upgrade')).toHaveLength(1)
    const [call] = api.callsTo('game/upgrade')
    expect(call?.params.level).toBe('3')
    expect(call?.params.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(result.getByTestId('vip-result-amount').textContent).toBe('黄金会员')
    expect(result.getByTestId('vip-result-paid').textContent).toBe('200 USDT')
    expect(result.getByTestId('vip-result-hope').textContent).toBe('1,818.181818 HOPE')
    expect(invalidate).toHaveBeenCalledWith({ queryKey: membershipKeys.all })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.balance() })
    await waitFor(() => expect(api.callsTo('game/vipInfo')).toHaveLength(2))
    expect(api.callsTo('userAccount/balance')).toHaveLength(2)

    await userEvent.click(result.getByRole('button', { name: '查看拆分账户' }))
    expect(text('where')).toBe('/split')
  })

  test('each opening of the sheet is a new request with its own key', async () => {
    const api = serve({ upgrade: (call) => ok(done(call)), usdt: '5000' })
    renderVip()
    await openSheet('黄金会员')
    fireEvent.click(confirmButton())
    await userEvent.click(await screen.findByRole('button', { name: '完成' }))
    expect(screen.queryByTestId('vip-result')).toBeNull()
    const sheet = await openSheet('铂金会员')
    // the fixture's level is still 2, so the difference is counted from silver
    expect(sheet.getByTestId('vip-confirm-amount').textContent).toBe('700 USDT')
    fireEvent.click(confirmButton())
    await screen.findByTestId('vip-result')
    const calls = api.callsTo('game/upgrade')
    expect(calls.map((c) => c.params.level)).toEqual(['3', '4'])
    expect(calls[1]?.params.idempotencyKey).not.toBe(calls[0]?.params.idempotencyKey)
  })

  test('after a network error the same upgrade is retried with the same key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let reachable = false
    const api = serve({
      upgrade: (call) => {
        if (!reachable) throw new TypeError('Failed to fetch')
        return ok(done(call))
      },
    })
    renderVip()
    await openSheet('黄金会员')
    fireEvent.click(confirmButton())
    expect((await screen.findByRole('alert')).textContent).toBe(
      '网络异常，升级结果未知。请点击重试，同一次升级不会重复扣款。',
    )
    expect(showToast).not.toHaveBeenCalled()
    reachable = true
    fireEvent.click(confirmButton('重试'))
    await screen.findByTestId('vip-result')
    const keys = api.callsTo('game/upgrade').map((c) => c.params.idempotencyKey)
    expect(keys).toHaveLength(2)
    expect(keys[1]).toBe(keys[0])
  })

  test("a refusal shows only the server's message, closes the sheet and reloads the level", async () => {
    const api = serve({ upgrade: () => fail(409, 'not_an_upgrade', '请选择更高的等级') })
    renderVip()
    await openSheet('黄金会员')
    fireEvent.click(confirmButton())
    await waitFor(() => expect(screen.queryByTestId('vip-confirm-sheet')).toBeNull())
    expect(vi.mocked(showToast).mock.calls).toEqual([['请选择更高的等级']])
    expect(screen.queryByTestId('vip-result')).toBeNull()
    await waitFor(() => expect(api.callsTo('game/vipInfo')).toHaveLength(2))
  })

  test('a failed load offers a retry', async () => {
    let reachable = false
    const api = serve({
      info: () => (reachable ? ok(vipInfo()) : fail(500, 'internal_error', '系统错误')),
    })
    renderVip()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    reachable = true
    await userEvent.click(retry)
    expect((await screen.findByTestId('vip-level')).textContent).toBe('白银会员')
    expect(api.callsTo('game/vipInfo')).toHaveLength(2)
    expect(api.callsTo('userAccount/balance')).toHaveLength(1)
  })

  test('the split link opens the split account', async () => {
    serve()
    renderVip()
    await userEvent.click(await screen.findByRole('button', { name: /^拆分账户/ }))
    expect(text('where')).toBe('/split')
  })

  test('names and numbers follow the language', async () => {
    await setLanguage('vi')
    serve()
    renderVip()
    expect((await screen.findByTestId('vip-level')).textContent).toBe('Bạc')
    expect(row(7).getByTestId('vip-level-price').textContent).toBe('10.000 USDT')
    expect(row(7).getByRole('button').textContent).toBe('Trả 9.700 USDT')
  })
})
