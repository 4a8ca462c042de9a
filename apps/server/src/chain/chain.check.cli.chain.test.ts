import { execFile } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import { startChainFixture, type ChainFixture } from '../testing/chain-fixture.ts'
import { databaseTargets, useTestDatabase } from '../testing/index.ts'
import { startAnvil, type LocalChain } from './anvil.ts'
import { BSC_LIKE_NETWORK, configureLocalChain } from './local-chain.ts'

const REPO = path.resolve(import.meta.dirname, '../../../..')

interface CheckRun {
  code: number
  out: string
  rows: Map<string, string[]>
}

/**
 * `npm run chain:check` as an operator runs it, on a database, a node and the chain id they
 * name: its exit code and its table, line by line.
 */
function chainCheck(databaseUrl: string, rpcUrl: string, chainId: number) {
  const env = { DATABASE_URL: databaseUrl, CHAIN_RPC_URLS: rpcUrl, CHAIN_ID: String(chainId) }
  return new Promise<CheckRun>((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'chain:check'],
      { cwd: REPO, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const out = stdout + stderr
        const rows = new Map(
          stdout
            .split('\n')
            .map((l) => l.split(' | ').map((c) => c.trim()))
            .filter((cells) => cells.length === 3)
            .map(([name, ...rest]) => [name!.replace(/ \(.*\)$/, ''), rest]),
        )
        resolve({ code: error ? Number(error.code) : 0, out, rows })
      },
    )
  })
}

/** The table of a network that is what the settings say: every line ok. */
function expectEveryLineOk(r: CheckRun, chainId: number, tokenDecimals: number) {
  expect(r.code, r.out).toBe(0)
  expect(r.rows.get('chain id')).toEqual([String(chainId), 'ok'])
  expect(r.rows.get('token decimals and symbol')).toEqual([`${tokenDecimals} decimals, USDT`, 'ok'])
  for (const line of [
    'payout vault code',
    'proof-of-liabilities registry code',
    "hot wallet's gas",
  ])
    expect(r.rows.get(line)?.[1], line).toBe('ok')
}

describe('npm run chain:check against the local chain', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let fixture: ChainFixture

  beforeAll(async () => {
    fixture = await startChainFixture()
    await fixture.configure(t.db.pool, 3, { por: true })
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('prints every line ok: chain 31337, a 6-decimal USDT, the vault and the registry', async () => {
    const r = await chainCheck(t.db.url, fixture.anvil.url, fixture.anvil.chainId)
    expectEveryLineOk(r, 31337, 6)
    expect(r.out).toMatch(/chain:check: the network is what the settings say/)
  })
})

describe('npm run chain:check against the 18-decimal network (chain id 56)', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let anvil: LocalChain

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: BSC_LIKE_NETWORK.chainId })
    await configureLocalChain(createSettingsService(t.db.pool), anvil.url, {
      freshChain: true,
      network: BSC_LIKE_NETWORK,
    })
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  test('prints every line ok: chain 56, an 18-decimal USDT, the vault and the registry', async () => {
    expectEveryLineOk(await chainCheck(t.db.url, anvil.url, 56), 56, 18)
  })

  test('settings of a 6-decimal token on chain 31337 fail there, each line with its reason', async () => {
    const settings = createSettingsService(t.db.pool)
    await settings.set('chainTokenDecimals', 6, 'test')
    try {
      const r = await chainCheck(t.db.url, anvil.url, 31337)
      expect(r.code, r.out).toBe(1)
      expect(r.rows.get('chain id')).toEqual(['56', 'fail: CHAIN_ID says 31337'])
      expect(r.rows.get('token decimals and symbol')).toEqual([
        '18 decimals, USDT',
        'fail: chainTokenDecimals says 6',
      ])
      expect(r.out).toMatch(/chain:check: 2 line\(s\) failed/)
    } finally {
      await settings.set('chainTokenDecimals', 18, 'test')
    }
  })
})
