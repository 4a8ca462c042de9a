import { randomBytes } from 'node:crypto'
import { buildLoginMessage, type LoginResult, type Page, type Recharge } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { createWalletClient, encodeFunctionData, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil, type LocalChain } from '../../chain/anvil.ts'
import { connectChain, type ChainConnection } from '../../chain/chain.service.ts'
import token from '../../chain/contracts/TetherLikeToken.json' with { type: 'json' }
import {
  devAccount,
  localChain,
  prepareLocalChain,
  type LocalChainSetup,
} from '../../chain/local-chain.ts'
import {
  DEMO_ROOT,
  buildTestApp,
  call,
  databaseTargets,
  registerUser,
  useTestDatabase,
} from '../../testing/index.ts'
import { createDepositWatcher, type DepositWatcher } from './deposit.watcher.ts'

const CONFIRMATIONS = 3
/** A development account holding the local token and gas; the chain's sender in these tests. */
const SENDER = 4

describe.each(databaseTargets())('recharge claims on a local chain and $name', (target) => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let chain: ChainConnection
  const t = useTestDatabase(target)
  let app: FastifyInstance
  let watcher: DepositWatcher

  const mine = (blocks: number) =>
    chain.client.request({
      method: 'anvil_mine' as 'eth_chainId',
      params: [`0x${blocks.toString(16)}`] as never,
    })

  async function sendDeposit(amount: string): Promise<`0x${string}`> {
    const wallet = createWalletClient({
      chain: localChain(anvil.url),
      transport: http(anvil.url),
      account: devAccount(SENDER),
    })
    const hash = await wallet.sendTransaction({
      to: setup.tokenAddress,
      data: encodeFunctionData({
        abi: token.abi,
        functionName: 'transfer',
        args: [setup.depositAddress, parseUnits(amount, 6)],
      }),
    })
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    return hash
  }

  const claim = (txHash: string, user: { token: string }) =>
    call<'userAccount/recharge', Recharge>(app, 'userAccount/recharge', { txHash }, user)
  const myRecharges = async (user: { token: string }) =>
    (
      await call<'userAccount/myRecharge', Page<Recharge>>(
        app,
        'userAccount/myRecharge',
        { pageNum: 1, pageSize: 10 },
        user,
      )
    ).body.data.list
  const claimRows = async (txHash: string) =>
    (
      await t.db.pool.query<{ userId: number; status: string; failure: string | null; at: Date }>(
        `SELECT user_id::int AS "userId", status, failure, created_at AS at
         FROM recharge_claims WHERE tx_hash = $1 ORDER BY id`,
        [txHash],
      )
    ).rows
  const rechargeCredits = async (userId: number) =>
    (
      await t.db.pool.query<{ n: number; sum: string }>(
        `SELECT count(*)::int AS n, coalesce(sum(e.amount), 0)::text AS sum
         FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
         WHERE e.user_id = $1 AND t.log_type = 12`,
        [userId],
      )
    ).rows[0]!

  beforeAll(async () => {
    anvil = await startAnvil()
    setup = await prepareLocalChain(anvil.url, undefined)
    chain = connectChain(anvil.url, anvil.chainId)
    app = await buildTestApp(t.db, { chain })
    const settings = app.services.settings
    await settings.set('chainTokenAddress', setup.tokenAddress, 'test')
    await settings.set('chainDepositAddress', setup.depositAddress, 'test')
    await settings.set('chainConfirmations', CONFIRMATIONS, 'test')
    watcher = createDepositWatcher({
      pool: t.db.pool,
      ledger: app.services.ledger,
      settings,
      client: chain.client,
      chainId: anvil.chainId,
    })
  })
  afterAll(async () => {
    await app?.close()
    await anvil?.stop()
  })

  test('a user may queue only rechargePendingClaimsMax unseen hashes; a repeat is not counted', async () => {
    const eve = await registerUser(app)
    await app.services.settings.set('rechargePendingClaimsMax', 3, 'test')
    try {
      const hashes = Array.from({ length: 4 }, () => `0x${randomBytes(32).toString('hex')}`)
      for (const h of hashes.slice(0, 3)) expect((await claim(h, eve)).body.code).toBe(200)
      const fourth = await claim(hashes[3]!, eve)
      expect(fourth.body).toMatchObject({ code: 429, reason: 'too_many_pending_recharges' })
      expect(await claimRows(hashes[3]!)).toEqual([])
      // Posting a queued hash again answers it, as before.
      expect((await claim(hashes[0]!, eve)).body.code).toBe(200)
      // The cap is one user's: another user still posts.
      const frank = await registerUser(app)
      expect((await claim(hashes[3]!, frank)).body.code).toBe(200)
    } finally {
      await app.services.settings.set('rechargePendingClaimsMax', 20, 'test')
    }
  })

  test('a hash posted first by someone else is still the sender’s: credited once, with the sender’s own time', async () => {
    const owner = devAccount(SENDER)
    const message = buildLoginMessage(Date.now())
    const registered = await call<'user/register', LoginResult>(app, 'user/register', {
      username: owner.address,
      message,
      signature: await owner.signMessage({ message }),
      pusername: DEMO_ROOT.userName,
      location: 1,
    })
    expect(registered.body.code).toBe(200)
    const bob = { id: registered.body.data.id, token: registered.body.data.token }
    const mallory = await registerUser(app)

    const hash = await sendDeposit('25')
    // Mallory saw the hash first (in the mempool, say) and posts it as hers.
    const squat = await claim(hash, mallory)
    expect(squat.status).toBe(200)
    expect(squat.body.data).toMatchObject({ txHash: hash, status: 'on_chain' })

    const first = await claim(hash, bob)
    expect(first.status).toBe(200)
    expect(first.body.code).toBe(200)
    expect(first.body.data).toMatchObject({ txHash: hash, status: 'on_chain' })
    const again = await claim(hash, bob)
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual(first.body.data)

    const claims = await claimRows(hash)
    expect(claims.map((c) => c.userId)).toEqual([mallory.id, bob.id])
    const [mallorysClaim, bobsClaim] = claims
    expect(bobsClaim!.at.getTime()).toBeGreaterThan(mallorysClaim!.at.getTime())
    expect(first.body.data.createdAt).toBe(bobsClaim!.at.toISOString())

    await watcher.tick()
    await mine(CONFIRMATIONS)
    await watcher.tick()

    const bobs = await myRecharges(bob)
    expect(bobs).toHaveLength(1)
    expect(bobs[0]).toMatchObject({
      txHash: hash,
      status: 'credited',
      amount: '25',
      createdAt: bobsClaim!.at.toISOString(),
    })
    expect(await rechargeCredits(bob.id)).toEqual({ n: 1, sum: '25.000000000000000000' })

    const mallorys = await myRecharges(mallory)
    expect(mallorys).toEqual([
      expect.objectContaining({ txHash: hash, status: 'failed', amount: null }),
    ])
    expect(await claimRows(hash)).toEqual([
      expect.objectContaining({
        userId: mallory.id,
        status: 'failed',
        failure: 'sent from another wallet',
      }),
      expect.objectContaining({ userId: bob.id, status: 'on_chain' }),
    ])
    expect(await rechargeCredits(mallory.id)).toEqual({ n: 0, sum: '0' })

    // Posting again after the credit, and ticking on: still one claim and one credit.
    const replay = await claim(hash, bob)
    expect(replay.body.data).toMatchObject({
      status: 'credited',
      amount: '25',
      createdAt: first.body.data.createdAt,
    })
    await mine(2)
    await watcher.tick()
    expect((await claimRows(hash)).filter((c) => c.userId === bob.id)).toHaveLength(1)
    expect(await rechargeCredits(bob.id)).toEqual({ n: 1, sum: '25.000000000000000000' })
  })
})
