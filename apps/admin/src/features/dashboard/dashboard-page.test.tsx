import { screen } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { dashboard } from '../../test/fixtures.ts'
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
})
