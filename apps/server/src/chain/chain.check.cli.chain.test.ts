import { execFile } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import { startChainFixture, type ChainFixture } from '../testing/chain-fixture.ts'
import { databaseTargets, useTestDatabase } from '../testing/index.ts'
import { startAnvil, type LocalChain } from './anvil.ts'
import { BSC_LIKE_NETWORK, configureLocalChain } from './local-chain.ts'

const REPO = path.resolve(import.meta.dirname, '../../../..')

/** `npm run chain:check` as an operator runs it: its exit code and its table, line by line. */
function chainCheck(env: Record<string, string>) {
  return new Promise<{ code: number; out: string; rows: Map<string, string[]> }>((resolve) => {
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
    const r = await chainCheck({
      DATABASE_URL: t.db.url,
      CHAIN_RPC_URLS: fixture.anvil.url,
      CHAIN_ID: String(fixture.anvil.chainId),
    })
    expect(r.code, r.out).toBe(0)
    expect(r.rows.get('chain id')).toEqual(['31337', 'ok'])
    expect(r.rows.get('token decimals and symbol')).toEqual(['6 decimals, USDT', 'ok'])
    expect(r.rows.get('payout vault code')?.[1]).toBe('ok')
    expect(r.rows.get('proof-of-liabilities registry code')?.[1]).toBe('ok')
    expect(r.rows.get("hot wallet's gas")?.[1]).toBe('ok')
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
    const r = await chainCheck({
      DATABASE_URL: t.db.url,
      CHAIN_RPC_URLS: anvil.url,
      CHAIN_ID: '56',
    })
    expect(r.code, r.out).toBe(0)
    expect(r.rows.get('chain id')).toEqual(['56', 'ok'])
    expect(r.rows.get('token decimals and symbol')).toEqual(['18 decimals, USDT', 'ok'])
    expect(r.rows.get('payout vault code')?.[1]).toBe('ok')
    expect(r.rows.get('proof-of-liabilities registry code')?.[1]).toBe('ok')
    expect(r.rows.get("hot wallet's gas")?.[1]).toBe('ok')
  })

  test('settings of a 6-decimal token on chain 31337 fail there, each line with its reason', async () => {
    const settings = createSettingsService(t.db.pool)
    await settings.set('chainTokenDecimals', 6, 'test')
    try {
      const r = await chainCheck({
        DATABASE_URL: t.db.url,
        CHAIN_RPC_URLS: anvil.url,
        CHAIN_ID: '31337',
      })
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
