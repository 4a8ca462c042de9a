import type { AdminWithdrawal } from '@hope/api'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { page, withdrawal } from '../../../test-support/fixtures.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { WithdrawalsPage } from './withdrawals-page.tsx'

const pending = [
  withdrawal({ id: 7 }),
  withdrawal({ id: 8, amount: '99.000001' }),
  withdrawal({ id: 9, status: 2, txHash: `0x${'ab'.repeat(32)}`, reviewedBy: 'fin' }),
]

/** The withdrawals screen over a server whose list is `rows`. */
function showWithdrawals(rows: AdminWithdrawal[]) {
  const api = fakeApi({ 'admin/withdrawals': () => ok(page(rows)) })
  renderScreen(<WithdrawalsPage />, { session: ADMIN })
  return api
}

describe('withdrawals', () => {
  test('lists pending requests first, amounts exactly as sent', async () => {
    const api = showWithdrawals(pending)

    expect(await screen.findByText('99.000001')).toBeTruthy()
    expect(api.callsTo('admin/withdrawals')[0]?.params).toMatchObject({ status: '0' })
    expect(screen.getAllByText('待审核').length).toBeGreaterThan(0)
    expect(screen.getByText('已完成')).toBeTruthy()
    expect(screen.queryByTestId('admin-withdrawal-approve-9')).toBeNull()
  })

  test('a destination holding contract code is tagged; an unknown one says so', async () => {
    showWithdrawals([
      withdrawal({ id: 7, contractDestination: true }),
      withdrawal({ id: 8 }),
      withdrawal({ id: 9, contractDestination: null }),
    ])
    const row = (await screen.findByTestId('admin-withdrawal-contract-7')).closest('tr')!
    expect(within(row).getByText('合约地址')).toBeTruthy()
    expect(screen.getAllByText('合约地址')).toHaveLength(1)
    expect(screen.getByTestId('admin-withdrawal-contract-unknown-9').textContent).toBe(
      '是否合约：未知',
    )
    expect(screen.queryByTestId('admin-withdrawal-contract-8')).toBeNull()
  })

  test('a first payout to an address and the zero address are marked for the reviewer', async () => {
    showWithdrawals([
      withdrawal({ id: 7, holdUntil: '2020-01-01T00:00:00.000Z' }),
      withdrawal({ id: 8, address: `0x${'0'.repeat(40)}` }),
      withdrawal({ id: 9 }),
    ])
    const first = await screen.findAllByText('首次提现到此地址')
    const zero = screen.getAllByText('零地址')
    expect([first.length, zero.length]).toEqual([1, 1])
    expect(first[0]!.closest('tr')).not.toBe(zero[0]!.closest('tr'))
    expect(zero[0]!.closest('tr')!.textContent).toContain('0x0000…0000')
  })

  test('a request the member’s wallet signed is marked; one made before that was recorded says so', async () => {
    showWithdrawals([
      withdrawal({ id: 7, walletSigned: true }),
      withdrawal({ id: 8 }),
      withdrawal({ id: 9, walletSigned: null }),
    ])
    const rowOf = (mark: HTMLElement) => within(mark.closest('tr')!)
    const signed = await screen.findAllByText('钱包签名')
    expect(signed).toHaveLength(1)
    expect(rowOf(signed[0]!).getByRole('cell', { name: '7' })).toBeTruthy()
    const unknown = screen.getAllByText('签名：未记录')
    expect(unknown).toHaveLength(1)
    expect(rowOf(unknown[0]!).getByRole('cell', { name: '9' })).toBeTruthy()
    // Hovering the mark says what it means.
    await userEvent.setup().hover(signed[0]!)
    expect(await screen.findByRole('tooltip')).toHaveProperty(
      'textContent',
      expect.stringContaining('服务器已验证该签名'),
    )
  })

  test('approving a row sends that id with the approve decision and the operator token', async () => {
    const api = fakeApi({
      'admin/withdrawals': () => ok(page(pending)),
      'admin/reviewWithdraw': ({ params }) =>
        ok({ ...withdrawal({ id: Number(params.id) }), status: 1 }),
    })
    renderScreen(<WithdrawalsPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByTestId('admin-withdrawal-approve-8'))
    await user.click(await screen.findByTestId('admin-withdrawal-confirm'))

    await waitFor(() => expect(api.callsTo('admin/reviewWithdraw')).toHaveLength(1))
    const [call] = api.callsTo('admin/reviewWithdraw')
    expect(call?.params).toEqual({ id: '8', decision: 'approve' })
    expect(call?.headers.token).toBe(ADMIN.token)
    expect(await screen.findByText('提现 #8 已通过')).toBeTruthy()
    // the list is asked for again after the review
    await waitFor(() => expect(api.callsTo('admin/withdrawals').length).toBeGreaterThan(1))
  })

  test('rejecting needs a reason, which is sent along', async () => {
    const api = fakeApi({
      'admin/withdrawals': () => ok(page(pending)),
      'admin/reviewWithdraw': () => ok({ ...withdrawal(), status: 3 }),
    })
    renderScreen(<WithdrawalsPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByTestId('admin-withdrawal-reject-7'))
    await user.click(await screen.findByTestId('admin-withdrawal-reject-submit'))
    expect(await screen.findByText('请填写原因')).toBeTruthy()
    expect(api.callsTo('admin/reviewWithdraw')).toHaveLength(0)

    await user.type(screen.getByTestId('admin-withdrawal-reject-reason'), '地址可疑')
    await user.click(screen.getByTestId('admin-withdrawal-reject-submit'))
    await waitFor(() =>
      expect(api.callsTo('admin/reviewWithdraw')[0]?.params).toEqual({
        id: '7',
        decision: 'reject',
        reason: '地址可疑',
      }),
    )
  })

  test('bulk approve sends the selected ids; a refusal shows the server’s message', async () => {
    const api = fakeApi({
      'admin/withdrawals': () => ok(page(pending)),
      'admin/bulkReviewWithdraw': () => fail(403, 'forbidden', '没有权限'),
    })
    renderScreen(<WithdrawalsPage />, { session: ADMIN })
    const user = userEvent.setup()
    await screen.findByText('99.000001')

    const boxes = screen.getAllByRole('checkbox')
    // header checkbox, then rows 7, 8, 9 (9 is not pending: disabled)
    await user.click(boxes[1]!)
    await user.click(boxes[2]!)
    expect((boxes[3] as HTMLInputElement).disabled).toBe(true)
    await user.click(screen.getByTestId('admin-withdrawals-bulk-approve'))
    await user.click(await screen.findByTestId('admin-withdrawals-bulk-confirm'))

    await waitFor(() => expect(api.callsTo('admin/bulkReviewWithdraw')).toHaveLength(1))
    expect(api.callsTo('admin/bulkReviewWithdraw')[0]?.params).toEqual({
      ids: '7,8',
      decision: 'approve',
    })
    expect(await screen.findByText('没有权限')).toBeTruthy()
  })

  test('a failed list shows its error and retries', async () => {
    let answers = 0
    fakeApi({
      'admin/withdrawals': () =>
        ++answers === 1 ? fail(503, 'service_unavailable', '服务暂不可用') : ok(page([])),
    })
    renderScreen(<WithdrawalsPage />, { session: ADMIN })
    const error = await screen.findByTestId('admin-load-error')
    expect(error.textContent).toContain('服务暂不可用')
    await userEvent.setup().click(within(error).getByRole('button'))
    await waitFor(() => expect(screen.queryByTestId('admin-load-error')).toBeNull())
  })
})
