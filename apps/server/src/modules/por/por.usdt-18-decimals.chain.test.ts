import { parseProofFile } from '@hope/por-verify'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import {
  createWalletClient,
  erc20Abi,
  http,
  parseUnits,
  type Address,
  type PublicClient,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil, type LocalChain } from '../../chain/anvil.ts'
import { connectChain } from '../../chain/chain.service.ts'
import {
  BSC_LIKE_NETWORK,
  LOCAL_ROLES,
  configureLocalChain,
  devAccount,
  localChain,
  type LocalChainSetup,
} from '../../chain/local-chain.ts'
import {
  databaseTargets,
  fundAccount,
  insertTestUser,
  useTestDatabase,
} from '../../testing/index.ts'
import { porOnLocalChain } from '../../testing/por.ts'
import { openAlarms } from '../alarm/alarm.repository.ts'
import { createSettingsService } from '../settings/settings.service.ts'
import { createPorPublisher } from './por.publisher.ts'
import * as repo from './por.repository.ts'
import { createPorService } from './por.service.ts'
import { buildTreeInWorker } from './por.tree.ts'

const CONFIRMATIONS = 2
const CHAIN_ID = BSC_LIKE_NETWORK.chainId
const RULES = BSC_LIKE_NETWORK.porRules
const CLI = path.resolve(import.meta.dirname, '../../../../../packages/por-verify/src/cli.ts')

/**
 * The proof of liabilities on a network like BSC (chain id 56, an 18-decimal USDT): the books
 * keep USDT to 6 decimals, the reserves are counted in the token's 18, and the two compare
 * exactly: 123.456789 USDT owed is covered by 123456789000000000000 units and not by one less.
 */
describe('proof of liabilities on an 18-decimal USDT network (chain id 56)', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let anvil: LocalChain
  let setup: LocalChainSetup
  let client: PublicClient
  let publisher: ReturnType<typeof createPorPublisher>
  let por: ReturnType<typeof createPorService>
  const alice = devAccount(3)
  const settings = () => createSettingsService(t.db.pool)
  const rpc = (method: string, params: unknown[] = []) =>
    client.request({ method: method as 'eth_chainId', params: params as never })
  const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`])
  const send = async (from: number, to: Address, units: bigint) => {
    const hash = await createWalletClient({
      chain: localChain(anvil.url, CHAIN_ID),
      transport: http(anvil.url),
      account: devAccount(from),
    }).writeContract({
      address: setup.tokenAddress,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, units],
    })
    await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  }

  /** Takes a snapshot and publishes it, past the registry's interval and the check block. */
  const publish = async () => {
    await rpc('evm_increaseTime', [Number(RULES.minIntervalS)])
    await mine(CONFIRMATIONS)
    await repo.requestSnapshot(t.db.pool, 'test')
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    await mine(CONFIRMATIONS + Number(RULES.checkWindow) + 1)
    expect(await publisher.tick()).toMatchObject({ published: 1 })
    return por.latest()
  }

  /** `npx por-verify` on alice's proof, pinned to the settings' registry and token. */
  const verifyCli = async (usdt: string) => {
    const latest = await por.latest()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-proof-'))
    const file = path.join(dir, 'proof.json')
    fs.writeFileSync(file, JSON.stringify(await por.myProof({ userName: alice.address })))
    const args = [
      ...[CLI, file, '--rpc', anvil.url, '--registry', latest.registryAddress],
      ...['--token', latest.tokenAddress, '--address', alice.address],
      ...['--usdt', usdt, '--hope', '0'],
    ]
    try {
      const r = await promisify(execFile)(process.execPath, args).then(
        (ok) => ({ code: 0, stdout: ok.stdout }),
        (e: { code: number; stdout: string }) => e,
      )
      return { status: r.code, output: r.stdout }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: CHAIN_ID })
    setup = await configureLocalChain(settings(), anvil.url, {
      freshChain: true,
      network: BSC_LIKE_NETWORK,
    })
    await settings().set('chainConfirmations', CONFIRMATIONS, 'test')
    client = connectChain(anvil.url, CHAIN_ID).client
    ;({ publisher, por } = porOnLocalChain(t.db.pool, settings(), {
      rpcUrl: anvil.url,
      chainId: CHAIN_ID,
      hotWallet: setup.hotWalletAddress,
      buildTree: buildTreeInWorker,
    }))
    // Alice is owed 123.456789 USDT, another member the payout vault's whole float.
    const a = await insertTestUser(t.db.pool, { address: alice.address })
    await fundAccount(t.db.pool, a.id, '123.456789')
    const b = await insertTestUser(t.db.pool, { address: devAccount(4).address })
    await fundAccount(t.db.pool, b.id, '100000')
    // The deposit address holds exactly alice's balance in the token's units.
    await send(5, setup.depositAddress, 123_456_789_000_000_000_000n)
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  test('reserves of exactly the liabilities in 18-decimal units pass every check', async () => {
    const latest = await publish()
    expect(latest).toMatchObject({
      chainId: CHAIN_ID,
      tokenDecimals: 18,
      reservesUsdt: '100123.456789',
      coverage: '1',
    })
    const row = (await repo.snapshotById(t.db.pool, latest.snapshotId))!
    // Liabilities at the books' 6 decimals, reserves at the token's 18.
    expect(row.totalUsdt).toBe('100123456789')
    expect(row.reservesUsdt).toBe('100123456789000000000000')
    expect(row.reserves).toContainEqual({
      address: setup.depositAddress,
      balance: '123456789000000000000',
    })
    const parsed = parseProofFile(await por.myProof({ userName: alice.address }))
    if (!parsed.ok) throw new Error(parsed.error)
    expect(parsed.proof.chainId).toBe(CHAIN_ID)
    expect(parsed.proof.balance.usdt).toBe(String(parseUnits('123.456789', 6)))

    const { status, output } = await verifyCli('123.456789')
    expect(output).toMatch(
      /reserves.*100123\.456789 of the token \(18 decimals\) held at block \d+ by 3 address\(es\) ≥ liabilities 100123\.456789 USDT \(100%\)/,
    )
    // Each reserve signed its ownership of chain 56's registry and token.
    expect(output).toMatch(/✓ reserve ownership\s+3 reserve address\(es\), each signed by its key/)
    expect(status, output).toBe(0)
    expect(await openAlarms(t.db.pool)).toEqual([])

    // The user's balance is checked exactly too: one unit of USDT more is not hers.
    expect((await verifyCli('123.456790')).status).toBe(1)
  })

  test('one token unit short of the liabilities fails the reserves check and raises the alarm', async () => {
    // 10^-18 USDT leaves the deposit address.
    await send(LOCAL_ROLES.deposit, devAccount(6).address, 1n)
    const latest = await publish()
    expect(latest.reservesUsdt).toBe('100123.456788999999999999')
    const { status, output } = await verifyCli('123.456789')
    expect(output).toMatch(
      /✗ .*100123\.456788999999999999 of the token \(18 decimals\) held at block \d+ by 3 address\(es\) < liabilities 100123\.456789 USDT/,
    )
    // The reserves fail, at block B and again at the check block; every other check holds.
    expect(output).toMatch(/2 of \d+ checks failed/)
    expect(status).toBe(1)
    const alarms = await openAlarms(t.db.pool)
    expect(alarms.map((a) => a.kind)).toContain('por_shortfall')
  })
})
