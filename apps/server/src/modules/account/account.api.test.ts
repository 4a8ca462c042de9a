import {
  ACCOUNT_KINDS,
  LAN_HEADER,
  type AccountLogPage,
  type AddressCheck,
  type BalanceList,
  type EnabledCoin,
  type TransferResult,
} from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  registerUser,
  useTestApp,
  type TestUser,
} from '../../testing/index.ts'

describe.each(databaseTargets())('accounts API on $name', (target) => {
  const t = useTestApp(target)
  // Tree: alice → bob → carol; alice → dave (bob's sibling)
  let alice: TestUser
  let bob: typeof alice
  let carol: typeof alice
  let dave: typeof alice
  const key = keyMaker('k')

  beforeAll(async () => {
    alice = await registerUser(t.app)
    bob = await registerUser(t.app, alice.userName)
    carol = await registerUser(t.app, bob.userName)
    dave = await registerUser(t.app, alice.userName)
    await fundAccount(t.db.pool, alice.id, '100')
    await fundAccount(t.db.pool, bob.id, '50')
  })

  const usdt = async (user: { token: string }) => {
    const res = await t.as<'userAccount/balance', BalanceList>(user, 'userAccount/balance')
    return res.body.data.find((a) => a.kind === 'usdt')!
  }

  /** A page of the user's account log (balanceDetail), filtered by `params`. */
  const logOf = async (user: { token: string }, params: Record<string, string> = {}) =>
    (
      await t.as<'userAccount/balanceDetail', AccountLogPage>(
        user,
        'userAccount/balanceDetail',
        params,
      )
    ).body.data

  describe('checkAddress', () => {
    const check = (from: { token: string }, address: string) =>
      t.as<'userAccount/checkAddress', AddressCheck>(from, 'userAccount/checkAddress', { address })

    test.each([
      [
        'a downline member',
        () => alice,
        () => carol,
        { registered: true, self: false, inDownline: true },
      ],
      ['oneself', () => bob, () => bob, { registered: true, self: true, inDownline: false }],
      [
        'another user (a sibling)',
        () => bob,
        () => dave,
        { registered: true, self: false, inDownline: false },
      ],
      ['an upline', () => carol, () => alice, { registered: true, self: false, inDownline: false }],
    ] as const)('tells %s apart', async (_name, from, to, expected) => {
      const res = await check(from(), to().userName.toUpperCase().replace('0X', '0x'))
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual(expected)
    })

    test('a non-registered address is neither self nor downline', async () => {
      const res = await check(alice, '0x' + '34'.repeat(20))
      expect(res.body.data).toEqual({ registered: false, self: false, inDownline: false })
    })

    test('needs a session and a well-formed address', async () => {
      const anonymous = await call(t.app, 'userAccount/checkAddress', { address: carol.userName })
      expect(anonymous.body.reason).toBe('not_logged_in')
      const malformed = await check(alice, '0x12')
      expect(malformed.status).toBe(400)
    })
  })

  describe('balance', () => {
    test('lists the five accounts with available, pending and value', async () => {
      await fundAccount(t.db.pool, dave.id, '25', 'community')
      const res = await t.as<'userAccount/balance', BalanceList>(dave, 'userAccount/balance')
      expect(res.body.data.map((a) => a.kind)).toEqual([
        'usdt',
        'community',
        'shareholder',
        'node',
        'split',
      ])
      expect(res.body.data[1]).toMatchObject({
        currency: 'HOPE',
        balance: '25',
        available: '25',
        pending: '0',
        locked: '0',
        valueUsdt: '2.5',
        totalValueUsdt: '2.5',
        hopePriceUsdt: '0.1',
      })
    })
    test('the split account is locked: its HOPE counts in the value but none of it is available', async () => {
      await fundAccount(t.db.pool, dave.id, '40', 'split')
      const res = await t.as<'userAccount/balance', BalanceList>(dave, 'userAccount/balance')
      expect(res.body.data[4]).toMatchObject({
        kind: 'split',
        balance: '40',
        available: '0',
        locked: '40',
        valueUsdt: '4',
      })
    })
    test('answers a list, as the spec client reads it: one item per account, in order', async () => {
      // The spec's client: POST, the payload in the query, the language header; success only
      // when the HTTP status and the body code are both 200, and the caller gets `data`.
      const erin = await registerUser(t.app, alice.userName)
      await fundAccount(t.db.pool, erin.id, '50')
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/userAccount/balance',
        headers: { lan: LAN_HEADER.en, token: erin.token },
      })
      expect(res.statusCode).toBe(200)
      const body = res.json<{ code: number; data: unknown }>()
      expect(body.code).toBe(200)
      const data = body.data
      expect(Array.isArray(data)).toBe(true)
      const list = data as BalanceList
      expect(list.map((a) => a.kind)).toEqual([...ACCOUNT_KINDS])
      expect(list.map((a) => a.currency)).toEqual(['USDT', 'HOPE', 'USDT', 'USDT', 'HOPE'])
      for (const item of list)
        expect(Object.keys(item).sort()).toEqual([
          'available',
          'balance',
          'currency',
          'hopePriceUsdt',
          'kind',
          'locked',
          'pending',
          'pledgedHope',
          'stakedHope',
          'totalValueUsdt',
          'valueUsdt',
        ])
      expect(list[0]).toMatchObject({
        kind: 'usdt',
        balance: '50',
        available: '50',
        pending: '0',
        valueUsdt: '50',
      })
      // The total and the price ride on every item alike.
      expect(new Set(list.map((a) => a.totalValueUsdt))).toEqual(new Set(['50']))
      expect(new Set(list.map((a) => a.hopePriceUsdt))).toEqual(new Set(['0.1']))
    })
    test('needs a token', async () => {
      expect((await call(t.app, 'userAccount/balance')).body.reason).toBe('not_logged_in')
    })
  })

  describe('transfer', () => {
    test('moves USDT to a direct and a deeper downline member, logged on both sides', async () => {
      const k = key()
      const res = await t.as<'userAccount/transfer', TransferResult>(
        alice,
        'userAccount/transfer',
        { address: carol.userName, amount: '12.5', idempotencyKey: k },
      )
      expect(res.body.data).toMatchObject({
        amount: '12.5',
        fee: '0',
        to: carol.userName,
        replayed: false,
      })
      expect((await usdt(carol)).balance).toBe('12.5')
      const aliceLog = await logOf(alice)
      expect(aliceLog.list[0]).toMatchObject({
        account: 'usdt',
        amount: '-12.5',
        logType: 9,
        counterparty: carol.userName,
        balanceAfter: '87.5',
      })
      const carolLog = await logOf(carol)
      expect(carolLog.list[0]).toMatchObject({
        amount: '12.5',
        logType: 9,
        counterparty: alice.userName,
      })
    })

    test('a double tap with one key moves money once; other content under it is refused', async () => {
      const k = key()
      const before = (await usdt(bob)).balance
      const send = (amount: string) =>
        t.as<'userAccount/transfer', TransferResult>(bob, 'userAccount/transfer', {
          address: carol.userName,
          amount,
          idempotencyKey: k,
        })
      const [r1, r2] = await Promise.all([send('1'), send('1')])
      expect([r1.body.data.replayed, r2.body.data.replayed].sort()).toEqual([false, true])
      expect(Number((await usdt(bob)).balance)).toBe(Number(before) - 1)
      const other = await send('2')
      expect(other.status).toBe(409)
      expect(other.body.reason).toBe('idempotency_conflict')
      expect(Number((await usdt(bob)).balance)).toBe(Number(before) - 1)
    })

    test.each([
      ['self', () => alice, 'not_downline'],
      ['a sibling', () => dave, 'not_downline'],
      ['an upline', () => alice, 'not_downline'],
    ] as const)('refuses %s and nothing moves', async (name, to, reason) => {
      const from = name === 'a sibling' || name === 'an upline' ? bob : alice
      const before = [(await usdt(from)).balance, (await usdt(to())).balance]
      const res = await call(
        t.app,
        'userAccount/transfer',
        { address: to().userName, amount: '1', idempotencyKey: key() },
        { token: from.token, lang: 'en' },
      )
      expect(res.body.reason).toBe(reason)
      expect(res.body.msg).toBe(
        'The receiving address must be a subordinate of its own consensus system',
      )
      expect([(await usdt(from)).balance, (await usdt(to())).balance]).toEqual(before)
    })

    test('refuses an unknown address', async () => {
      const res = await t.as(alice, 'userAccount/transfer', {
        address: '0x' + '12'.repeat(20),
        amount: '1',
        idempotencyKey: key(),
      })
      expect(res.body.reason).toBe('not_registered')
    })

    test('refuses more than the balance', async () => {
      const res = await t.as(bob, 'userAccount/transfer', {
        address: carol.userName,
        amount: '1000',
        idempotencyKey: key(),
      })
      expect(res.status).toBe(409)
      expect(res.body.reason).toBe('insufficient_balance')
    })

    test('speaks the spec messages for a missing address and quantity', async () => {
      const noAddress = await t.as(alice, 'userAccount/transfer', {
        amount: '1',
        idempotencyKey: key(),
      })
      expect(noAddress.body).toMatchObject({ reason: 'address_required', msg: '请输入地址' })
      const emptyAddress = await call(
        t.app,
        'userAccount/transfer',
        { address: '', amount: '1', idempotencyKey: key() },
        { token: alice.token, lang: 'en' },
      )
      expect(emptyAddress.body).toMatchObject({
        reason: 'address_required',
        msg: 'Please enter the address',
      })
      const noAmount = await call(
        t.app,
        'userAccount/transfer',
        { address: carol.userName, idempotencyKey: key() },
        { token: alice.token, lang: 'en' },
      )
      expect(noAmount.body).toMatchObject({
        reason: 'amount_required',
        msg: 'Please enter quantity',
      })
    })

    test.each([
      '-1',
      '0',
      '0.0000001',
      'NaN',
      '1e3',
      'abc',
      '99999999999999999999999',
      '1.',
      ' ',
      'Infinity',
    ])('refuses the amount %j and nothing moves', async (amount) => {
      const before = (await usdt(alice)).balance
      const res = await t.as(alice, 'userAccount/transfer', {
        address: carol.userName,
        amount,
        idempotencyKey: key(),
      })
      expect(res.status).toBe(400)
      expect(['amount_invalid', 'amount_required']).toContain(res.body.reason)
      expect((await usdt(alice)).balance).toBe(before)
    })

    test('refuses a bad address, a missing key and an amount under the minimum', async () => {
      for (const [params, reason] of [
        [{ address: '0x123', amount: '1', idempotencyKey: key() }, 'invalid_params'],
        [{ address: carol.userName, amount: '1' }, 'invalid_params'],
        [{ address: carol.userName, amount: '0.5', idempotencyKey: key() }, 'amount_too_small'],
      ] as const) {
        const res = await t.as(alice, 'userAccount/transfer', params)
        expect(res.body.reason).toBe(reason)
      }
    })

    test('charges the fee set by operators to the fee account', async () => {
      await t.app.services.settings.set('transferFeeFixedUsdt', '0.5', 'test')
      try {
        const before = Number((await usdt(alice)).balance)
        const res = await t.as<'userAccount/transfer', TransferResult>(
          alice,
          'userAccount/transfer',
          { address: bob.userName, amount: '2', idempotencyKey: key() },
        )
        expect(res.body.data.fee).toBe('0.5')
        expect(Number((await usdt(alice)).balance)).toBe(before - 2.5)
        const log = await logOf(alice, { logType: '14' })
        expect(log.list[0]).toMatchObject({ amount: '-0.5', logType: 14 })
      } finally {
        await t.app.services.settings.set('transferFeeFixedUsdt', '0', 'test')
      }
    })
  })

  describe('account log', () => {
    test('pages by cursor, newest first, and filters by account and log type', async () => {
      for (let i = 0; i < 5; i++) {
        await t.as(alice, 'userAccount/transfer', {
          address: dave.userName,
          amount: String(i + 1),
          idempotencyKey: key(),
        })
      }
      const first = await logOf(alice, { pageSize: '2', account: 'usdt', logType: '9' })
      expect(first.list.map((e) => e.amount)).toEqual(['-5', '-4'])
      const second = await logOf(alice, {
        pageSize: '2',
        account: 'usdt',
        logType: '9',
        cursor: first.nextCursor!,
      })
      expect(second.list.map((e) => e.amount)).toEqual(['-3', '-2'])
      const community = await logOf(alice, { account: 'community' })
      expect(community).toEqual({ list: [], nextCursor: null })
    })
    test('pages through all accounts at once, every entry exactly once, newest first', async () => {
      const erin = await registerUser(t.app, alice.userName)
      for (const [i, kind] of (['usdt', 'community', 'node'] as const).entries()) {
        await fundAccount(t.db.pool, erin.id, String(i + 1), kind)
        await fundAccount(t.db.pool, erin.id, String(i + 10), 'community')
      }
      await t.as(alice, 'userAccount/transfer', {
        address: erin.userName,
        amount: '7',
        idempotencyKey: key(),
      })
      await fundAccount(t.db.pool, erin.id, '4', 'split')
      const pages: AccountLogPage['list'][] = []
      let cursor: string | null | undefined
      do {
        const page = await logOf(erin, { pageSize: '2', ...(cursor ? { cursor } : {}) })
        pages.push(page.list)
        cursor = page.nextCursor
      } while (cursor && pages.length < 20)
      const seen = pages.flat()
      expect(pages.slice(0, -1).every((p) => p.length === 2)).toBe(true)
      const stored = await t.db.pool.query<{ id: string }>(
        `SELECT e.transfer_id || '.' || e.account_id AS id FROM ledger_entries e
         WHERE e.user_id = $1 ORDER BY e.transfer_id DESC, e.account_id DESC`,
        [erin.id],
      )
      expect(seen.map((e) => e.id)).toEqual(stored.rows.map((r) => r.id))
      expect(seen.map((e) => [e.account, e.amount])).toEqual([
        ['split', '4'],
        ['usdt', '7'],
        ['community', '12'],
        ['node', '3'],
        ['community', '11'],
        ['community', '2'],
        ['community', '10'],
        ['usdt', '1'],
      ])
      expect(seen.map((e) => e.counterparty)).toEqual([
        null,
        alice.userName,
        ...Array<null>(6).fill(null),
      ])
      const transfers = await logOf(erin, { logType: '9' })
      expect(transfers.list.map((e) => [e.account, e.amount, e.logType])).toEqual([
        ['usdt', '7', 9],
      ])
    })
    test('refuses a bad filter', async () => {
      for (const params of [{ account: 'bank' }, { logType: '17' }, { pageSize: '101' }]) {
        const res = await t.as(alice, 'userAccount/balanceDetail', params)
        expect(res.body.reason, JSON.stringify(params)).toBe('invalid_params')
      }
    })
  })

  test('enableCoins lists both currencies with decimals, accounts, transfer and withdrawal terms', async () => {
    const res = await t.as<'userAccount/enableCoins', EnabledCoin[]>(
      alice,
      'userAccount/enableCoins',
    )
    expect(res.body.data).toEqual([
      {
        currency: 'USDT',
        decimals: 6,
        accounts: ['usdt', 'shareholder', 'node'],
        minTransfer: '1',
        transferFeeFixed: '0',
        transferFeeRate: '0',
        minWithdraw: '10',
        withdrawFeeFixed: '1',
        withdrawFeeRate: '0',
      },
      {
        currency: 'HOPE',
        decimals: 18,
        accounts: ['community', 'split'],
        minTransfer: '0',
        transferFeeFixed: '0',
        transferFeeRate: '0',
        minWithdraw: '0',
        withdrawFeeFixed: '0',
        withdrawFeeRate: '0',
      },
    ])
  })

  test('the deposit address answers 503 until a chain is configured', async () => {
    const res = await t.as(alice, 'userAccount/getAddress')
    expect(res.status).toBe(503)
    expect(res.body.reason).toBe('service_unavailable')
  })

  test('the HOPE price is public', async () => {
    expect((await call(t.app, 'main/getETLDPrice')).body.data).toBe('0.1')
  })

  test('the ledger verifies clean after all of it', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
