import type { AdminWithdrawal, Page, Withdrawal, WithdrawAddressCheck } from '@hope/api'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'

const addr = (byte: string) => `0x${byte.repeat(20)}`
const TOKEN = addr('a1')
const DEPOSIT = addr('a2')
const VAULT = addr('a3')
const REGISTRY = addr('a4')
const RESERVE = addr('a5')
const HOT_WALLET = addr('a6')
const ZERO = addr('00')
const CONTRACT = addr('c0')
const PLAIN = addr('e0')

/**
 * A node that answers `eth_getCode`: code at CONTRACT, none elsewhere; while `down`, every call
 * fails with HTTP 500.
 */
function startCodeNode() {
  const node = { down: false, calls: 0, url: '', close: async () => {} }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      node.calls += 1
      if (node.down) return void res.writeHead(500).end()
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: number
        params: [string]
      }
      const code = call.params[0].toLowerCase() === CONTRACT ? '0x6080604052' : '0x'
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: code }))
    })
  })
  return new Promise<typeof node>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      node.close = () => new Promise((done) => server.close(() => done()))
      resolve(node)
    })
  })
}

const node = await startCodeNode()
afterAll(() => node.close())

describe.each(databaseTargets())('withdrawal destinations on $name', (target) => {
  const t = useTestApp(target, { chain: connectChain(node.url, 31337) })
  const key = keyMaker('wdd')
  let finance: string

  beforeAll(async () => {
    finance = await newOperator(t.app, 'fin', 'finance')
    const settings = t.app.services.settings
    await settings.set('chainTokenAddress', TOKEN, 'test')
    await settings.set('chainDepositAddress', DEPOSIT, 'test')
    await settings.set('payoutVaultAddress', VAULT, 'test')
    await settings.set('porRegistryAddress', REGISTRY, 'test')
    await settings.set(
      'porReserveSignatures',
      [{ address: RESERVE, signature: `0x${'11'.repeat(65)}` }],
      'test',
    )
    t.app.services.withdrawals.knowKeyAddresses([HOT_WALLET, null])
  })

  async function funded() {
    const user = await registerUser(t.app)
    await fundAccount(t.db.pool, user.id, '100')
    return user
  }
  const withdraw = (token: string, address: string, lang?: 'en') =>
    call<'userAccount/withdraw', Withdrawal>(
      t.app,
      'userAccount/withdraw',
      { amount: '20', address, idempotencyKey: key() },
      { token, ...(lang ? { lang } : {}) },
    )
  const moved = async (userId: number) => {
    const { rows } = await t.db.pool.query<{ pending: string; n: number }>(
      `SELECT (SELECT debits_pending::text FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt') AS pending,
              (SELECT count(*)::int FROM withdrawals WHERE user_id = $1) AS n`,
      [userId],
    )
    return rows[0]!
  }
  const reviewList = async () =>
    (
      await t.as<'admin/withdrawals', Page<AdminWithdrawal>>(finance, 'admin/withdrawals', {
        pageSize: '100',
      })
    ).body.data.list
  const contractOf = async (id: number) =>
    (await reviewList()).find((w) => w.id === id)!.contractDestination
  const walletSignedOf = async (id: number) =>
    (await reviewList()).find((w) => w.id === id)!.walletSigned

  test.each([
    ['the zero address', ZERO],
    ['the token contract', TOKEN],
    ['the deposit address', DEPOSIT],
    ['the payout vault', VAULT],
    ['the proof-of-liabilities registry', REGISTRY],
    ['a proven reserve', RESERVE],
    ['the hot wallet', HOT_WALLET],
    ['the token contract, in mixed case', TOKEN.replace('a1', 'A1')],
  ])('refuses a withdrawal to %s; nothing moves', async (_, address) => {
    const user = await funded()
    const res = await withdraw(user.token, address, 'en')
    expect(res.status).toBe(400)
    expect(res.body.reason).toBe('withdraw_address_forbidden')
    expect(res.body.msg).toMatch(/cannot withdraw to this address/)
    expect(await moved(user.id)).toEqual({ pending: '0.000000000000000000', n: 0 })
  })

  test('a contract destination is accepted and marked for the operators', async () => {
    const user = await funded()
    const res = await withdraw(user.token, CONTRACT)
    expect(res.body.code).toBe(200)
    expect(await contractOf(res.body.data.id)).toBe(true)
    const plain = await withdraw(user.token, PLAIN)
    expect(await contractOf(plain.body.data.id)).toBe(false)
  })

  test('a request the member’s wallet signed is marked so; one to their own wallet, unsigned, is not', async () => {
    const user = await funded()
    // Elsewhere: the member's wallet signs it, as the app has it do.
    const signed = await withdraw(user.token, PLAIN)
    expect(signed.body.code).toBe(200)
    expect(await walletSignedOf(signed.body.data.id)).toBe(true)
    const own = await call<'userAccount/withdraw', Withdrawal>(
      t.app,
      'userAccount/withdraw',
      { amount: '20', idempotencyKey: key() },
      { token: user.token, sign: false },
    )
    expect(own.body.code).toBe(200)
    expect(await walletSignedOf(own.body.data.id)).toBe(false)
    // Where every outflow needs the wallet, one to the own wallet is signed and marked too.
    const settings = t.app.services.settings
    await settings.set('outflowSignature', 'all', 'test')
    try {
      const ownSigned = await withdraw(user.token, user.userName)
      expect(ownSigned.body.code).toBe(200)
      expect(await walletSignedOf(ownSigned.body.data.id)).toBe(true)
    } finally {
      await settings.set('outflowSignature', 'others', 'test')
    }
  })

  test('with the chain down a withdrawal is accepted, its destination unknown', async () => {
    const user = await funded()
    node.down = true
    try {
      const res = await withdraw(user.token, CONTRACT)
      expect(res.body.code).toBe(200)
      expect(await contractOf(res.body.data.id)).toBeNull()
      const check = await t.as<'userAccount/checkWithdrawAddress', WithdrawAddressCheck>(
        user,
        'userAccount/checkWithdrawAddress',
        { address: CONTRACT },
      )
      expect(check.body.data).toEqual({ forbidden: false, contract: null })
    } finally {
      node.down = false
    }
  })

  test('the app asks before the wallet signs: refused, contract, plain', async () => {
    const user = await funded()
    const check = async (address: string) =>
      (
        await t.as<'userAccount/checkWithdrawAddress', WithdrawAddressCheck>(
          user,
          'userAccount/checkWithdrawAddress',
          { address },
        )
      ).body.data
    const before = node.calls
    expect(await check(VAULT)).toEqual({ forbidden: true, contract: null })
    // A refused address never reaches the chain.
    expect(node.calls).toBe(before)
    expect(await check(CONTRACT)).toEqual({ forbidden: false, contract: true })
    expect(await check(PLAIN)).toEqual({ forbidden: false, contract: false })
  })
})
