// An operator restores last night's backup after a payout: approve a withdrawal, let it be
// paid, stop, `npm run restore -- --to <a moment between approval and payment> --replace`,
// start. The books then say "approved, not paid" and the signer's log has forgotten its
// signature, but the chain remembers: the app learns the payment from the payout vault and
// pays nothing again.
import { formatAmount, type DepositAddress } from '@hope/api'
import type { Address } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { LOCK_KEYS } from '../../apps/server/src/db/lock-keys.ts'
import { LOCAL_ROLES, devAccount } from '../../apps/server/src/chain/local-chain.ts'
import { approveWithdrawal, ok, withdrawToFresh, type Operators, type User } from './support/api.ts'
import { chainClient, tokenBalance } from './support/chain.ts'
import {
  ledgerVerify,
  userBalances,
  waitForCount,
  waitForWithdrawalCompleted,
} from './support/checks.ts'
import { HopeServer, runScript, sleep } from './support/server.ts'
import { startWithMember } from './support/suite.ts'

/** archive_timeout for this app: short, so the moment asked is archived soon. */
const env = { BACKUP_ARCHIVE_TIMEOUT_S: '3' }
/** The withdrawal sender's advisory lock (withdraw.sender.ts) on the local chain. */
const SENDER_LOCK = [LOCK_KEYS.withdrawalSender, 31_337]

let server: HopeServer
let ops: Operators
let user: User

beforeAll(async () => {
  server = await HopeServer.create()
  ;({ ops, user } = await startWithMember(server, { env, freshPayouts: true, credit: '100' }))
})

afterAll(async () => {
  await server?.dispose()
})

test('restored to between approval and payment, the withdrawal shows paid and is paid once', async () => {
  const backup = await runScript('backup.ts', server.dataDir, [], env)
  expect(backup.code, backup.stderr).toBe(0)
  const token = (await ok<DepositAddress>(server.baseUrl, 'userAccount/getAddress', {}, user.token))
    .tokenAddress as Address
  const units = 30_000_000n
  const { id, to } = await withdrawToFresh(server, user, units)

  // The sender is held off while the withdrawal is approved, so a moment between approval and
  // payment exists for certain.
  const pool = server.openPool()
  const held = await pool.connect()
  let between: Date
  try {
    await held.query('SELECT pg_advisory_lock($1, $2)', SENDER_LOCK)
    await approveWithdrawal(server, ops.finance, id)
    await sleep(1_000)
    between = new Date()
    await sleep(1_000)
    await held.query('SELECT pg_advisory_unlock($1, $2)', SENDER_LOCK)
  } finally {
    held.release()
  }
  const client = chainClient(server)
  const hotWallet = devAccount(LOCAL_ROLES.hotWallet).address
  try {
    await waitForWithdrawalCompleted(pool, id, 60_000, 100)
  } finally {
    await pool.end()
  }
  const paidTx = await (async () => {
    const p = server.openPool()
    try {
      return (await p.query('SELECT tx_hash FROM withdrawals WHERE id = $1', [id])).rows[0]!
        .tx_hash as string
    } finally {
      await p.end()
    }
  })()
  expect(await tokenBalance(client, token, to)).toBe(units)
  const nonceAfterPayment = await client.getTransactionCount({ address: hotWallet })
  // Archived past the moment, then stopped cleanly.
  await sleep(4_000)
  expect((await server.stop()).code).toBe(0)

  const restored = await runScript(
    'restore.ts',
    server.dataDir,
    ['--to', between.toISOString(), '--data-dir', server.dataDir, '--replace'],
    env,
  )
  expect(restored.code, restored.stderr + restored.stdout).toBe(0)
  await server.start(env)
  const after = server.openPool()
  try {
    // The restored books knew only the approval.
    await waitForCount(
      after,
      'the restored withdrawal to be learned from the chain and complete',
      `SELECT count(*)::int AS n FROM withdrawals WHERE id = ${Number(id)} AND status = 2
         AND tx_hash = '${paidTx.replace(/[^0-9a-fx]/g, '')}'`,
      (n) => n === 1,
      60_000,
      100,
    )
    // Paid once: the fresh address holds one payment, and the hot wallet sent nothing more.
    expect(await tokenBalance(chainClient(server), token, to)).toBe(units)
    expect(await chainClient(server).getTransactionCount({ address: hotWallet })).toBe(
      nonceAfterPayment,
    )
    const balances = await userBalances(after, [user.userName])
    expect(balances.get(user.userName)).toEqual({
      balance: 100_000_000n - units - 1_000_000n,
      pending: 0n,
    })
  } finally {
    await after.end()
  }
  expect(await ledgerVerify(server)).toMatch(/ledger OK/)
  console.info(
    `[faults] payout restore: withdrawal ${id} paid in ${paidTx}; restored to ${between.toISOString()} ` +
      `(approved, unpaid); after the start it shows paid with that transaction, ` +
      `${formatAmount(units, 6)} USDT on chain once, no new payout sent`,
  )
})
