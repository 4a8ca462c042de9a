import { screen, waitFor, within } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { adminUser, page } from '../../../test-support/fixtures.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { UsersPage } from './users-page.tsx'

const bob = adminUser()
/** The dialogs' submit button's label (antd spaces out two Chinese characters). */
const SUBMIT = /^提\s?交$/

/** Opens the credit dialog of the first row, fills it in and submits it. */
async function submitCredit(user: UserEvent, amount: string, reason: string) {
  await user.click(await screen.findByText('充值/扣款'))
  await user.type(screen.getByLabelText('金额（USDT）'), amount)
  await user.type(screen.getByLabelText('原因'), reason)
  await user.click(screen.getByText(SUBMIT))
}

describe('users', () => {
  test('searches by the text typed and shows balances exactly as sent', async () => {
    const api = fakeApi({ 'admin/users': () => ok(page([bob])) })
    renderScreen(<UsersPage />, { session: ADMIN })
    expect(await screen.findByText('1,234.500000000000000001')).toBeTruthy()

    const user = userEvent.setup()
    await user.type(screen.getByPlaceholderText('地址、昵称或邀请码'), ' BOB1 {Enter}')
    await waitFor(() =>
      expect(api.callsTo('admin/users').at(-1)?.params).toMatchObject({ q: 'BOB1', pageNum: '1' }),
    )
  })

  test('a credit keeps its idempotency key through a retry; a new opening gets a new key', async () => {
    let answers = 0
    const api = fakeApi({
      'admin/users': () => ok(page([bob])),
      'admin/credit': () =>
        ++answers === 1
          ? fail(503, 'service_unavailable', '服务暂不可用')
          : ok({
              transferId: '9',
              account: 'usdt',
              amount: '10.5',
              before: '1234.5',
              after: '1245',
              replayed: false,
            }),
    })
    renderScreen(<UsersPage />, { session: ADMIN })
    const user = userEvent.setup()

    await submitCredit(user, '10.5', '补发奖励')
    expect(await screen.findByText('服务暂不可用')).toBeTruthy()
    await user.click(screen.getByText(SUBMIT))
    expect(await screen.findByText('已完成：1234.5 → 1245')).toBeTruthy()

    const [first, retry] = api.callsTo('admin/credit')
    expect(first?.params).toMatchObject({
      userName: bob.userName,
      account: 'usdt',
      amount: '10.5',
      reason: '补发奖励',
    })
    expect(first?.params.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(retry?.params.idempotencyKey).toBe(first?.params.idempotencyKey)

    await submitCredit(user, '1', '再次')
    await waitFor(() => expect(api.callsTo('admin/credit')).toHaveLength(3))
    expect(api.callsTo('admin/credit')[2]?.params.idempotencyKey).not.toBe(
      first?.params.idempotencyKey,
    )
  })

  test('an amount that is not a plain positive decimal is not sent', async () => {
    const api = fakeApi({ 'admin/users': () => ok(page([bob])) })
    renderScreen(<UsersPage />, { session: ADMIN })
    const user = userEvent.setup()
    await submitCredit(user, '1e3', 'x')
    expect(await screen.findByText('请输入大于 0 的数字')).toBeTruthy()
    expect(api.callsTo('admin/credit')).toHaveLength(0)
  })

  test('support may flag robots but not move money', async () => {
    const api = fakeApi({
      'admin/users': () => ok(page([bob])),
      'admin/flagRobot': () => ok({ userName: bob.userName, isRobot: true, nodes: [] }),
    })
    renderScreen(<UsersPage />, { session: { token: 's', username: 'sue', role: 'support' } })
    const user = userEvent.setup()
    await user.click(await screen.findByText('标记机器人'))
    expect(screen.queryByText('充值/扣款')).toBeNull()
    expect(screen.queryByText('授予股东')).toBeNull()

    await user.type(screen.getByLabelText('原因'), '批量注册')
    await user.click(screen.getByText(SUBMIT))
    await waitFor(() =>
      expect(api.callsTo('admin/flagRobot')[0]?.params).toEqual({
        userName: bob.userName,
        robot: 'true',
        reason: '批量注册',
      }),
    )
  })

  test('the downline tree loads one level at a time', async () => {
    const carol = adminUser({ id: 4, userName: `0x${'4'.repeat(40)}`, nickName: 'Carol' })
    const dave = adminUser({ id: 5, userName: `0x${'5'.repeat(40)}`, nickName: 'Dave' })
    const api = fakeApi({
      'admin/users': () => ok(page([bob])),
      'admin/userTree': ({ params }) =>
        params.userName === bob.userName
          ? ok({ user: bob, children: [carol] })
          : ok({ user: carol, children: [dave] }),
    })
    renderScreen(<UsersPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByText('下级'))
    const tree = await screen.findByTestId('admin-user-tree')
    expect(await within(tree).findByText(/\(Carol\)/)).toBeTruthy()
    expect(within(tree).queryByText(/\(Dave\)/)).toBeNull()

    const carolRow = within(tree)
      .getByText(/\(Carol\)/)
      .closest('.ant-tree-treenode')!
    await user.click(carolRow.querySelector('.ant-tree-switcher')!)
    expect(await within(tree).findByText(/\(Dave\)/)).toBeTruthy()
    expect(api.callsTo('admin/userTree').map((c) => c.params.userName)).toEqual([
      bob.userName,
      carol.userName,
    ])
  })
})
