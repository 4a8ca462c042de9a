import { type DepositAddress } from '@hope/api'
import fs from 'node:fs'
import path from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest'
import { LOCAL_ROLES, devAccount } from '../../apps/server/src/chain/local-chain.ts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import {
  allowFreshPayouts,
  approveWithdrawal,
  call,
  credit,
  ok,
  registerUser,
  succeeded,
  type Operators,
  type User,
  withdrawToFresh,
} from './support/api.ts'
import { chainClient, sendToken, tokenBalance } from './support/chain.ts'
import { chainReconcile, ledgerVerify, userBalances } from './support/checks.ts'
import { disposeWithSummary, startWithOperators } from './support/suite.ts'
import { HopeServer, sleep, waitFor } from './support/server.ts'

const FEE = 1_000_000n

let server: HopeServer
let ops: Operators
let depositor: User
let withdrawer: User
let target: DepositAddress
const report: string[] = []
/** Everything sent or paid, to check the books and the chain at the end. */
const deposits: bigint[] = []
const payouts: { to: Address; units: bigint; id: number }[] = []

beforeAll(async () => {
  server = await HopeServer.create()
  ops = await startWithOperators(server)
  await allowFreshPayouts(server, ops)
  depositor = await registerUser(server, DEMO_ROOT.userName, devAccount(3))
  withdrawer = await registerUser(server, DEMO_ROOT.userName)
  await credit(server, ops, withdrawer.userName, '1000')
  target = await ok<DepositAddress>(server.baseUrl, 'userAccount/getAddress', {}, depositor.token)
})

afterAll(async () => {
  await disposeWithSummary(server, 'chain node stopped', report)
})

async function deposit(units: bigint): Promise<void> {
  await sendToken(
    server,
    depositor.account,
    target.tokenAddress as Address,
    target.depositAddress as Address,
    units,
  )
  deposits.push(units)
}

/** A withdrawal to a fresh address, approved at once. */
async function approvedWithdrawal(units: bigint): Promise<void> {
  const { id, to } = await withdrawToFresh(server, withdrawer, units)
  await approveWithdrawal(server, ops.finance, id)
  payouts.push({ to, units, id })
}

/**
 * The app keeps answering what does not need the chain, checked each second until `ms` after
 * `since`, and keeps running: how many checks it answered.
 */
async function keepsAnswering(since: number, ms: number): Promise<number> {
  let answered = 0
  while (Date.now() - since < ms) {
    const a = await call(server.baseUrl, 'userAccount/balance', {}, { token: withdrawer.token })
    expect(succeeded(a)).toBe(true)
    answered += 1
    await sleep(1_000)
  }
  expect(server.running).toBe(true)
  return answered
}

