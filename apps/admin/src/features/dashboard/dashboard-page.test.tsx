import type { AdminAlarm } from '@hope/api'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { dashboard } from '../../../test-support/fixtures.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { DashboardPage } from './dashboard-page.tsx'

const unknownPayout: AdminAlarm = {
  id: 7,
  kind: 'payout_unknown',
  message: `The payout vault paid 3.5 USDT under payout id 0x${'11'.repeat(32)}, which no withdrawal has`,
  detail: { amount: '3.5' },
  raisedAt: '2026-01-02T03:04:05Z',
}
const outflow: AdminAlarm = {
  id: 8,
  kind: 'unexplained_outflow',
  message: '2 USDT left the deposit address',
  detail: { amount: '2' },
  raisedAt: '2026-01-02T03:05:05Z',
}

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
    expect(within(alarms).getByText('需要处理的告警：1 条')).toBeTruthy()
    expect(within(alarms).getByText(/Withdrawal 12: nonce 4/)).toBeTruthy()
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
    expect(within(alarms).getByText('需要处理的告警：2 条')).toBeTruthy()
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
    expect(within(card).getByText('登录次数（近 7 天）')).toBeTruthy()
    expect(card.textContent).toContain('以太坊登录（EIP-4361）40')
    expect(card.textContent).toContain('旧版登录消息（未注明网站）3')
    expect(within(card).getByText(/无人使用后请关闭 legacyLoginMessage/)).toBeTruthy()
  })

  /** 30 days up to 2026-03-30, quiet but for `counts` (by day of March). */
  const days = (counts: Record<number, [siwe: number, legacy: number]> = {}) => ({
    days: 30,
    legacyAccepted: true,
    list: Array.from({ length: 30 }, (_, i) => {
      const [siwe, legacy] = counts[i + 1] ?? [0, 0]
      const total = siwe + legacy
      return {
        day: `2026-03-${String(i + 1).padStart(2, '0')}`,
        siwe,
        legacy,
        legacyShare: total ? legacy / total : null,
      }
    }),
  })

  test('sign-ins per day, newest first, with the share of the legacy message', async () => {
    const api = fakeApi({
      'admin/dashboard': () => ok(dashboard()),
      'admin/signInsByDay': () => ok(days({ 30: [3, 1], 2: [0, 2], 1: [19, 1] })),
    })
    renderScreen(<DashboardPage />, { session: ADMIN })
    const table = await screen.findByTestId('admin-sign-ins-by-day')
    expect(within(table).getByText('每日登录（近 30 天，最新在前）')).toBeTruthy()
    const rows = await within(table).findAllByRole('row')
    const cells = (row: HTMLElement) =>
      within(row)
        .queryAllByRole('cell')
        .map((c) => c.textContent)
    const body = rows.map(cells).filter((c) => c.length === 4)
    expect(body).toHaveLength(30)
    expect(body[0]).toEqual(['2026-03-30', '3', '1', '25.0%'])
    expect(body[1]).toEqual(['2026-03-29', '0', '0', '—'])
    expect(body[28]).toEqual(['2026-03-02', '0', '2', '100.0%'])
    expect(body[29]).toEqual(['2026-03-01', '19', '1', '5.0%'])
    expect(api.callsTo('admin/signInsByDay')).toHaveLength(1)
  })

  test('no sign-ins at all says so; a failed read offers a retry', async () => {
    fakeApi({
      'admin/dashboard': () => ok(dashboard()),
      'admin/signInsByDay': () => ok(days()),
    })
    const { unmount } = renderScreen(<DashboardPage />, { session: ADMIN })
    expect(await screen.findByText('近 30 天无人登录')).toBeTruthy()
    expect(within(screen.getByTestId('admin-sign-ins-by-day')).queryByRole('table')).toBeNull()
    unmount()

    let answered = 0
    fakeApi({
      'admin/dashboard': () => ok(dashboard()),
      'admin/signInsByDay': () =>
        answered++ ? ok(days({ 30: [1, 0] })) : fail(503, 'service_unavailable', '服务暂不可用'),
    })
    renderScreen(<DashboardPage />, { session: ADMIN })
    const card = await screen.findByTestId('admin-sign-ins')
    const error = await within(card).findByRole('alert')
    expect(within(error).getByText('服务暂不可用')).toBeTruthy()
    await userEvent.click(within(error).getByRole('button', { name: /^重\s?试$/ }))
    expect(await within(card).findByText('0.0%')).toBeTruthy()
  })

  describe('resolving an alarm', () => {
    const itemOf = async (text: string) =>
      (
        await within(await screen.findByTestId('admin-alarms')).findByText(text, { exact: false })
      ).closest('li') as HTMLElement

    test('asks for the reason, sends it with the id, and reads the list again', async () => {
      let open = [unknownPayout, outflow]
      const api = fakeApi({
        'admin/dashboard': () => ok(dashboard({ alarms: open })),
        'admin/resolveAlarm': ({ params }) => {
          open = open.filter((a) => a.id !== Number(params.id))
          return ok({
            ...unknownPayout,
            resolvedAt: '2026-01-03T00:00:00Z',
            resolvedBy: 'alice',
            resolution: params.reason,
          })
        },
      })
      renderScreen(<DashboardPage />, { session: ADMIN })
      const user = userEvent.setup()

      const item = await itemOf('which no withdrawal has')
      await user.click(within(item).getByRole('button', { name: '关闭告警' }))
      const dialog = await screen.findByRole('dialog', { name: '关闭告警 #7' })
      expect(dialog.textContent).toContain('which no withdrawal has')

      // No reason, no call.
      await user.click(within(dialog).getByRole('button', { name: '关闭告警' }))
      expect(await within(dialog).findByText('请填写原因')).toBeTruthy()
      await user.type(within(dialog).getByLabelText('原因'), '   ')
      await user.click(within(dialog).getByRole('button', { name: '关闭告警' }))
      expect(api.callsTo('admin/resolveAlarm')).toHaveLength(0)

      await user.clear(within(dialog).getByLabelText('原因'))
      await user.type(within(dialog).getByLabelText('原因'), ' test payout by the vault owner ')
      await user.click(within(dialog).getByRole('button', { name: '关闭告警' }))

      await waitFor(() => expect(api.callsTo('admin/resolveAlarm')).toHaveLength(1))
      const [call] = api.callsTo('admin/resolveAlarm')
      expect(call?.params).toEqual({ id: '7', reason: 'test payout by the vault owner' })
      expect(call?.headers.token).toBe(ADMIN.token)
      expect(await screen.findByText('告警 #7 已关闭')).toBeTruthy()
      await waitFor(() => expect(api.callsTo('admin/dashboard')).toHaveLength(2))
      await waitFor(() =>
        expect(
          within(screen.getByTestId('admin-alarms'))
            .getAllByRole('listitem')
            .map((li) => li.textContent),
        ).toEqual([expect.stringContaining('left the deposit address')]),
      )
      expect(screen.getByText('需要处理的告警：1 条')).toBeTruthy()
      expect(screen.queryByRole('dialog')).toBeNull()
    })

    test('a refusal shows the server’s message in the dialog; one closed elsewhere leaves the list', async () => {
      let open = [unknownPayout, outflow]
      const api = fakeApi({
        'admin/dashboard': () => ok(dashboard({ alarms: open })),
        'admin/resolveAlarm': () => {
          open = [outflow]
          return fail(409, 'already_resolved', '该记录已处理')
        },
      })
      renderScreen(<DashboardPage />, { session: ADMIN })
      const user = userEvent.setup()

      await user.click(
        within(await itemOf('which no withdrawal has')).getByRole('button', { name: '关闭告警' }),
      )
      const dialog = await screen.findByRole('dialog', { name: '关闭告警 #7' })
      await user.type(within(dialog).getByLabelText('原因'), 'looked into it')
      await user.click(within(dialog).getByRole('button', { name: '关闭告警' }))

      expect((await within(dialog).findByRole('alert')).textContent).toBe('该记录已处理')
      // Shown once, in the dialog: no second message for the same failure.
      expect(screen.getAllByText('该记录已处理')).toHaveLength(1)
      await waitFor(() => expect(api.callsTo('admin/dashboard')).toHaveLength(2))
      expect(await screen.findByText('需要处理的告警：1 条')).toBeTruthy()
      expect(screen.getByRole('dialog', { name: '关闭告警 #7' })).toBeTruthy()
    })

    test('support and content see the alarms without the button', async () => {
      for (const role of ['support', 'content'] as const) {
        fakeApi({ 'admin/dashboard': () => ok(dashboard({ alarms: [unknownPayout] })) })
        const { unmount } = renderScreen(<DashboardPage />, {
          session: { token: `tok-${role}`, username: role, role },
        })
        const alarms = await screen.findByTestId('admin-alarms')
        expect(within(alarms).getByText(/which no withdrawal has/)).toBeTruthy()
        expect(within(alarms).queryByRole('button')).toBeNull()
        unmount()
      }
    })
  })
})
