import type { LoginResult, NoticePage, Withdrawal } from '@hope/api'
import { describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  registerUser,
  signLogin,
  useTestApp,
} from '../../testing/index.ts'

// The bell: a sign-in from a new device, a withdrawal requested (to a new address too) and a
// limit reached each leave the user a notice; the user reads them, nobody else sees them.
describe.each(databaseTargets())('security notices on $name', (target) => {
  const t = useTestApp(target, { chain: connectChain('http://127.0.0.1:9', 31337) })
  const key = keyMaker('notice')

  const notices = (token: string) =>
    call<'userAccount/notices', NoticePage>(t.app, 'userAccount/notices', {}, { token })

  test('a sign-in from another browser is a notice; the same one again, and the first, are not', async () => {
    const user = await registerUser(t.app)
    expect((await notices(user.token)).body.data).toMatchObject({ list: [], unread: 0 })
    const signIn = async (userAgent: string, ip: string) =>
      call<'user/logining', LoginResult>(t.app, 'user/logining', await signLogin(user.wallet), {
        userAgent,
        ip,
      })
    const phone = 'Mozilla/5.0 (Linux; Android 14) TokenPocket/2.0'
    expect((await signIn(phone, '10.9.0.1')).body.code).toBe(200)
    expect((await signIn(phone, '10.9.0.2')).body.code).toBe(200)
    const page = (await notices(user.token)).body.data
    expect(page.unread).toBe(1)
    expect(page.list).toEqual([
      expect.objectContaining({
        kind: 'new_device',
        detail: { ip: '10.9.0.1', device: phone },
        read: false,
      }),
    ])
  })

  test('withdrawals requested (a new address said apart), a limit reached; read, then cleared', async () => {
    const user = await registerUser(t.app)
    await fundAccount(t.db.pool, user.id, '1000')
    const other = await registerUser(t.app)
    const own = await t.as<'userAccount/withdraw', Withdrawal>(user, 'userAccount/withdraw', {
      amount: '20',
      idempotencyKey: key(),
    })
    const away = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    const elsewhere = await t.as<'userAccount/withdraw', Withdrawal>(user, 'userAccount/withdraw', {
      amount: '30',
      address: away,
      idempotencyKey: key(),
    })
    await t.app.services.settings.set('withdrawDailyLimitUsdt', '60', 'test')
    try {
      const refused = await t.as(user, 'userAccount/withdraw', {
        amount: '40',
        idempotencyKey: key(),
      })
      expect(refused.body.reason).toBe('withdraw_limit_reached')
    } finally {
      await t.app.services.settings.set('withdrawDailyLimitUsdt', '50000', 'test')
    }
    // The limit's notice is written beside the refusal: wait for it.
    await expect.poll(async () => (await notices(user.token)).body.data.list.length).toBe(4)
    const page = (await notices(user.token)).body.data
    expect(page.unread).toBe(4)
    expect(page.list.map((x) => [x.kind, x.detail])).toEqual([
      ['limit_reached', { amount: '40', left: '10' }],
      [
        'withdrawal_requested',
        { address: away, amount: '30', withdrawalId: elsewhere.body.data.id },
      ],
      [
        'new_withdrawal_address',
        {
          address: away,
          amount: '30',
          withdrawalId: elsewhere.body.data.id,
          holdUntil: elsewhere.body.data.holdUntil,
        },
      ],
      [
        'withdrawal_requested',
        { address: user.userName, amount: '20', withdrawalId: own.body.data.id },
      ],
    ])
    // Nobody else sees them.
    expect((await notices(other.token)).body.data).toMatchObject({ list: [], unread: 0, total: 0 })
    const read = await t.as(user, 'userAccount/readNotices')
    expect(read.body.data).toEqual({ unread: 0 })
    const after = (await notices(user.token)).body.data
    expect(after.unread).toBe(0)
    expect(after.list.every((x) => x.read)).toBe(true)
    expect((await call(t.app, 'userAccount/notices', {})).body.reason).toBe('not_logged_in')
  })
})
