import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { SettlementPage, settlementToday } from './settlement-page.tsx'

/** Opens the day picker and answers whether each asked day of the month can be picked. */
async function pickable(days: number[]): Promise<boolean[]> {
  fakeApi({
    'admin/settlementRuns': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
  })
  renderScreen(<SettlementPage />, { session: ADMIN })
  const input = await screen.findByPlaceholderText('请选择日期')
  fireEvent.mouseDown(input)
  fireEvent.click(input)
  await waitFor(() => expect(document.querySelector('.ant-picker-cell-today')).not.toBeNull())
  const cells = [...document.querySelectorAll<HTMLElement>('.ant-picker-cell-in-view')]
  return days.map((day) => {
    const cell = cells.find((c) => c.textContent === String(day))!
    return !cell.className.includes('ant-picker-cell-disabled')
  })
}

describe('settlement', () => {
  afterEach(() => vi.useRealTimers())

  test('today is the last day the picker offers', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T23:59:00+08:00') })
    expect(await pickable([25, 26, 27])).toEqual([true, true, false])
  })

  test("an operator west of the settlement zone may pick the settlement's today", async () => {
    // 20:00 UTC on the 26th is already the 27th at UTC+8.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T20:00:00Z') })
    expect(settlementToday(Date.now(), 480)).toBe('2026-11-27')
    expect(await pickable([27, 28])).toEqual([true, false])
  })

  test('the picker names months and weekdays in Chinese', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T10:00:00+08:00') })
    await pickable([])
    expect(document.querySelector('.ant-picker-header-view')?.textContent).toBe('2026年11月')
    const weekdays = [...document.querySelectorAll('.ant-picker-content th')].map(
      (th) => th.textContent,
    )
    expect(weekdays).toEqual(['一', '二', '三', '四', '五', '六', '日'])
  })

  test('the days are labelled with the settlement time zone the server names', async () => {
    fakeApi({
      'admin/settlementRuns': () =>
        ok({ list: [], total: 0, pageNum: 1, pageSize: 20, utcOffsetMinutes: 540 }),
    })
    renderScreen(<SettlementPage />, { session: ADMIN })
    // The table draws its header twice (one copy measures the columns).
    expect((await screen.findAllByText('结算日（UTC+9）')).length).toBeGreaterThan(0)
    expect(screen.getByText('日期按结算时区 UTC+9 计。')).toBeTruthy()
  })
})
