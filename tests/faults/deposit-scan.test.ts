import type { DepositAddress } from '@hope/api'
import { randomInt } from 'node:crypto'
import type { Address } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { devAccount } from '../../apps/server/src/chain/local-chain.ts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import { inParallel, ok, registerUser, setSetting, type User } from './support/api.ts'
import { sendToken } from './support/chain.ts'
import {
  chainReconcile,
  ledgerVerify,
  userBalances,
  depositsAfterCredit,
} from './support/checks.ts'
import { disposeWithSummary, startWithOperators } from './support/suite.ts'
import { HopeServer, isAlive, waitFor } from './support/server.ts'

/** The local chain's dev accounts 3..9 hold test USDT and ether: they are the members here. */
const WALLETS = [3, 4, 5, 6, 7, 8, 9]
const BEFORE_KILL = 3
const WHILE_DOWN = 1

let server: HopeServer
const users: User[] = []

beforeAll(async () => {
  server = await HopeServer.create()
  const ops = await startWithOperators(server)
  await setSetting(server, ops, 'chainConfirmations', '3')
  for (const i of WALLETS) users.push(await registerUser(server, DEMO_ROOT.userName, devAccount(i)))
})

afterAll(async () => {
  await disposeWithSummary(server, 'deposit scan')
})

test('killed while the watcher credits deposits, each deposit is credited once after restart', async () => {
  const target = await ok<DepositAddress>(
    server.baseUrl,
    'userAccount/getAddress',
    {},
    users[0]!.token,
  )
  const sent = new Map<string, bigint>(users.map((u) => [u.userName, 0n]))
  let deposits = 0
  const deposit = async (user: User) => {
    const units = 1_000_000n + BigInt(randomInt(0, 99_000_000))
    await sendToken(
      server,
      user.account,
      target.tokenAddress as Address,
      target.depositAddress as Address,
      units,
    )
    sent.set(user.userName, sent.get(user.userName)! + units)
    deposits += 1
  }

  const pool = server.openPool()
  const counts = async () =>
    (
      await pool.query<{ seen: number; credited: number }>(
        `SELECT count(*)::int AS seen, (count(*) FILTER (WHERE status = 'credited'))::int AS credited FROM deposits`,
      )
    ).rows[0]!
  // Kill once the watcher has credited some deposits while others still wait or are unseen.
  const sending = inParallel(users, users.length, async (u) => {
    for (let i = 0; i < BEFORE_KILL; i++) await deposit(u)
  })
  const atKill = await waitFor(
    'the watcher to credit part of the deposits',
    async () => {
      const c = await counts()
      return c.credited > 0 && c.credited < users.length * BEFORE_KILL ? c : null
    },
    60_000,
    20,
  )
  const oldChain = server.anvilPid()
  await server.kill('SIGKILL')
  await sending
  // The chain keeps going while the app is down: these arrive with nobody watching.
  await inParallel(users, users.length, async (u) => {
    for (let i = 0; i < WHILE_DOWN; i++) await deposit(u)
  })
  await pool.end()

  await server.start()
  // The chain the killed app left running was stopped (its state saved), not left beside the new one.
  expect(oldChain).not.toBeNull()
  expect(isAlive(oldChain!)).toBe(false)
  expect(server.anvilPid()).not.toBe(oldChain)
  const after = server.openPool()
  try {
    // Settled a moment longer after the credits: a double credit would show up.
    expect(await depositsAfterCredit(after, deposits, 3_000)).toEqual([
      { status: 'credited', n: deposits },
    ])
    const balances = await userBalances(
      after,
      users.map((u) => u.userName),
    )
    for (const u of users) expect(balances.get(u.userName)?.balance).toBe(sent.get(u.userName))
    const posted = await after.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transfers WHERE request_key LIKE 'deposit-post:%'`,
    )
    expect(posted.rows[0]!.n).toBe(deposits)
  } finally {
    await after.end()
  }
  expect(await chainReconcile(server)).toMatch(/reconciliation clean/)
  expect(await ledgerVerify(server)).toMatch(/ledger OK/)
  console.info(
    `[faults] deposit scan: ${deposits} deposits from ${users.length} wallets; app killed with ` +
      `${atKill.seen} seen and ${atKill.credited} credited, ${users.length * WHILE_DOWN} more sent while it was down; ` +
      `after restart each credited once; reconciliation clean; breaks found: 0`,
  )
})
