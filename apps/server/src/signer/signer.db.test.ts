import type { AddressInfo } from 'node:net'
import { encodeFunctionData, parseTransaction, recoverTransactionAddress, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devKey, LOCAL_ROLES } from '../chain/local-chain.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import { databaseTargets, insertTestUser, useTestDatabase } from '../testing/index.ts'
import { localKeyPort } from './sign-port.ts'
import { createRemoteSigner, createSignerServer } from './signer.channel.ts'
import { TOKEN_TRANSFER_ABI } from './signer.rules.ts'
import { createSigner, SignerRefusal, type UnsignedTx } from './signer.service.ts'

// The signer holds the hot wallet's key and signs only what PostgreSQL says may be paid: an
// approved, unpaid withdrawal to its recorded address and amount, inside its own caps. A
// caller (a compromised web worker) can ask; it cannot decide.
describe('the signer', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let userId: number
  let n = 0
  const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as Address
  const hot = localKeyPort(devKey(LOCAL_ROLES.hotWallet))

  beforeAll(async () => {
    await createSettingsService(t.db.pool).set('chainTokenAddress', TOKEN, 'test')
    userId = (await insertTestUser(t.db.pool)).id
  })
  afterAll(async () => {})

  async function withdrawal(status: number, amount: string, to: string) {
    const res = await t.db.pool.query<{ id: number }>(
      `INSERT INTO withdrawals (user_id, chain_id, to_address, amount, fee, status, idempotency_key, amount_transfer_id)
       VALUES ($1, 31337, $2, $3, 0, $4, $5, 1) RETURNING id::int`,
      [userId, to.toLowerCase(), amount, status, `signer-${++n}`],
    )
    return res.rows[0]!.id
  }
  const payout = (to: string, units: bigint, nonce = n): UnsignedTx => ({
    type: 'eip1559',
    chainId: 31337,
    to: TOKEN,
    data: encodeFunctionData({
      abi: TOKEN_TRANSFER_ABI,
      functionName: 'transfer',
      args: [to as Address, units],
    }),
    nonce,
    gas: 120_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  })
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'signed',
      (e: unknown) => (e instanceof SignerRefusal ? e.reason : `error: ${String(e)}`),
    )
  const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  /** A signer of the hot wallet, capped at 100 USDT an hour and 1,000 a day. */
  const cappedSigner = () =>
    createSigner({ pool: t.db.pool, hotWallet: hot, caps: { hourUsdt: '100', dayUsdt: '1000' } })

  test('signs an approved payout as recorded, logs it; refuses anything else', async () => {
    const signer = cappedSigner()
    const pending = await withdrawal(0, '20', TO)
    expect(await refusal(signer.signPayout(pending, payout(TO, 20_000_000n)))).toBe('not_approved')
    const approved = await withdrawal(1, '20', TO)
    // Another destination, another amount, an unknown withdrawal.
    expect(
      await refusal(
        signer.signPayout(
          approved,
          payout('0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', 20_000_000n),
        ),
      ),
    ).toBe('wrong_payout')
    expect(await refusal(signer.signPayout(approved, payout(TO, 2_000_000_000n)))).toBe(
      'wrong_payout',
    )
    expect(await refusal(signer.signPayout(999_999, payout(TO, 20_000_000n)))).toBe(
      'unknown_withdrawal',
    )
    const raw = await signer.signPayout(approved, payout(TO, 20_000_000n))
    expect(await recoverTransactionAddress({ serializedTransaction: raw as `0x02${string}` })).toBe(
      hot.address,
    )
    expect(parseTransaction(raw).to?.toLowerCase()).toBe(TOKEN)
    const logged = await t.db.pool.query(
      'SELECT withdrawal_id::int AS id, trim_scale(amount)::text AS amount FROM signer_log',
    )
    expect(logged.rows).toEqual([{ id: approved, amount: '20' }])
  })

  test('the hourly cap: distinct withdrawals count once, a re-sign of the same one does not', async () => {
    const signer = cappedSigner()
    const big = await withdrawal(1, '70', TO)
    await signer.signPayout(big, payout(TO, 70_000_000n))
    // The same withdrawal signed again (another nonce) is not counted twice.
    await signer.signPayout(big, payout(TO, 70_000_000n, 1_000))
    const over = await withdrawal(1, '15', TO)
    expect(await refusal(signer.signPayout(over, payout(TO, 15_000_000n)))).toBe('hourly_cap')
    const fits = await withdrawal(1, '10', TO)
    expect(await refusal(signer.signPayout(fits, payout(TO, 10_000_000n)))).toBe('signed')
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
      expect(await refusal(stranger.signPayout(id, payout(TO, 5_000_000n)))).toMatch(/401/)
      const worker = createRemoteSigner({
        url,
        token: 'a'.repeat(64),
        hotWallet: hot.address,
        porPublisher: null,
      })
      const pending = await withdrawal(0, '5', TO)
      expect(await refusal(worker.signPayout(pending, payout(TO, 5_000_000n)))).toBe('not_approved')
      const raw = await worker.signPayout(id, payout(TO, 5_000_000n))
      expect(
        await recoverTransactionAddress({ serializedTransaction: raw as `0x02${string}` }),
      ).toBe(hot.address)
    } finally {
      server.close()
    }
  })
})
