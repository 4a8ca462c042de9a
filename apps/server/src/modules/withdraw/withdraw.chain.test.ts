import { getAddress, serializeTransaction, type Address, type Hex, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import { connectChain } from '../../chain/chain.service.ts'
import { LOCAL_ROLES, devAccount, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { financeOperator, payoutServices, tokenBalance } from '../../testing/payouts.ts'
import { PAYOUT_VAULT_ABI, payCall } from '../../chain/payout-vault.ts'
import {
  databaseTargets,
  devPayoutSigner,
  fundAccount,
  insertTestUser,
  keyMaker,
  useTestDatabase,
} from '../../testing/index.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createSettingsService } from '../settings/settings.service.ts'

const CONFIRMATIONS = 2

describe('withdrawal payouts on a local chain', () => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let client: PublicClient
  const t = useTestDatabase(databaseTargets()[0]!)
  const key = keyMaker('payout')

  const services = () => {
    const { withdrawals, notices, sender } = payoutServices(t.db.pool, anvil.chainId)
    return {
      withdrawals,
      sender: (afterRecord?: (id: number) => void) =>
        sender({ client, notices, ...(afterRecord ? { afterRecord } : {}) }),
    }
  }
  const onChain = (address: string) => tokenBalance(client, setup.tokenAddress, address)
  let fixture: ChainFixture
  const mine = (blocks: number) => fixture.mine(blocks)
  const statusOf = async (id: number) =>
    (await t.db.pool.query('SELECT status FROM withdrawals WHERE id = $1', [id])).rows[0]
      .status as number
  const usdtOf = async (userId: number) =>
    (
      await t.db.pool.query(
        `SELECT balance::text AS b, debits_pending::text AS p FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [userId],
      )
    ).rows[0] as { b: string; p: string }

  /** Approves withdrawal `id` as the finance operator 'payout-fin' (made on first use). */
  async function approve(withdrawals: ReturnType<typeof services>['withdrawals'], id: number) {
    await withdrawals.review(await financeOperator(t.db.pool, 'payout-fin'), {
      id,
      decision: 'approve',
    })
  }

  /** Ticks until `status` or a few tries: a receipt may take a moment on a busy machine. */
  async function tickUntil(id: number, status: number) {
    for (let i = 0; i < 20 && (await statusOf(id)) !== status; i++) {
      await services().sender().tick()
      if ((await statusOf(id)) !== status) await new Promise((r) => setTimeout(r, 100))
    }
    return statusOf(id)
  }

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup } = fixture)
    client = connectChain(anvil.url, anvil.chainId).client
    await fixture.configure(t.db.pool, CONFIRMATIONS)
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('an approved withdrawal is paid once, confirmed, then completed at the depth', async () => {
    const { withdrawals, sender } = services()
    const user = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, user.id, '100')
    const w = await withdrawals.request(user, { amount: '20', idempotencyKey: key() })
    await approve(withdrawals, w.id)

    const before = await onChain(user.userName)
    const vaultBefore = await onChain(setup.payoutVaultAddress)
    expect(await tickUntil(w.id, 5)).toBe(5)
    expect(await onChain(user.userName)).toBe(before + 20_000_000n)
    await mine(CONFIRMATIONS)
    expect(await tickUntil(w.id, 2)).toBe(2)
    expect(await usdtOf(user.id)).toEqual({ b: '79.000000000000000000', p: '0.000000000000000000' })
    // The user's bell says it was paid, with the payout's hash.
    const paid = await t.db.pool.query(
      `SELECT detail FROM security_notices WHERE user_id = $1 AND kind = 'withdrawal_paid'`,
      [user.id],
    )
    expect(paid.rows.map((r) => r.detail)).toEqual([
      expect.objectContaining({
        amount: '20',
        withdrawalId: w.id,
        txHash: expect.stringMatching(/^0x/),
      }),
    ])
    await sender().tick()
    expect(await onChain(setup.payoutVaultAddress)).toBe(vaultBefore - 20_000_000n)
    // Paid by the vault under the withdrawal's payout id, exactly once.
    const row = (
      await t.db.pool.query('SELECT payout_id, tx_hash FROM withdrawals WHERE id = $1', [w.id])
    ).rows[0] as { payout_id: Hex; tx_hash: string }
    const events = await client.getContractEvents({
      address: setup.payoutVaultAddress,
      abi: PAYOUT_VAULT_ABI,
      eventName: 'Paid',
      args: { payoutId: row.payout_id },
      fromBlock: 0n,
    })
    expect(events.map((e) => [e.transactionHash, e.args.to, e.args.amount])).toEqual([
      [row.tx_hash, getAddress(user.userName), 20_000_000n],
    ])
  })

  test('a sender killed between recording and broadcasting sends exactly once after restart', async () => {
    const { withdrawals, sender } = services()
    const user = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, user.id, '50')
    const w = await withdrawals.request(user, { amount: '15', idempotencyKey: key() })
    await approve(withdrawals, w.id)
    const before = await onChain(user.userName)
    const nonceBefore = await client.getTransactionCount({
      address: devAccount(LOCAL_ROLES.hotWallet).address,
    })

    await expect(
      sender(() => {
        throw new Error('killed')
      }).tick(),
    ).rejects.toThrow('killed')
    const recorded = (
      await t.db.pool.query('SELECT tx_hash FROM withdrawals WHERE id = $1', [w.id])
    ).rows[0].tx_hash as string
    expect(recorded).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await onChain(user.userName)).toBe(before)

    expect(await tickUntil(w.id, 5)).toBe(5)
    await sender().tick()
    expect(await onChain(user.userName)).toBe(before + 15_000_000n)
    expect(
      await client.getTransactionCount({ address: devAccount(LOCAL_ROLES.hotWallet).address }),
    ).toBe(nonceBefore + 1)
    const receipt = await client.getTransactionReceipt({ hash: recorded as `0x${string}` })
    expect(receipt.status).toBe('success')
  })

  test('a payout that reverts is failed and refunded once', async () => {
    const { withdrawals, sender } = services()
    const user = await insertTestUser(t.db.pool)
    // More than the hot wallet holds: the token's transfer reverts. That is above the default
    // withdrawal limits too, which are raised for it.
    const settings = createSettingsService(t.db.pool)
    await settings.set('withdrawDailyLimitUsdt', '1000000', 'test')
    await settings.set('withdrawMonthlyLimitUsdt', '1000000', 'test')
    await fundAccount(t.db.pool, user.id, '500000')
    const w = await withdrawals.request(user, { amount: '400000', idempotencyKey: key() })
    await approve(withdrawals, w.id)
    expect(await tickUntil(w.id, 4)).toBe(4)
    expect(await usdtOf(user.id)).toEqual({
      b: '500000.000000000000000000',
      p: '0.000000000000000000',
    })
    await sender().tick()
    expect(await usdtOf(user.id)).toEqual({
      b: '500000.000000000000000000',
      p: '0.000000000000000000',
    })
  })

  test('a worker holding the signer token asks three more times: the user is paid once', async () => {
    const { withdrawals } = services()
    const user = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, user.id, '100')
    const w = await withdrawals.request(user, { amount: '50', idempotencyKey: key() })
    await approve(withdrawals, w.id)
    const before = await onChain(user.userName)
    expect(await tickUntil(w.id, 5)).toBe(5)
    const row = (
      await t.db.pool.query('SELECT payout_id, raw_tx FROM withdrawals WHERE id = $1', [w.id])
    ).rows[0] as { payout_id: Hex; raw_tx: Hex }
    // The attack: the signer asked for the same approved payout under three other nonces.
    const signer = devPayoutSigner(t.db.pool)
    const s = await createSettingsService(t.db.pool).get()
    const hot = devAccount(LOCAL_ROLES.hotWallet).address
    for (let i = 0; i < 3; i++) {
      const nonce = await client.getTransactionCount({ address: hot, blockTag: 'pending' })
      const raw = await signer.signPayout(w.id, {
        type: 'eip1559',
        chainId: anvil.chainId,
        to: s.payoutVaultAddress as Address,
        value: 0n,
        data: payCall(row.payout_id, user.userName, 50_000_000n),
        nonce,
        gas: 200_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
      })
      expect(raw).toBe(row.raw_tx)
    }
    // And the hot wallet's key itself, used outside the signer: the vault pays an id once.
    const thief = fixture.wallet(LOCAL_ROLES.hotWallet)
    const again = await thief.writeContract({
      address: s.payoutVaultAddress as Address,
      abi: PAYOUT_VAULT_ABI,
      functionName: 'pay',
      args: [row.payout_id, user.userName as Address, 50_000_000n],
      gas: 200_000n,
    })
    expect((await client.waitForTransactionReceipt({ hash: again })).status).toBe('reverted')
    await mine(CONFIRMATIONS)
    expect(await tickUntil(w.id, 2)).toBe(2)
    expect(await onChain(user.userName)).toBe(before + 50_000_000n)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  /**
   * A withdrawal of `amount` USDT approved and paid, then forgotten as a restore to a moment
   * between approval and payment forgets it: approved, no payout recorded, and no signature in
   * the signer's log either.
   */
  async function paidThenForgotten(amount: string) {
    const { withdrawals } = services()
    const user = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, user.id, '100')
    const w = await withdrawals.request(user, { amount, idempotencyKey: key() })
    await approve(withdrawals, w.id)
    const before = await onChain(user.userName)
    expect(await tickUntil(w.id, 5)).toBe(5)
    const paidTx = (await t.db.pool.query('SELECT tx_hash FROM withdrawals WHERE id = $1', [w.id]))
      .rows[0].tx_hash as string
    await t.db.pool.query(
      'UPDATE withdrawals SET status = 1, raw_tx = NULL, tx_hash = NULL, tx_block = NULL WHERE id = $1',
      [w.id],
    )
    await t.db.pool.query('DELETE FROM signer_log WHERE withdrawal_id = $1', [w.id])
    return { user, w, before, paidTx }
  }

  test('books restored to before the payment: the chain is asked, nothing is paid again', async () => {
    const { user, w, before, paidTx } = await paidThenForgotten('25')
    const nonce = await client.getTransactionCount({
      address: devAccount(LOCAL_ROLES.hotWallet).address,
    })
    const report = await services().sender().tick()
    expect(report.learned).toBe(1)
    expect(await statusOf(w.id)).toBe(5)
    expect(
      (await t.db.pool.query('SELECT tx_hash FROM withdrawals WHERE id = $1', [w.id])).rows[0]
        .tx_hash,
    ).toBe(paidTx)
    // Nothing was sent: the hot wallet's nonce did not move, the user holds one payment.
    expect(
      await client.getTransactionCount({ address: devAccount(LOCAL_ROLES.hotWallet).address }),
    ).toBe(nonce)
    await mine(CONFIRMATIONS)
    expect(await tickUntil(w.id, 2)).toBe(2)
    expect(await onChain(user.userName)).toBe(before + 25_000_000n)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('a payout whose transaction reverted because the vault paid it already is not refunded', async () => {
    // A second signature reached the chain under a restored log and reverted there.
    const { user, w, paidTx } = await paidThenForgotten('12')
    const payoutId = (
      await t.db.pool.query('SELECT payout_id FROM withdrawals WHERE id = $1', [w.id])
    ).rows[0].payout_id as Hex
    const reverted = await fixture.wallet(LOCAL_ROLES.hotWallet).writeContract({
      address: setup.payoutVaultAddress,
      abi: PAYOUT_VAULT_ABI,
      functionName: 'pay',
      args: [payoutId, user.userName as Address, 12_000_000n],
      gas: 200_000n,
    })
    expect((await client.waitForTransactionReceipt({ hash: reverted })).status).toBe('reverted')
    await t.db.pool.query('UPDATE withdrawals SET raw_tx = $2, tx_hash = $3 WHERE id = $1', [
      w.id,
      await client
        .getTransaction({ hash: reverted })
        .then((tx) =>
          serializeTransaction(tx as never, { r: tx.r, s: tx.s, yParity: tx.yParity! }),
        ),
      reverted,
    ])
    const report = await services().sender().tick()
    expect(report).toMatchObject({ learned: 1, failed: 0 })
    // Paid (and, the block being deep by now, completed), never failed and refunded.
    expect([5, 2]).toContain(await statusOf(w.id))
    expect(
      (await t.db.pool.query('SELECT tx_hash FROM withdrawals WHERE id = $1', [w.id])).rows[0]
        .tx_hash,
    ).toBe(paidTx)
  })

  test('the ledger verifies clean after every payout', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
