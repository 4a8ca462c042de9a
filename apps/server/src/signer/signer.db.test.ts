import type { AddressInfo } from 'node:net'
import {
  encodeFunctionData,
  parseTransaction,
  recoverTransactionAddress,
  type Address,
  type TransactionSerializedLegacy,
  type Hex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devKey, LOCAL_ROLES } from '../chain/local-chain.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import { databaseTargets, insertTestUser, useTestDatabase } from '../testing/index.ts'
import { localKeyPort } from './sign-port.ts'
import { createRemoteSigner, createSignerServer } from './signer.channel.ts'
import { POR_PUBLISH_ABI, VAULT_PAY_ABI } from './signer.rules.ts'
import { createSigner, SignerRefusal, type UnsignedTx } from './signer.service.ts'

// The signer holds the hot wallet's key and signs only what PostgreSQL says may be paid: the
// vault's payout of an approved withdrawal under its payout id, to its recorded address and
// amount, once, inside its own caps. A caller (a compromised web worker) can ask; it cannot
// decide.
describe('the signer', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let userId: number
  let n = 0
  const VAULT = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as Address
  const REGISTRY = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0' as Address
  const hot = localKeyPort(devKey(LOCAL_ROLES.hotWallet))
  const publisherKey = localKeyPort(devKey(LOCAL_ROLES.deployer))
  /** Each withdrawal's payout id, by withdrawal id. */
  const payoutIds = new Map<number, Hex>()

  beforeAll(async () => {
    const settings = createSettingsService(t.db.pool)
    await settings.set('payoutVaultAddress', VAULT, 'test')
    await settings.set('porRegistryAddress', REGISTRY, 'test')
    userId = (await insertTestUser(t.db.pool)).id
  })
  afterAll(async () => {})

  async function withdrawal(status: number, amount: string, to: string) {
    const res = await t.db.pool.query<{ id: number; payoutId: Hex }>(
      `INSERT INTO withdrawals (user_id, chain_id, to_address, amount, fee, status, idempotency_key, amount_transfer_id)
       VALUES ($1, 31337, $2, $3, 0, $4, $5, 1) RETURNING id::int, payout_id AS "payoutId"`,
      [userId, to.toLowerCase(), amount, status, `signer-${++n}`],
    )
    payoutIds.set(res.rows[0]!.id, res.rows[0]!.payoutId)
    return res.rows[0]!.id
  }
  /** The vault's payout of withdrawal `id` (its own payout id unless another is named). */
  const payout = (
    id: number,
    to: string,
    units: bigint,
    over: Partial<UnsignedTx> & { payoutId?: Hex } = {},
  ): UnsignedTx => {
    const { payoutId = payoutIds.get(id) ?? `0x${'00'.repeat(31)}01`, ...rest } = over
    return {
      type: 'eip1559',
      chainId: 31337,
      to: VAULT,
      value: 0n,
      data: encodeFunctionData({
        abi: VAULT_PAY_ABI,
        functionName: 'pay',
        args: [payoutId, to as Address, units],
      }),
      nonce: id,
      gas: 150_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      ...rest,
    } as UnsignedTx
  }
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'signed',
      (e: unknown) => (e instanceof SignerRefusal ? e.reason : `error: ${String(e)}`),
    )
  const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  /** A signer of the hot wallet, capped at 100 USDT an hour and 1,000 a day. */
  const cappedSigner = () =>
    createSigner({ pool: t.db.pool, hotWallet: hot, caps: { hourUsdt: '100', dayUsdt: '1000' } })
  /** Caps far above what a test pays: only the other checks refuse. */
  const uncappedSigner = () =>
    createSigner({
      pool: t.db.pool,
      hotWallet: hot,
      caps: { hourUsdt: '1000000', dayUsdt: '1000000' },
    })

  test('signs an approved payout as recorded, logs it; refuses anything else', async () => {
    const signer = cappedSigner()
    const pending = await withdrawal(0, '20', TO)
    expect(await refusal(signer.signPayout(pending, payout(pending, TO, 20_000_000n)))).toBe(
      'not_approved',
    )
    const approved = await withdrawal(1, '20', TO)
    const other = await withdrawal(1, '20', TO)
    // Another destination, another amount, another withdrawal's payout id, an unknown withdrawal.
    expect(
      await refusal(
        signer.signPayout(
          approved,
          payout(approved, '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', 20_000_000n),
        ),
      ),
    ).toBe('wrong_payout')
    expect(await refusal(signer.signPayout(approved, payout(approved, TO, 2_000_000_000n)))).toBe(
      'wrong_payout',
    )
    expect(
      await refusal(
        signer.signPayout(
          approved,
          payout(approved, TO, 20_000_000n, { payoutId: payoutIds.get(other)! }),
        ),
      ),
    ).toBe('wrong_payout')
    expect(
      await refusal(signer.signPayout(approved, payout(approved, TO, 20_000_000n, { value: 1n }))),
    ).toBe('wrong_value')
    expect(
      await refusal(signer.signPayout(approved, payout(approved, TO, 20_000_000n, { to: TO }))),
    ).toBe('wrong_vault')
    expect(
      await refusal(
        signer.signPayout(approved, payout(approved, TO, 20_000_000n, { gas: 5_000_000n })),
      ),
    ).toBe('gas_limit')
    expect(
      await refusal(
        signer.signPayout(
          approved,
          payout(approved, TO, 20_000_000n, { maxFeePerGas: 10n ** 15n }),
        ),
      ),
    ).toBe('fee_limit')
    expect(await refusal(signer.signPayout(999_999, payout(999_999, TO, 20_000_000n)))).toBe(
      'unknown_withdrawal',
    )
    const raw = await signer.signPayout(approved, payout(approved, TO, 20_000_000n))
    expect(await recoverTransactionAddress({ serializedTransaction: raw as `0x02${string}` })).toBe(
      hot.address,
    )
    expect(parseTransaction(raw).to?.toLowerCase()).toBe(VAULT)
    const logged = await t.db.pool.query(
      `SELECT withdrawal_id::int AS id, trim_scale(amount)::text AS amount, payout_id AS "payoutId"
       FROM signer_log WHERE withdrawal_id = $1`,
      [approved],
    )
    expect(logged.rows).toEqual([{ id: approved, amount: '20', payoutId: payoutIds.get(approved) }])
  })

  test('a worker asking three more times with other nonces gets the one payout back', async () => {
    const signer = cappedSigner()
    const id = await withdrawal(1, '50', TO)
    const first = await signer.signPayout(id, payout(id, TO, 50_000_000n))
    for (const nonce of [id + 1, id + 2, id + 3]) {
      const again = await signer.signPayout(id, payout(id, TO, 50_000_000n, { nonce }))
      expect(again).toBe(first)
    }
    // Once paid, it is still only that transaction.
    await t.db.pool.query('UPDATE withdrawals SET status = 5 WHERE id = $1', [id])
    expect(await signer.signPayout(id, payout(id, TO, 50_000_000n, { nonce: 9_999 }))).toBe(first)
    const rows = await t.db.pool.query('SELECT 1 FROM signer_log WHERE withdrawal_id = $1', [id])
    expect(rows.rowCount).toBe(1)
  })

  test('a stuck payout may be replaced: the same nonce with both fees raised, and it counts', async () => {
    const signer = uncappedSigner()
    const id = await withdrawal(1, '30', TO)
    const first = await signer.signPayout(id, payout(id, TO, 30_000_000n))
    const raised = payout(id, TO, 30_000_000n, {
      maxFeePerGas: 4_000_000_000n,
      maxPriorityFeePerGas: 2_000_000_000n,
    })
    const second = await signer.signPayout(id, raised)
    expect(second).not.toBe(first)
    expect(parseTransaction(second).nonce).toBe(parseTransaction(first).nonce)
    // Asked again, the newest one comes back.
    expect(await signer.signPayout(id, payout(id, TO, 30_000_000n, { nonce: 1 }))).toBe(second)
    const logged = await t.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM signer_log WHERE withdrawal_id = $1',
      [id],
    )
    expect(logged.rows[0]!.n).toBe(2)
  })

  test('on a chain without EIP-1559: a legacy payout for its chain id, the same checks, its gas price capped', async () => {
    const signer = uncappedSigner()
    const id = await withdrawal(1, '25', TO)
    const other = await withdrawal(1, '25', TO)
    const legacy = (gasPrice: bigint, to = TO, over: Partial<UnsignedTx> = {}) => {
      const { maxFeePerGas: _, maxPriorityFeePerGas: __, ...tx } = payout(id, to, 25_000_000n)
      return { ...tx, type: 'legacy', gasPrice, ...over } as UnsignedTx
    }
    const wrongTo = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
    expect(await refusal(signer.signPayout(id, legacy(2_000_000_000n, wrongTo)))).toBe(
      'wrong_payout',
    )
    expect(await refusal(signer.signPayout(other, legacy(2_000_000_000n)))).toBe('wrong_payout')
    expect(await refusal(signer.signPayout(id, legacy(10n ** 15n)))).toBe('fee_limit')
    // Both kinds of fee at once, or neither: not a transaction it signs.
    const mixed = legacy(2_000_000_000n, TO, { maxFeePerGas: 2_000_000_000n } as never)
    expect(await refusal(signer.signPayout(id, mixed))).toBe('fee_limit')
    expect(await refusal(signer.signPayout(id, { ...legacy(1n), gasPrice: undefined }))).toBe(
      'fee_limit',
    )

    const first = await signer.signPayout(id, legacy(2_000_000_000n))
    const tx = parseTransaction(first)
    expect(tx).toMatchObject({ type: 'legacy', chainId: 31337, gasPrice: 2_000_000_000n })
    expect(
      await recoverTransactionAddress({
        serializedTransaction: first as TransactionSerializedLegacy,
      }),
    ).toBe(hot.address)
    // A price raised too little is a repeat; raised by a quarter, a replacement of its nonce.
    expect(await signer.signPayout(id, legacy(2_100_000_000n))).toBe(first)
    const second = await signer.signPayout(id, legacy(2_500_000_000n))
    expect(second).not.toBe(first)
    expect(parseTransaction(second)).toMatchObject({ nonce: tx.nonce, gasPrice: 2_500_000_000n })
    const logged = await t.db.pool.query(
      `SELECT max_fee_per_gas::text AS fee, max_priority_fee_per_gas::text AS tip
       FROM signer_log WHERE withdrawal_id = $1 ORDER BY id`,
      [id],
    )
    expect(logged.rows).toEqual([
      { fee: '2000000000', tip: '2000000000' },
      { fee: '2500000000', tip: '2500000000' },
    ])
  })

  test('the hourly cap counts every signature', async () => {
    await t.db.pool.query("UPDATE signer_log SET signed_at = now() - interval '2 days'")
    const signer = cappedSigner()
    const big = await withdrawal(1, '70', TO)
    await signer.signPayout(big, payout(big, TO, 70_000_000n))
    // A repeated request signs nothing and counts nothing.
    await signer.signPayout(big, payout(big, TO, 70_000_000n, { nonce: 1_000 }))
    const over = await withdrawal(1, '35', TO)
    expect(await refusal(signer.signPayout(over, payout(over, TO, 35_000_000n)))).toBe('hourly_cap')
    const fits = await withdrawal(1, '30', TO)
    expect(await refusal(signer.signPayout(fits, payout(fits, TO, 30_000_000n)))).toBe('signed')
  })

  test('the vault it pays through is the one it first read: a vault changed in the settings is refused', async () => {
    const signer = uncappedSigner()
    const id = await withdrawal(1, '1', TO)
    await signer.signPayout(id, payout(id, TO, 1_000_000n))
    const settings = createSettingsService(t.db.pool)
    const thief = '0x976ea74026e726554db657fa54763abd0c3a0aa9'
    await settings.set('payoutVaultAddress', thief, 'test')
    try {
      const next = await withdrawal(1, '1', TO)
      expect(
        await refusal(signer.signPayout(next, payout(next, TO, 1_000_000n, { to: thief }))),
      ).toBe('wrong_vault')
    } finally {
      await settings.set('payoutVaultAddress', VAULT, 'test')
    }
  })

  test('the publisher key signs each publication at a block after the last one, once', async () => {
    const signer = createSigner({ pool: t.db.pool, hotWallet: hot, porPublisher: publisherKey })
    const publish = (id: bigint, block: bigint, nonce: number): UnsignedTx => ({
      type: 'eip1559',
      chainId: 31337,
      to: REGISTRY,
      data: encodeFunctionData({
        abi: POR_PUBLISH_ABI,
        functionName: 'publish',
        args: [id, `0x${'11'.repeat(32)}`, 1n, 1n, block, VAULT, 10n, 3n, [TO as Address]],
      }),
      nonce,
      gas: 300_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })
    const first = await signer.signPor!(publish(1n, 100n, 0))
    // Dropped and sent again under another nonce: the same bytes.
    expect(await signer.signPor!(publish(1n, 100n, 1))).toBe(first)
    // An earlier moment, or another snapshot of the same one: refused.
    expect(await refusal(signer.signPor!(publish(2n, 99n, 1)))).toBe('por_block_not_after')
    expect(await refusal(signer.signPor!(publish(2n, 100n, 1)))).toBe('por_block_not_after')
    expect(await refusal(signer.signPor!({ ...publish(2n, 101n, 1), to: VAULT }))).toBe(
      'not_publish',
    )
    expect(await refusal(signer.signPor!(publish(2n, 101n, 1)))).toBe('signed')
  })

  test('over its channel: the token is required, refusals come back as refusals', async () => {
    const signer = createSigner({ pool: t.db.pool, hotWallet: hot })
    const server = createSignerServer(signer, 'a'.repeat(64))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const id = await withdrawal(1, '5', TO)
      const stranger = createRemoteSigner({
        url,
        token: 'b'.repeat(64),
        hotWallet: hot.address,
        porPublisher: null,
      })
      expect(await refusal(stranger.signPayout(id, payout(id, TO, 5_000_000n)))).toMatch(/401/)
      const worker = createRemoteSigner({
        url,
        token: 'a'.repeat(64),
        hotWallet: hot.address,
        porPublisher: null,
      })
      const pending = await withdrawal(0, '5', TO)
      expect(await refusal(worker.signPayout(pending, payout(pending, TO, 5_000_000n)))).toBe(
        'not_approved',
      )
      expect(
        await refusal(worker.signPayout(id, payout(id, TO, 5_000_000n, { value: 10n ** 18n }))),
      ).toBe('wrong_value')
      const raw = await worker.signPayout(id, payout(id, TO, 5_000_000n))
      expect(
        await recoverTransactionAddress({ serializedTransaction: raw as `0x02${string}` }),
      ).toBe(hot.address)
      // A legacy payout travels as one, its gas price under the same cap.
      const legacyId = await withdrawal(1, '5', TO)
      const {
        maxFeePerGas: _,
        maxPriorityFeePerGas: __,
        ...rest
      } = payout(legacyId, TO, 5_000_000n)
      const legacy = (gasPrice: bigint) => ({ ...rest, type: 'legacy', gasPrice }) as UnsignedTx
      expect(await refusal(worker.signPayout(legacyId, legacy(10n ** 15n)))).toBe('fee_limit')
      const legacyRaw = await worker.signPayout(legacyId, legacy(2_000_000_000n))
      expect(parseTransaction(legacyRaw)).toMatchObject({
        type: 'legacy',
        gasPrice: 2_000_000_000n,
      })
    } finally {
      server.close()
    }
  })
})