/** Waits until every deposit is credited once and every payout is completed and paid once. */
async function everythingSettled(): Promise<void> {
  const pool = server.openPool()
  try {
    await waitFor(
      'deposits credited and withdrawals completed',
      async () => {
        const r = await pool.query<{ credited: number; open: number }>(
          `SELECT (SELECT count(*)::int FROM deposits WHERE status = 'credited') AS credited,
                  (SELECT count(*)::int FROM withdrawals WHERE status <> 2) AS open`,
        )
        return r.rows[0]!.credited >= deposits.length && r.rows[0]!.open === 0
      },
      90_000,
      250,
    )
    const rows = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM deposits WHERE status = 'credited'`,
    )
    expect(rows.rows[0]!.n).toBe(deposits.length)
    const balances = await userBalances(pool, [depositor.userName, withdrawer.userName])
    expect(balances.get(depositor.userName)?.balance).toBe(deposits.reduce((t, d) => t + d, 0n))
    const spent = payouts.reduce((t, p) => t + p.units + FEE, 0n)
    expect(balances.get(withdrawer.userName)).toEqual({
      balance: 1_000_000_000n - spent,
      pending: 0n,
    })
  } finally {
    await pool.end()
  }
  const client = chainClient(server)
  for (const p of payouts)
    expect(await tokenBalance(client, target.tokenAddress as Address, p.to)).toBe(p.units)
}

test('the chain node frozen: the watcher and the sender pause, then resume without loss', async () => {
  onTestFailed(() => console.error(server.output(20_000)))
  const hotWallet = devAccount(LOCAL_ROLES.hotWallet).address
  const nonceBefore = await chainClient(server).getTransactionCount({ address: hotWallet })
  await deposit(12_345_678n)
  // Frozen right after the deposit is mined: it is still short of its confirmations.
  const anvil = server.anvilPid()!
  process.kill(anvil, 'SIGSTOP')
  server.faults += 1
  const frozenAt = Date.now()
  try {
    // Work arriving while the node is frozen is recorded; the app keeps answering.
    await approvedWithdrawal(21_500_000n)
    await approvedWithdrawal(10_000_001n)
    const answered = await keepsAnswering(frozenAt, 17_000)
    report.push(
      `[faults] chain node frozen (SIGSTOP) for ${Math.round((Date.now() - frozenAt) / 1000)} s: app answered ${answered} of ${answered} checks, ` +
        `2 withdrawals approved meanwhile`,
    )
  } finally {
    process.kill(anvil, 'SIGCONT')
  }
  const thawedAt = Date.now()
  await everythingSettled()
  expect(await chainClient(server).getTransactionCount({ address: hotWallet })).toBe(
    nonceBefore + payouts.length,
  )
  report.push(
    `[faults] after the node returned: ${deposits.length} deposit credited once, ${payouts.length} withdrawals paid once ` +
      `and completed within ${Date.now() - thawedAt} ms`,
  )
})

test('the chain node killed: the app keeps serving, and after a restart pays and credits without loss', async () => {
  onTestFailed(() => console.error(server.output(20_000)))
  const hotWallet = devAccount(LOCAL_ROLES.hotWallet).address
  const nonceBefore = await chainClient(server).getTransactionCount({ address: hotWallet })
  await deposit(7_000_000n)
  // The dev chain writes its state every 5 s: let the last deposit reach the file first, as a
  // node's own storage would hold it.
  const stateFile = path.join(server.dataDir, 'chain', 'state.json')
  const written = fs.statSync(stateFile).mtimeMs
  await waitFor(
    'the chain to write its state',
    () => fs.statSync(stateFile).mtimeMs > written,
    15_000,
  )
  const anvil = server.anvilPid()!
  process.kill(anvil, 'SIGKILL')
  server.faults += 1
  const killedAt = Date.now()
  await approvedWithdrawal(33_000_000n)
  // The jobs fail and retry against the missing node; the app stays up and answers.
  const answered = await keepsAnswering(killedAt, 5_000)
  const pool = server.openPool()
  try {
    const waiting = await pool.query<{ status: number }>(
      'SELECT status FROM withdrawals WHERE id = $1',
      [payouts.at(-1)!.id],
    )
    // Still approved: an unreachable node is not a failed payout (that would refund it).
    expect(waiting.rows[0]!.status).toBe(1)
  } finally {
    await pool.end()
  }
  // The embedded node is managed at start: restarting the app brings it back from its state.
  const stopped = await server.stop()
  // 143: the embedded database's own SIGTERM hook ends the process once it has stopped it.
  expect([0, 143]).toContain(stopped.code)
  await server.start()
  await everythingSettled()
  expect(await chainClient(server).getTransactionCount({ address: hotWallet })).toBe(
    nonceBefore + 1,
  )
  expect(await chainReconcile(server)).toMatch(/reconciliation clean/)
  expect(await ledgerVerify(server)).toMatch(/ledger OK/)
  report.push(
    `[faults] chain node killed: app answered ${answered} of ${answered} checks while it was gone, the approved withdrawal waited (status 1); ` +
      `app stopped in ${stopped.ms} ms and restarted with the node: ${deposits.length} deposits credited once, ` +
      `${payouts.length} withdrawals paid once; reconciliation clean; breaks found: 0`,
  )
})
