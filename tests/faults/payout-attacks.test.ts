// A thief holding the hot wallet's key (the payout vault's payer) tries to take money past the
// books: the same payout id again, then a payout id of their own. The vault refuses the first;
// the second is paid (within the vault's caps) and `npm run chain:reconcile` names it with its
// hash, while `ledger:verify` stays clean: the books are checked against the chain, never the
// other way round.
import { randomBytes } from 'node:crypto'
import { createWalletClient, http, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { PAYOUT_VAULT_ABI } from '../../apps/server/src/chain/payout-vault.ts'
import { LOCAL_ROLES, devAccount, localChain } from '../../apps/server/src/chain/local-chain.ts'
import { approveWithdrawal, withdrawToFresh, type Operators, type User } from './support/api.ts'
import { chainClient } from './support/chain.ts'
import { ledgerVerify, waitForWithdrawalCompleted } from './support/checks.ts'
import { HopeServer, runScript } from './support/server.ts'
import { disposeWithSummary, startWithMember } from './support/suite.ts'

let server: HopeServer
let ops: Operators
let user: User

beforeAll(async () => {
  server = await HopeServer.create()
  ;({ ops, user } = await startWithMember(server, { freshPayouts: true, credit: '100' }))
})

afterAll(async () => {
  await disposeWithSummary(server, 'payout attacks')
})

test('the payer key alone: a paid id is refused, a new one is paid and reported by hash', async () => {
  const { id } = await withdrawToFresh(server, user, 40_000_000n)
  await approveWithdrawal(server, ops.finance, id)
  const pool = server.openPool()
  let payoutId: Hex
  let vault: Address
  try {
    await waitForWithdrawalCompleted(pool, id, 60_000, 100)
    payoutId = (await pool.query('SELECT payout_id FROM withdrawals WHERE id = $1', [id])).rows[0]!
      .payout_id as Hex
    vault = (
      await pool.query(`SELECT value #>> '{}' AS v FROM settings WHERE key = 'payoutVaultAddress'`)
    ).rows[0]!.v as Address
  } finally {
    await pool.end()
  }
  // Clean before the attack: the chain and the books agree.
  const clean = await runScript('chain-reconcile.ts', server.dataDir)
  expect(clean.code, clean.stderr + clean.stdout).toBe(0)

  const url = server.chainRpcUrl()
  const client = chainClient(server)
  const thief = createWalletClient({
    chain: localChain(url),
    transport: http(url),
    account: devAccount(LOCAL_ROLES.hotWallet),
  })
  const pay = (id: Hex, to: Address, units: bigint) =>
    thief.writeContract({
      address: vault,
      abi: PAYOUT_VAULT_ABI,
      functionName: 'pay',
      args: [id, to, units],
      gas: 200_000n,
    })
  const loot = privateKeyToAccount(generatePrivateKey()).address
  const again = await pay(payoutId, loot, 40_000_000n)
  expect((await client.waitForTransactionReceipt({ hash: again })).status).toBe('reverted')
  const outside = await pay(`0x${randomBytes(32).toString('hex')}`, loot, 5_000_000n)
  expect((await client.waitForTransactionReceipt({ hash: outside })).status).toBe('success')

  const after = await runScript('chain-reconcile.ts', server.dataDir)
  expect(after.code, after.stderr + after.stdout).toBe(1)
  expect(after.stdout + after.stderr).toContain(outside)
  // The books themselves are consistent: only the chain can tell.
  expect(await ledgerVerify(server)).toMatch(/ledger OK/)
  console.info(
    `[faults] payout attacks: the paid id again reverted (${again}); a new id paid 5 USDT ` +
      `outside the books, named by chain:reconcile: "${after.stdout
        .split('\n')
        .find((l) => l.includes(outside))
        ?.trim()}"; ledger:verify clean`,
  )
})
