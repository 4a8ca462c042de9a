import { formatAmount } from '@hope/api'
import type { PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import { devAccount, TOKEN_DECIMALS, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { databaseTargets, insertTestUser, useTestDatabase } from '../../testing/index.ts'
import { openAlarms } from '../alarm/alarm.service.ts'
import { createLedgerService } from '../ledger/ledger.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createRechargeService } from './recharge.service.ts'
import { createSettingsService } from '../settings/settings.service.ts'
import { connectChain } from '../../chain/chain.service.ts'
import { createDepositWatcher, type DepositWatcher } from './deposit.watcher.ts'

const CONFIRMATIONS = 3
const USDT = 10n ** BigInt(TOKEN_DECIMALS)
/** The default maxAmountUsdt, 10^12 USDT, in token units. */
const BOUND = 1_000_000_000_000n * USDT

describe.each(databaseTargets())('deposits past the amount bound on $name', (target) => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let client: PublicClient
  const t = useTestDatabase(target)
  let watcher: DepositWatcher
  const logError = vi.fn()
  let alice: { id: number }

  let fixture: ChainFixture
  const mine = (blocks: number) => fixture.mine(blocks)
  /** The local token lets its deployer mint any amount: the chain, not the app, decides values. */
  const mint = async (toIndex: number, units: bigint) =>
    (await fixture.tokenCall(0, 'mint', [devAccount(toIndex).address, units])).hash
  const deposit = async (fromIndex: number, units: bigint) =>
    (await fixture.tokenCall(fromIndex, 'transfer', [setup.depositAddress, units])).hash

  const depositRow = async (hash: string) =>
    (
      await t.db.pool.query(
        'SELECT status, failure, amount::text, user_id::int AS "userId" FROM deposits WHERE tx_hash = $1',
        [hash.toLowerCase()],
      )
    ).rows[0]
  const usdtOf = async (userId: number) =>
    (
      await t.db.pool.query(
        `SELECT balance::text AS b, credits_pending::text AS p FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [userId],
      )
    ).rows[0]
  /** The exact amount as the deposits table shows it (18 decimals). */
  const shown = (units: bigint) => {
    const [whole, frac = ''] = formatAmount(units, TOKEN_DECIMALS).split('.')
    return `${whole}.${frac.padEnd(18, '0')}`
  }

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup, client } = fixture)
    const settings = await fixture.configure(t.db.pool, CONFIRMATIONS)
    watcher = createDepositWatcher({
      pool: t.db.pool,
      ledger: createLedgerService(t.db.pool),
      settings,
      client,
      chainId: anvil.chainId,
      logError,
    })
    alice = await insertTestUser(t.db.pool, { address: devAccount(3).address })
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('a deposit past the bound ends failed with an alarm; the deposits after it are credited once', async () => {
    const overBound = BOUND + 1n
    const uint256Huge = 2n ** 255n
    await mint(3, overBound + uint256Huge / 2n + BOUND)
    await mint(5, uint256Huge)

    // Just past the bound, from a member: it fits the ledger's columns but must not be credited.
    const justOver = await deposit(3, overBound)
    // Near the top of uint256, from a member who had claimed the hash, and from a stranger.
    const hugeFromMember = await deposit(3, uint256Huge / 2n)
    const recharges = createRechargeService({
      pool: t.db.pool,
      settings: createSettingsService(t.db.pool),
      chain: () => connectChain(anvil.url, anvil.chainId),
    })
    await recharges.claim(alice.id, hugeFromMember)
    const hugeFromStranger = await deposit(5, uint256Huge)
    // A zero-value transfer, which anyone may send, records nothing and blocks nothing.
    const zero = await deposit(6, 0n)
    // Exactly the bound is still credited, and so is an ordinary deposit after all of these.
    const atBound = await deposit(3, BOUND)
    const ordinary = await deposit(3, 25n * USDT)

    const first = await watcher.tick()
    expect(first).toMatchObject({ seen: 2, failed: 3 })
    await mine(CONFIRMATIONS)
    expect((await watcher.tick()).credited).toBe(2)
    await mine(2)
    expect(await watcher.tick()).toMatchObject({ seen: 0, credited: 0, failed: 0 })

    for (const [hash, units, userId] of [
      [justOver, overBound, alice.id],
      [hugeFromMember, uint256Huge / 2n, alice.id],
      [hugeFromStranger, uint256Huge, null],
    ] as const)
      expect(await depositRow(hash)).toEqual({
        status: 'failed',
        failure: 'amount_too_large',
        amount: shown(units),
        userId,
      })
    expect(await depositRow(zero)).toBeUndefined()
    expect(await depositRow(atBound)).toMatchObject({ status: 'credited', failure: null })
    expect(await depositRow(ordinary)).toMatchObject({ status: 'credited', failure: null })
    const claim = await t.db.pool.query(
      'SELECT status, failure FROM recharge_claims WHERE user_id = $1 AND tx_hash = $2',
      [alice.id, hugeFromMember],
    )
    expect(claim.rows).toEqual([{ status: 'failed', failure: 'amount_too_large' }])

    // Credited once each: the bound and the ordinary deposit, nothing else.
    expect(await usdtOf(alice.id)).toEqual({
      b: shown(BOUND + 25n * USDT),
      p: '0.000000000000000000',
    })
    const entries = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
       WHERE e.user_id = $1 AND t.log_type = 12`,
      [alice.id],
    )
    expect(entries.rows[0].n).toBe(2)

    // One alarm per refused deposit, raised once however many ticks see it; logged at error level.
    const alarms = (await openAlarms(t.db.pool)).filter(
      (a) => a.kind === 'deposit_amount_too_large',
    )
    expect(alarms.map((a) => a.detail.txHash).sort()).toEqual(
      [justOver, hugeFromMember, hugeFromStranger].map((h) => h.toLowerCase()).sort(),
    )
    for (const a of alarms) {
      expect(a.detail).toMatchObject({ reason: 'amount_too_large', maxAmountUsdt: '1000000000000' })
      expect(a.message).toMatch(/above the bound of 1000000000000 USDT/)
    }
    expect(logError).toHaveBeenCalledTimes(3)

    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
