import { screen, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { dashboard } from '../../../test-support/fixtures.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { DashboardPage } from './dashboard-page.tsx'

describe('dashboard', () => {
  test('shows the open alarms first, and nothing when there are none', async () => {
    fakeApi({
      'admin/dashboard': () =>
        ok(
          dashboard({
            alarms: [
              {
                id: 3,
                kind: 'payout_nonce_taken',
                message: 'Withdrawal 12: nonce 4 of the hot wallet was used by another transaction',
                detail: { withdrawalId: 12 },
                raisedAt: '2026-01-02T03:04:05Z',
              },
            ],
          }),
        ),
    })
    const { unmount } = renderScreen(<DashboardPage />, { session: ADMIN })
    const alarms = await screen.findByTestId('admin-alarms')
    expect(alarms.textContent).toContain('需要处理的告警：1 条')
    expect(alarms.textContent).toContain('Withdrawal 12: nonce 4')
    unmount()

    fakeApi({ 'admin/dashboard': () => ok(dashboard()) })
    renderScreen(<DashboardPage />, { session: ADMIN })
    await screen.findByText('账本校验')
    expect(screen.queryByTestId('admin-alarms')).toBeNull()
  })

  test("the chain scan's alarms show in the banner with their transaction", async () => {
    const tx = `0x${'ab'.repeat(32)}`
    fakeApi({
      'admin/dashboard': () =>
        ok(
          dashboard({
            alarms: [
              {
                id: 7,
                kind: 'payout_unknown',
                message: `The payout vault paid 3.5 USDT to 0x${'07'.repeat(20)} in ${tx} under payout id 0x${'11'.repeat(32)}, which no withdrawal has`,
                detail: { txHash: tx, amount: '3.5' },
                raisedAt: '2026-01-02T03:04:05Z',
              },
              {
                id: 8,
                kind: 'unexplained_outflow',
                message: `2 USDT left the deposit address for 0x${'08'.repeat(20)} in ${tx} (log 0)`,
                detail: { txHash: tx, amount: '2' },
                raisedAt: '2026-01-02T03:05:05Z',
              },
            ],
          }),
        ),
    })
    renderScreen(<DashboardPage />, { session: ADMIN })
    const alarms = await screen.findByTestId('admin-alarms')
    expect(alarms.textContent).toContain('需要处理的告警：2 条')
    expect(
      within(alarms)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining(`3.5 USDT to 0x${'07'.repeat(20)} in ${tx}`),
      expect.stringContaining(`left the deposit address for 0x${'08'.repeat(20)} in ${tx}`),
    ])
  })

  test('each USDT figure has a row of its own, so two never run into each other', async () => {
    fakeApi({
      'admin/dashboard': () =>
        ok(
          dashboard({
            deposits: { count: 3, usdt: '12345678.123456', today: '1500.000000' },
          }),
        ),
    })
    renderScreen(<DashboardPage />, { session: ADMIN })
    const deposits = await screen.findByTestId('admin-dashboard-deposits')
    const figures = within(deposits).getAllByTestId('admin-usdt-figure')
    expect(figures.map((f) => f.textContent)).toEqual([
      '累计 USDT12,345,678.123456',
      '今日 USDT1,500.000000',
    ])
    for (const figure of figures)
      expect(figure.closest('.ant-col')?.className).toContain('ant-col-24')
    const withdrawals = screen.getByTestId('admin-dashboard-withdrawals')
    expect(
      within(withdrawals).getByTestId('admin-usdt-figure').closest('.ant-col')?.className,
    ).toContain('ant-col-24')
  })

  test('how users signed in lately, and whether the legacy message is still accepted', async () => {
    fakeApi({ 'admin/dashboard': () => ok(dashboard()) })
    renderScreen(<DashboardPage />, { session: ADMIN })
    const card = await screen.findByTestId('admin-sign-ins')
    expect(card.textContent).toContain('登录次数（近 7 天）')
    expect(card.textContent).toContain('以太坊登录（EIP-4361）40')
    expect(card.textContent).toContain('旧版登录消息（未注明网站）3')
    expect(card.textContent).toContain('无人使用后请关闭 legacyLoginMessage')
  })
})
