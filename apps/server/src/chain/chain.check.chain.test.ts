import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startChainFixture, type ChainFixture } from '../testing/chain-fixture.ts'
import { databaseTargets, useTestDatabase } from '../testing/index.ts'
import { startLogRangeProxy, type LogRangeProxy } from '../testing/log-range-proxy.ts'
import { checkChain, formatCheck } from './chain.check.ts'

describe('chain:check against the local chain', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let fixture: ChainFixture
  let proxy: LogRangeProxy

  beforeAll(async () => {
    fixture = await startChainFixture()
    proxy = await startLogRangeProxy(fixture.anvil.url)
    proxy.capRange(10)
    await fixture.mine(120)
  })
  afterAll(async () => {
    await proxy?.close()
    await fixture?.stop()
  })

  test('a configured local chain passes every line', async () => {
    const settings = await (await fixture.configure(t.db.pool, 3, { por: true })).get()
    const lines = await checkChain({
      urls: [fixture.anvil.url],
      expectedChainId: fixture.anvil.chainId,
      settings,
    })
    expect(lines.filter((l) => l.verdict === 'fail')).toEqual([])
    expect(formatCheck(lines)).toMatch(/token decimals and symbol\s+\| 6 decimals, USDT/)
  })

  test('a wrong chain id, wrong decimals and a log range over the provider cap each fail with the reason', async () => {
    const settings = {
      ...(await (await fixture.configure(t.db.pool, 3)).get()),
      chainTokenDecimals: 18,
      chainLogRange: 100,
    }
    const lines = await checkChain({ urls: [proxy.url], expectedChainId: 56, settings })
    const failed = Object.fromEntries(
      lines
        .filter((l) => l.verdict === 'fail')
        .map((l) => [l.name.replace(/ \(.*\)$/, ''), l.note]),
    )
    expect(failed).toEqual({
      'chain id': 'CHAIN_ID says 56',
      'log range accepted': 'chainLogRange is 100: set it to 10',
      'token decimals and symbol': 'chainTokenDecimals says 18',
    })
  })
})
