import type { AdminPorSnapshot } from '@hope/api'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test, vi } from 'vitest'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { page } from '../../../test-support/fixtures.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { PENDING_POLL_MS } from './api/reserves.ts'
import { ReservesPage } from './reserves-page.tsx'

const snapshot = (s: Partial<AdminPorSnapshot>): AdminPorSnapshot => ({
  id: 1,
  takenAt: '2026-11-26T18:00:00.000Z',
  blockNumber: 1200,
  users: 3,
  totalUsdt: '1000',
  totalHope: '5',
  inFlightUsdt: '20',
  reservesUsdt: '1100',
  coverage: '1.1',
  status: 'published',
  publishTxHash: `0x${'ab'.repeat(32)}`,
  publishAttempts: 1,
  publishedAt: '2026-11-26T18:01:00.000Z',
  ...s,
})

/** The confirmation's own 立即发布, beside its question. */
const confirmButton = async () =>
  within(await screen.findByRole('tooltip')).getByRole('button', { name: '立即发布' })

describe('proof of reserves', () => {
  test('lists snapshots with their coverage, a shortfall in red', async () => {
    fakeApi({
      'admin/porSnapshots': () =>
        ok(
          page([
            snapshot({ id: 2, reservesUsdt: '900.5', coverage: '0.9005', status: 'pending' }),
            snapshot({}),
          ]),
        ),
    })
    renderScreen(<ReservesPage />, { session: ADMIN })
    expect(await screen.findByText('900.5')).toBeTruthy()
    expect(screen.getByText('0.9005').closest('.ant-tag')?.className).toMatch(/error/)
    expect(screen.getByText('1.1').closest('.ant-tag')?.className).toMatch(/success/)
    expect(screen.getByText('发布中')).toBeTruthy()
    expect(screen.getByText('已发布')).toBeTruthy()
  })

  test('publish now asks the job, after a confirmation', async () => {
    const api = fakeApi({
      'admin/porSnapshots': () => ok(page([])),
      'admin/porPublish': () => ok({ requestedAt: '2026-11-26T18:00:00.000Z', created: true }),
    })
    renderScreen(<ReservesPage />, { session: ADMIN })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: '立即发布' }))
    await user.click(await confirmButton())
    await waitFor(() => expect(api.callsTo('admin/porPublish')).toHaveLength(1))
    expect(api.callsTo('admin/porPublish')[0]?.headers.token).toBe(ADMIN.token)
    expect(await screen.findByText('已提交快照请求：任务下次运行时执行')).toBeTruthy()
  })

  test('after publish now, the list is asked again until the requested snapshot shows', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let taken: AdminPorSnapshot[] = []
    const api = fakeApi({
      'admin/porSnapshots': () => ok(page(taken)),
      'admin/porPublish': () => ok({ requestedAt: '2026-11-26T18:00:00.000Z', created: true }),
    })
    renderScreen(<ReservesPage />, { session: ADMIN })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await user.click(await screen.findByRole('button', { name: '立即发布' }))
    await user.click(await confirmButton())
    await waitFor(() => expect(api.callsTo('admin/porPublish')).toHaveLength(1))
    const asked = api.callsTo('admin/porSnapshots').length
    // The job has not taken it yet: the list is asked again, and again.
    await vi.advanceTimersByTimeAsync(PENDING_POLL_MS)
    await waitFor(() => expect(api.callsTo('admin/porSnapshots').length).toBeGreaterThan(asked))
    taken = [snapshot({ id: 9, status: 'pending', takenAt: '2026-11-26T18:00:05.000Z' })]
    await vi.advanceTimersByTimeAsync(PENDING_POLL_MS)
    expect(await screen.findByText('发布中')).toBeTruthy()
    vi.useRealTimers()
  })
})
