import { formatAmount, type DepositAddress } from '@hope/api'
import { randomInt } from 'node:crypto'
import type { Address } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import { LOCAL_ROLES, devAccount } from '../../apps/server/src/chain/local-chain.ts'
import {
  allowFreshPayouts,
  credit,
  ok,
  registerUser,
  type Operators,
  type User,
  withdrawToFresh,
} from './support/api.ts'
import { chainClient, tokenBalance } from './support/chain.ts'
import { chainReconcile, ledgerVerify, userBalances, waitForCount } from './support/checks.ts'
import { disposeWithSummary, startWithOperators } from './support/suite.ts'
import { HopeServer } from './support/server.ts'

const USERS = 4
const PER_USER = 3
const FUNDING = 1_000_000_000n // 1,000 USDT
const FEE = 1_000_000n // the default withdrawal fee, 1 USDT

let server: HopeServer
let ops: Operators
const users: User[] = []

beforeAll(async () => {
  server = await HopeServer.create()
  ops = await startWithOperators(server)
  await allowFreshPayouts(server, ops)
  for (let i = 0; i < USERS; i++) {
    const user = await registerUser(server, DEMO_ROOT.userName)
    await credit(server, ops, user.userName, formatAmount(FUNDING, 6))
    users.push(user)
  }
})

afterAll(async () => {
  await disposeWithSummary(server, 'withdrawal broadcast')
})

test('killed while approved withdrawals are broadcast, each is paid once and completes', async () => {
  const token = (
    await ok<DepositAddress>(server.baseUrl, 'userAccount/getAddress', {}, users[0]!.token)
  ).tokenAddress as Address
  const hotWallet = devAccount(LOCAL_ROLES.hotWallet).address
  const nonceBefore = await chainClient(server).getTransactionCount({ address: hotWallet })

  // Each withdrawal pays a fresh address, so its balance on chain shows how often it was paid.
  const requests: { user: User; units: bigint; to: Address; id: number }[] = []
  for (const user of users) {
    for (let i = 0; i < PER_USER; i++) {
      const units = 10_000_000n + BigInt(randomInt(0, 90_000_000))
      const { id, to } = await withdrawToFresh(server, user, units)
      requests.push({ user, units, to, id })
    }
  }

  const pool = server.openPool()
  try {
    await ok(
      server.baseUrl,
      'admin/bulkReviewWithdraw',
      { ids: requests.map((r) => r.id).join(','), decision: 'approve' },
      ops.finance,
    )
    // Kill as soon as the sender has recorded its first signed payout.
    const recordedAtKill = await waitForCount(
      pool,
      'the sender to record a payout',
      'SELECT count(*)::int AS n FROM withdrawals WHERE raw_tx IS NOT NULL',
      (n) => n > 0,
      30_000,
      5,
    )
    await server.kill('SIGKILL')
    const atKill = await pool.query<{ tx_hash: string | null; status: number }>(
      'SELECT tx_hash, status FROM withdrawals ORDER BY id',
    )
    // The old chain keeps running until the app starts again: what it has seen was broadcast.
    const oldChain = chainClient(server)
    let broadcastAtKill = 0
    for (const row of atKill.rows) {
      if (!row.tx_hash) continue
      const seen = await oldChain
        .getTransaction({ hash: row.tx_hash as `0x${string}` })
        .catch(() => null)
      if (seen) broadcastAtKill += 1
    }
    await pool.end().catch(() => {})

    await server.start()
    const after = server.openPool()
    try {
      await waitForCount(
        after,
        'every approved withdrawal to complete',
        'SELECT count(*)::int AS n FROM withdrawals WHERE status <> 2',
        (n) => n === 0,
      )
      const client = chainClient(server)
      for (const r of requests) expect(await tokenBalance(client, token, r.to)).toBe(r.units)
      // One payout transaction per withdrawal, none sent twice.
      expect(await client.getTransactionCount({ address: hotWallet })).toBe(
        nonceBefore + requests.length,
      )
      const balances = await userBalances(
        after,
        users.map((u) => u.userName),
      )
      for (const user of users) {
        const paid = requests.filter((r) => r.user === user).reduce((t, r) => t + r.units + FEE, 0n)
        expect(balances.get(user.userName)).toEqual({ balance: FUNDING - paid, pending: 0n })
      }
    } finally {
      await after.end()
    }
    const reconciled = await chainReconcile(server)
    expect(reconciled).toMatch(/reconciliation clean/)
    expect(await ledgerVerify(server)).toMatch(/ledger OK/)
    console.info(
      `[faults] withdrawal broadcast: ${requests.length} approved withdrawals, app killed with ` +
        `${recordedAtKill} payouts signed and recorded, ${broadcastAtKill} of them broadcast; after restart ` +
        `${requests.length} paid once each on chain and completed; reconciliation clean; breaks found: 0`,
    )
  } finally {
    await pool.end().catch(() => {})
  }
})
